import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import { minutesOf, money, statusLabel, timeOf } from '../../format.ts'
import { digits, type MessageKey, t } from '../../i18n/index.ts'
import type { Board, BoardBlock, BoardBooking, Column, Slot } from './data.ts'

// The day's grid: a time axis and one column per court and indoor game, each on its own slot grid
// (slot lengths and opening hours differ), placed on one shared row unit. Every free slot, booking
// and block is a button, in time order inside its column (the focus order); positions are set with
// CSSOM (style objects), which the console's CSP allows.

export interface GridHandlers {
  onFree(column: Column, slot: Slot): void
  onBooking(booking: BoardBooking): void
  onBlock(column: Column, block: BoardBlock): void
  onBlockCourt(column: Column): void
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))
/** End of a range in minutes; "00:00" as an end is midnight at the end of the day. */
const endOf = (start: string, end: string) => {
  const m = minutesOf(end)
  return m <= minutesOf(start) ? m + 1440 : m
}

/** Pixels per minute: an hour has room for a booking's five lines, the shortest slot for two. */
const HOUR_PX = 104
const MIN_SLOT_PX = 46

interface Item {
  key: string
  start: number
  end: number
  node: preact.JSX.Element
}

/** A weekday's name in the console's language, 0 = Sunday (the API's `weekday`). */
export function weekdayName(day: number): string {
  return t(`day.${day}` as MessageKey)
}

/**
 * A payment hold's end and the minutes left on the board's clock: "Hold ends 18:15 (35 min)", or for
 * the slot offered to the first waiting customer "Waitlist offer ends 17:50 (10 min)".
 */
export function holdText(b: BoardBooking, now: string): string {
  if (!b.is_hold || !b.hold_expires_at) return ''
  // Both are the venue's wall clock ("YYYY-MM-DD HH:mm:ss"), so their difference is the time left.
  const wall = (t: string) => Date.parse(`${t.replace(' ', 'T')}Z`)
  const left = Math.max(0, Math.round((wall(b.hold_expires_at) - wall(now)) / 60000))
  return t(b.is_waitlist_offer ? 'board.offerEnds' : 'board.holdEnds', {
    time: digits(b.hold_expires_at.slice(11, 16)),
    left,
  })
}

/** Where the grid starts: the current hour on today (venue time, as the service last said), else null. */
export function currentHour(board: Board): number | null {
  if (board.now.slice(0, 10) !== board.date) return null
  return Math.floor(minutesOf(board.now.slice(11, 16)) / 60) * 60
}

export function Grid({ board, on }: { board: Board; on: GridHandlers }) {
  const columns = board.columns
  const open = columns.filter((c) => !c.is_closed && c.slots.length)
  let first = open.length
    ? Math.min(...open.map((c) => minutesOf(c.slots[0].start_time)))
    : minutesOf(board.venue.opening_time)
  let last = open.length
    ? Math.max(...open.map((c) => endOf(c.slots[0].start_time, c.slots[c.slots.length - 1].end_time)))
    : endOf(board.venue.opening_time, board.venue.closing_time)
  first = Math.floor(first / 60) * 60
  last = Math.ceil(last / 60) * 60
  let unit = 60
  let shortest = 60
  for (const c of open) {
    unit = gcd(unit, c.slot_minutes)
    shortest = Math.min(shortest, c.slot_minutes)
    for (const s of c.slots) unit = gcd(unit, minutesOf(s.start_time) % 60 || 60)
  }

  // Today opens at the current hour: the hours before it are one "Earlier" row that expands.
  const [showEarlier, setShowEarlier] = useState(false)
  const hour = currentHour(board)
  const cut = hour === null ? null : Math.min(hour, last - 60)
  const collapsed = cut !== null && cut > first && !showEarlier
  const top = collapsed ? cut : first

  const rows = Math.max(1, (last - top) / unit)
  const perMinute = Math.max(HOUR_PX / 60, MIN_SLOT_PX / shortest)
  const baseRowPx = Math.round(perMinute * unit)
  // Rows grow until no cell's content is cut off (long names, a hold's line on a narrow phone).
  const [fitPx, setFitPx] = useState(0)
  const rowPx = Math.max(baseRowPx, fitPx)
  const rowOf = (m: number) => Math.round((Math.max(m, top) - top) / unit) + 1
  const place = (start: number, end: number) => ({ gridRow: `${rowOf(start)} / ${rowOf(end)}` })
  const body = { gridTemplateRows: `repeat(${rows}, ${rowPx}px)` }

  const scroller = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    const el = scroller.current
    if (!el) return
    const fit = () => {
      const need = neededRowPx(el)
      setFitPx((px) => (px === need ? px : need))
    }
    fit()
    const watch = new ResizeObserver(fit)
    watch.observe(el)
    return () => watch.disconnect()
  }, [board, top, unit])

  const hours: number[] = []
  for (let m = top; m < last; m += 60) hours.push(m)

  const earlier = collapsed
    ? board.bookings.filter(
        (b) =>
          b.status !== 'cancelled' &&
          minutesOf(b.start_time) < cut &&
          columns.some(
            (c) => c.kind === b.kind && c.id === b.resource_id && c.slots.some((s) => s.booking_id === b.id),
          ),
      ).length
    : 0

  return (
    <div class="board-scroll" ref={scroller}>
      {cut !== null && cut > first && (
        <div class="earlier-row">
          <button
            type="button"
            class="earlier"
            aria-expanded={showEarlier}
            aria-controls="board-grid"
            onClick={() => setShowEarlier(!showEarlier)}
          >
            {showEarlier
              ? t('board.hideEarlier', { time: digits(timeOf(cut)) })
              : t(earlier === 1 ? 'board.earlierOne' : 'board.earlierMany', {
                  from: digits(timeOf(first)),
                  to: digits(timeOf(cut)),
                  n: earlier,
                })}
          </button>
        </div>
      )}
      <div class="board-grid" id="board-grid">
        <div class="board-axis" aria-hidden="true">
          <div class="col-head" />
          <div class="col-body" style={body}>
            {hours.map((m) => (
              <span
                key={m}
                class={`axis-hour${m === hour ? ' axis-now' : ''}`}
                style={place(m, m + 60 > last ? last : m + 60)}
              >
                {digits(timeOf(m % 1440))}
              </span>
            ))}
          </div>
        </div>
        {columns.map((c) => (
          <ColumnView
            key={`${c.kind}-${c.id}`}
            column={c}
            board={board}
            on={on}
            place={place}
            body={body}
            top={top}
            unit={unit}
          />
        ))}
      </div>
    </div>
  )
}

/**
 * The row height (px) at which every cell of the grid shows all its lines: each cell's content
 * measured from its top to its last line's bottom, plus its own and its wrapper's padding and
 * border, shared out over the rows it spans. 0 when nothing is rendered.
 */
function neededRowPx(grid: HTMLElement): number {
  let need = 0
  for (const wrap of grid.querySelectorAll<HTMLElement>('.cell-wrap')) {
    const cell = wrap.firstElementChild as HTMLElement | null
    const lastLine = cell?.lastElementChild
    if (!cell || !lastLine) continue
    const wrapStyle = getComputedStyle(wrap)
    const cellStyle = getComputedStyle(cell)
    const px = (v: string) => Number.parseFloat(v) || 0
    const content = lastLine.getBoundingClientRect().bottom - cell.getBoundingClientRect().top
    const height =
      content +
      px(cellStyle.paddingBottom) +
      px(cellStyle.borderBottomWidth) +
      px(wrapStyle.paddingTop) +
      px(wrapStyle.paddingBottom)
    need = Math.max(need, Math.ceil((height + 1) / Number(wrap.dataset.rows || 1)))
  }
  return need
}

function ColumnView({
  column: c,
  board,
  on,
  place,
  body,
  top,
  unit,
}: {
  column: Column
  board: Board
  on: GridHandlers
  place: (start: number, end: number) => { gridRow: string }
  body: { gridTemplateRows: string }
  /** The grid's first minute: what ends by then is behind the "Earlier" row. */
  top: number
  unit: number
}) {
  const headId = `col-${c.kind}-${c.id}`
  const occupying = new Set(c.slots.map((s) => s.booking_id).filter((id): id is number => id !== null))
  const bookings = board.bookings.filter((b) => b.kind === c.kind && b.resource_id === c.id && occupying.has(b.id))
  const blocks = c.kind === 'court' ? board.blocks.filter((k) => k.court_id === c.id) : []
  const items: Item[] = []
  for (const b of bookings) {
    const start = minutesOf(b.start_time)
    items.push({
      key: `b${b.id}`,
      start,
      end: endOf(b.start_time, b.end_time),
      node: <BookingCell b={b} c={c} board={board} on={on} />,
    })
  }
  for (const k of blocks) {
    const start = minutesOf(k.start_time)
    items.push({
      key: `k${k.id}`,
      start,
      end: endOf(k.start_time, k.end_time),
      node: (
        <button type="button" class="cell cell-blocked" onClick={() => on.onBlock(c, k)}>
          <span class="sr-only">{c.name}, </span>
          <span class="cell-time">{digits(`${k.start_time}–${k.end_time}`)}</span>{' '}
          <strong>{t('board.maintenance')}</strong> {k.reason && <span>{k.reason}</span>}
        </button>
      ),
    })
  }
  if (!c.is_closed) {
    for (const s of c.slots) {
      if (s.state === 'booked' || s.state === 'blocked') continue
      const start = minutesOf(s.start_time)
      const end = endOf(s.start_time, s.end_time)
      items.push({
        key: `s${s.start_time}`,
        start,
        end,
        node:
          s.state === 'free' || s.state === 'now' ? (
            <button
              type="button"
              class={`cell cell-free${s.state === 'now' ? ' cell-now' : ''}`}
              onClick={() => on.onFree(c, s)}
            >
              <span class="sr-only">{c.name}, </span>
              <span class="cell-time">{digits(s.start_time)}</span>{' '}
              {s.state === 'now' && <strong class="cell-now-label">{t('board.now')}</strong>}
              <span>
                {t('board.free')}
                {s.price && <span class="cell-price">{t('board.perHour', { price: money(s.price) })}</span>}
              </span>
            </button>
          ) : (
            <div class="cell cell-past">
              <span class="cell-time">{digits(s.start_time)}</span> <span>{t('board.past')}</span>{' '}
            </div>
          ),
      })
    }
  }
  const shown = items.filter((i) => i.end > top).sort((a, b) => a.start - b.start)
  return (
    <section class={`board-col${c.is_active ? '' : ' inactive'}`} aria-labelledby={headId}>
      <header class="col-head">
        <h2 id={headId}>{c.name}</h2>
        <span class="muted col-kind">
          {c.kind === 'court' ? c.type : t('board.game', { type: c.type })}
          {!c.is_active && t('board.inactive')}
        </span>
        {c.kind === 'court' && !c.is_closed && (
          <button type="button" class="small" onClick={() => on.onBlockCourt(c)}>
            <BlockLabel court={c.name} />
          </button>
        )}
      </header>
      <div class="col-body" style={body}>
        {c.is_closed && <p class="cell cell-closed">{t('board.closedToday')}</p>}
        {shown.map((i) => (
          <div
            key={i.key}
            class="cell-wrap"
            style={place(i.start, i.end)}
            data-rows={Math.max(1, Math.round((i.end - Math.max(i.start, top)) / unit))}
          >
            {i.node}
          </div>
        ))}
      </div>
    </section>
  )
}

function BookingCell({ b, c, board, on }: { b: BoardBooking; c: Column; board: Board; on: GridHandlers }) {
  const due = Number(b.balance_due) > 0
  const hold = holdText(b, board.now)
  return (
    <button
      type="button"
      class={`cell cell-booking st-${b.status}${b.is_hold ? ' is-hold' : ''}`}
      onClick={() => on.onBooking(b)}
    >
      <span class="sr-only">{c.name}, </span>
      <span class="cell-time">{digits(`${b.start_time}–${b.end_time}`)}</span>{' '}
      <strong class="cell-name">{b.customer_name}</strong>{' '}
      <span class="cell-number">
        {b.booking_number}
        {b.series_id !== null && t('board.weekly')}
      </span>{' '}
      {/* A payment hold is a pending booking: its expiry takes the status line. */}
      {hold ? <span class="cell-hold">{hold} </span> : <span class="cell-status">{statusLabel(b.status)} </span>}
      {b.waitlist_count > 0 && <span class="cell-waiting">{t('board.waiting', { n: b.waitlist_count })} </span>}
      {b.shares && (
        <span class="cell-shares">{t('board.shares', { paid: b.shares.paid, total: b.shares.total })} </span>
      )}
      <span class={due ? 'cell-due' : 'cell-paid'}>
        {due ? t('board.dueAmount', { amount: money(b.balance_due) }) : t('board.paidInFull')}
      </span>
    </button>
  )
}

/** "Block {court} time" with the court's name for screen readers only (the column's head shows it). */
function BlockLabel({ court }: { court: string }) {
  const [before, after = ''] = t('board.blockTime').split('{court}')
  return (
    <>
      {before}
      <span class="sr-only">{court}</span>
      {after}
    </>
  )
}
