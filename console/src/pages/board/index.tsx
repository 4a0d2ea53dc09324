import { useCallback, useState } from 'preact/hooks'
import type { User } from '../../api.ts'
import { Loading, Notice } from '../../components/ui.tsx'
import { addDays, money } from '../../format.ts'
import { bothDates, count, digits, localName, t } from '../../i18n/index.ts'
import { go } from '../../router.ts'
import type { Venue } from '../../session.ts'
import { CashBacksDue } from './cash-backs.tsx'
import { type Board, type BoardBlock, type BoardBooking, type Column, useBoard } from './data.ts'
import { BlockDialog, BookingDialog, NewBookingDialog, UnblockDialog } from './dialogs.tsx'
import { GatewayRefundsDue } from './gateway-refunds.tsx'
import { Grid } from './grid.tsx'

// The day board of the front desk (issue 16): a date, the day's totals, the grid of courts and
// games kept current by the venue's event stream, and the dialogs of the desk's actions.

type Open =
  | { kind: 'new'; column: Column; start: string }
  | { kind: 'booking'; booking: BoardBooking }
  | { kind: 'block'; column: Column }
  | { kind: 'unblock'; column: Column; block: BoardBlock }
  | null

/** Whether a booking has started, on the venue's clock as the board last saw it (`now`, venue time). */
function hasStarted(now: string, date: string, start: string): boolean {
  const today = now.slice(0, 10)
  return date < today || (date === today && start <= now.slice(11, 16))
}

export function BoardPage({ user, venue, date }: { user: User; venue: Venue; date?: string }) {
  const { board, error, live, announce, reload } = useBoard(venue.id, date)
  const [open, setOpen] = useState<Open>(null)
  const [done, setDone] = useState<string | null>(null)
  const close = useCallback(() => setOpen(null), [])
  const finished = (message: string) => {
    setOpen(null)
    setDone(message)
    reload()
  }
  const to = (d: string | null) => go(`/venues/${venue.id}/board${d ? `?date=${d}` : ''}`)

  if (error && !board) return <Notice kind="error">{error}</Notice>
  if (!board) return <Loading what={t('board.loading')} />
  const cancelled = board.bookings.filter(
    (b) =>
      !board.columns.some(
        (c) => c.kind === b.kind && c.id === b.resource_id && c.slots.some((s) => s.booking_id === b.id),
      ),
  )
  const current =
    open?.kind === 'booking'
      ? board.bookings.find((b) => b.id === open.booking.id && b.kind === open.booking.kind)
      : undefined

  return (
    <section class="board" aria-labelledby="board-title">
      <div class="board-top no-print">
        <h1 id="board-title">
          {localName({ name: board.venue.name, name_ne: venue.id === board.venue.id ? venue.name_ne : null })}{' '}
          <span class="muted">· {bothDates(board.date)}</span>
        </h1>
        <nav class="day-nav" aria-label={t('common.day')}>
          <button type="button" onClick={() => to(addDays(board.date, -1))}>
            {t('board.previous')}
          </button>
          <button type="button" onClick={() => to(null)}>
            {t('board.today')}
          </button>
          <button type="button" onClick={() => to(addDays(board.date, 1))}>
            {t('board.next')}
          </button>
          <button type="button" onClick={() => to(addDays(board.date, 7))}>
            {t('board.week')}
          </button>
          <label class="inline-field">
            <span>{t('common.date')}</span>
            <input
              type="date"
              value={board.date}
              onChange={(e) => e.currentTarget.value && to(e.currentTarget.value)}
            />
          </label>
          <span class={`live live-${live}`}>
            {t(live === 'live' ? 'board.live' : live === 'connecting' ? 'board.connecting' : 'board.reconnecting')}
          </span>
        </nav>
        <dl class="totals" aria-label={t('board.totals')}>
          <div>
            <dt>{t('common.bookings')}</dt>
            <dd>{count(board.totals.bookings)}</dd>
          </div>
          <div>
            <dt>{t('board.paid')}</dt>
            <dd>{money(board.totals.paid)}</dd>
          </div>
          <div>
            <dt>{t('board.due')}</dt>
            <dd>{money(board.totals.due)}</dd>
          </div>
          <div>
            <dt>{t('board.cashTaken')}</dt>
            <dd>{money(board.totals.cash_taken)}</dd>
          </div>
        </dl>
        <p class="sr-only" role="status" aria-live="polite">
          {announce}
        </p>
        {error && <Notice kind="error">{error}</Notice>}
        {done && <Notice kind="success">{done}</Notice>}
        {board.is_holiday && (
          <Notice>
            {board.holiday_reason ? t('board.holidayReason', { reason: board.holiday_reason }) : t('board.holiday')}
          </Notice>
        )}
        {board.columns.length === 0 && <Notice>{t('board.noColumns')}</Notice>}
      </div>
      <CashBacksDue user={user} venue={venue} board={board} />
      <GatewayRefundsDue user={user} venue={venue} board={board} />
      <Grid
        key={board.date}
        board={board}
        on={{
          onFree: (column, slot) => {
            setDone(null)
            setOpen({ kind: 'new', column, start: slot.start_time })
          },
          onBooking: (booking) => {
            setDone(null)
            setOpen({ kind: 'booking', booking })
          },
          onBlock: (column, block) => setOpen({ kind: 'unblock', column, block }),
          onBlockCourt: (column) => setOpen({ kind: 'block', column }),
        }}
      />
      {cancelled.length > 0 && (
        <section class="released no-print" aria-labelledby="released-head">
          <h2 id="released-head">{t('board.released')}</h2>
          <ul class="released-list">
            {cancelled.map((b) => {
              const column = board.columns.find((c) => c.kind === b.kind && c.id === b.resource_id)
              return (
                <li key={`${b.kind}-${b.id}`}>
                  <button type="button" class="link" onClick={() => setOpen({ kind: 'booking', booking: b })}>
                    {b.booking_number} · {b.customer_name} · {column?.name} {digits(`${b.start_time}–${b.end_time}`)} ·{' '}
                    {b.status === 'cancelled' ? t('status.cancelled') : t('board.holdExpired')}
                  </button>
                </li>
              )
            })}
          </ul>
        </section>
      )}
      {open?.kind === 'new' && (
        <NewBookingDialog
          venueId={venue.id}
          board={board}
          column={open.column}
          start={open.start}
          onClose={close}
          onDone={finished}
        />
      )}
      {open?.kind === 'booking' && (
        <BookingDialog
          venueId={venue.id}
          venueName={board.venue.name}
          board={board}
          booking={current ?? open.booking}
          started={hasStarted(board.now, board.date, open.booking.start_time)}
          onClose={close}
          onChanged={() => reload()}
        />
      )}
      {open?.kind === 'block' && <BlockDialog board={board} column={open.column} onClose={close} onDone={finished} />}
      {open?.kind === 'unblock' && (
        <UnblockDialog column={open.column} block={open.block} onClose={close} onDone={finished} />
      )}
    </section>
  )
}

export type { Board }
