import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { Outcome, rupees, Section, Table, TextAreaField, useForm, useLoad } from '../../components/forms.tsx'
import { Field, Loading, Notice } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import { bothDates, digits, localName, type MessageKey, t } from '../../i18n/index.ts'
import { go } from '../../router.ts'
import type { Venue } from '../../session.ts'
import { methodLabel } from '../reports/methods.ts'
import { Scroll } from '../reports/scroll.tsx'

// The desk's cash-up (issue 33): a day's cash and counter payments by the staff member who took
// them, the day's cash-backs (who took the payment, refunded, approved and paid each out), and what
// the drawer should hold (GET /api/venues/{venue}/cash-up); the desk counts the drawer and closes
// the day (POST), after which the day shows expected against counted and the difference, read only.
// For the venue's staff, managers and owner (the service refuses anyone else). The day defaults to
// today on the service's clock, venue time. Its words come from the console's catalogue (English or
// Nepali), its dates with the BS date beside (i18n/index.ts).

type CashUp = Schemas['CashUp']
type StaffTotals = CashUp['by_staff'][number]

const DATE = /^\d{4}-\d{2}-\d{2}$/

export function CashUpPage({ venue, date }: { venue: Venue; date?: string }) {
  const venueId = String(venue.id)
  const asked = date && DATE.test(date) ? date : undefined
  const day = useLoad(
    () =>
      ok(
        api().GET('/api/venues/{venue}/cash-up', {
          params: { path: { venue: venueId }, query: asked ? { date: asked } : {} },
        }),
      ).then((r) => r.data),
    [venueId, asked ?? ''],
  )
  // Today on the service's clock (the latest day that can be picked or closed).
  const today = useLoad(
    () =>
      ok(api().GET('/api/venues/{venue}/board', { params: { path: { venue: venueId }, query: {} } })).then((r) => ({
        date: r.data.date,
        early: closesLater(r.data),
      })),
    [venueId],
  )
  const shown = day.data?.date ?? asked
  const todayDate = today.data?.date
  return (
    <section>
      <h1>{t('cashUp.title', { venue: localName(venue) })}</h1>
      <div class="row cash-up-day">
        <Field
          label={t('common.day')}
          type="date"
          value={shown ?? ''}
          max={todayDate}
          onInput={(e) =>
            DATE.test(e.currentTarget.value) && go(`/venues/${venue.id}/cash-up?date=${e.currentTarget.value}`)
          }
        />
        {todayDate && shown !== todayDate && (
          <button type="button" onClick={() => go(`/venues/${venue.id}/cash-up?date=${todayDate}`)}>
            {t('cashUp.today')}
          </button>
        )}
      </div>
      {day.error && <Notice kind="error">{day.error}</Notice>}
      {!day.data ? (
        !day.error && <Loading what={t('cashUp.loading')} />
      ) : (
        <CashUpDay
          venueId={venueId}
          day={day.data}
          early={day.data.date === todayDate ? (today.data?.early ?? null) : null}
          onClosed={day.reload}
        />
      )}
    </section>
  )
}

function CashUpDay({
  venueId,
  day,
  early,
  onClosed,
}: {
  venueId: string
  day: CashUp
  early: Early | null
  onClosed: () => void
}) {
  const closing = day.closing
  return (
    <div class="manage-stack report-stack">
      <Section title={t(closing ? 'cashUp.closed' : 'cashUp.open', { date: bothDates(day.date) })}>
        {closing ? (
          <ClosedDay day={day} />
        ) : (
          <>
            <Figures
              label={t('cashUp.soFar')}
              rows={[
                ['cashUp.cashTaken', day.cash],
                ['cashUp.counterPayments', day.counter],
                ['cashUp.cashBacksPaid', day.cash_backs],
                ['cashUp.expected', day.expected_cash],
              ]}
            />
            <CloseForm venueId={venueId} day={day} early={early} onClosed={onClosed} />
          </>
        )}
      </Section>
      <Section title={t('cashUp.byStaff')}>
        <StaffTable rows={closing ? closing.by_staff : day.by_staff} caption={t('cashUp.byStaffCaption')} />
      </Section>
      <Section title={t('cashUp.deskPayments')}>
        {day.payments.length === 0 ? (
          <p>{t('cashUp.noPayments')}</p>
        ) : (
          <Scroll label={t('cashUp.deskPayments')}>
            <Table
              caption={t('cashUp.deskPaymentsCaption')}
              columns={[
                t('common.time'),
                t('common.booking'),
                t('common.customer'),
                t('common.method'),
                t('cashUp.takenBy'),
                { label: t('common.amount'), num: true },
              ]}
            >
              {day.payments.map((p) => (
                <tr key={p.id}>
                  <td class="nowrap">{digits(p.received_at.slice(11, 16))}</td>
                  <td class="nowrap">{p.booking_number}</td>
                  <td>{p.customer_name}</td>
                  <td>
                    {p.method === 'cash' ? t('method.cash') : t('cashUp.atCounter', { method: methodLabel(p.method) })}
                    {p.unverified && t('cashUp.unverified')}
                  </td>
                  <td>{p.staff.name ?? `#${p.staff.id}`}</td>
                  <td class="num nowrap">{money(p.amount)}</td>
                </tr>
              ))}
            </Table>
          </Scroll>
        )}
        {day.cash_backs_of_day.length > 0 && (
          <Scroll label={t('cashUp.cashBacks')}>
            <Table
              caption={t('cashUp.cashBacksCaption')}
              columns={[
                t('common.booking'),
                t('common.status'),
                t('cashUp.paymentTakenBy'),
                t('cashUp.refundedBy'),
                t('cashUp.approvedBy'),
                t('cashUp.paidOutBy'),
                { label: t('common.amount'), num: true },
              ]}
            >
              {day.cash_backs_of_day.map((c) => (
                <tr key={c.id}>
                  <td class="nowrap">
                    {c.booking_number ?? '—'}
                    {c.reason && (
                      <>
                        <br />
                        <span class="muted">{c.reason}</span>
                      </>
                    )}
                  </td>
                  <td>
                    {c.status === 'paid'
                      ? t('cashUp.paidAt', { time: digits(c.paid_at?.slice(11, 16) ?? '') })
                      : c.payment_method === 'cash'
                        ? t('cashUp.due')
                        : t('cashUp.dueOnline', { method: methodLabel(c.payment_method) })}
                  </td>
                  <td>{who(c.taken_by)}</td>
                  <td>{who(c.cancelled_by)}</td>
                  <td>{c.needs_approval ? who(c.approved_by) : t('cashUp.notNeeded')}</td>
                  <td>{who(c.paid_by)}</td>
                  <td class="num nowrap">{money(c.amount)}</td>
                </tr>
              ))}
            </Table>
          </Scroll>
        )}
      </Section>
    </div>
  )
}

const who = (r: { id: number; name: string | null } | null) => (r ? (r.name ?? `#${r.id}`) : '—')

function Figures({ label, rows }: { label: string; rows: [MessageKey, string][] }) {
  return (
    <dl class="totals" aria-label={label}>
      {rows.map(([name, value]) => (
        <div key={name}>
          <dt>{t(name)}</dt>
          <dd>{money(value)}</dd>
        </div>
      ))}
    </dl>
  )
}

function StaffTable({ rows, caption }: { rows: StaffTotals[]; caption: string }) {
  if (rows.length === 0) return <p>{t('cashUp.nobody')}</p>
  return (
    <Scroll label={caption}>
      <Table
        caption={caption}
        columns={[
          t('cashUp.staffMember'),
          { label: t('cashUp.payments'), num: true },
          { label: t('cashUp.cash'), num: true },
          { label: t('cashUp.counter'), num: true },
          { label: t('cashUp.cashBacks'), num: true },
          { label: t('cashUp.expectedCash'), num: true },
        ]}
      >
        {rows.map((r) => (
          <tr key={r.staff?.id ?? 0}>
            <td>{r.staff?.name ?? t('cashUp.unknown')}</td>
            <td class="num">{digits(String(r.payments))}</td>
            <td class="num nowrap">{money(r.cash)}</td>
            <td class="num nowrap">{money(r.counter)}</td>
            <td class="num nowrap">{money(r.cash_backs)}</td>
            <td class="num nowrap">{money(r.expected_cash)}</td>
          </tr>
        ))}
      </Table>
    </Scroll>
  )
}

/** "12.50" − "10.00" in paisa, as text ("2.50"); null when `counted` is not an amount. */
function differenceOf(counted: string, expected: string): string | null {
  const c = rupees(counted)
  if (!/^\d+(\.\d{1,2})?$/.test(c)) return null
  const paisa = (v: string) => {
    const [w, f = ''] = v.replace('-', '').split('.')
    const n = Number(w) * 100 + Number((f + '00').slice(0, 2))
    return v.startsWith('-') ? -n : n
  }
  const d = paisa(c) - paisa(expected)
  return `${d < 0 ? '-' : ''}${Math.floor(Math.abs(d) / 100)}.${String(Math.abs(d) % 100).padStart(2, '0')}`
}

function differenceText(difference: string): string {
  if (Number(difference) === 0) return t('cashUp.matches')
  return Number(difference) < 0
    ? t('cashUp.short', { amount: money(difference.slice(1)) })
    : t('cashUp.over', { amount: money(difference) })
}

/** Today before closing time (issue 51): the venue time now and when the last court or game closes. */
type Early = { now: string; closes: string }

/** The board's "now" and the latest closing time of the day, when that is still ahead; else null. */
function closesLater(board: Schemas['DeskBoard']): Early | null {
  const closes = [board.venue.closing_time.slice(0, 5), ...board.columns.map((c) => c.close_time ?? '')]
    .filter(Boolean)
    .map((t) => (t === '00:00' ? '24:00' : t))
    .sort()
    .pop()
  const now = board.now.slice(11, 16)
  return closes && board.now.slice(0, 10) === board.date && now < closes ? { now, closes } : null
}

function CloseForm({
  venueId,
  day,
  early,
  onClosed,
}: {
  venueId: string
  day: CashUp
  early: Early | null
  onClosed: () => void
}) {
  const f = useForm({ counted_cash: '', note: '' })
  const [confirming, setConfirming] = useState(false)
  const difference = differenceOf(f.values.counted_cash, day.expected_cash)
  async function close(e: Event) {
    e.preventDefault()
    // Before closing time the day may still take money: ask once before closing it.
    if (early && !confirming) {
      setConfirming(true)
      return
    }
    const done = await f.submit(async () => {
      await ok(
        api().POST('/api/venues/{venue}/cash-up', {
          params: { path: { venue: venueId } },
          body: { date: day.date, counted_cash: rupees(f.values.counted_cash), note: f.values.note.trim() || null },
        }),
      )
      return undefined
    })
    if (done) onClosed()
  }
  return (
    <form onSubmit={close} aria-label={t('cashUp.closeDay')}>
      <h3>{t('cashUp.countAndClose')}</h3>
      <p class="muted">{t('cashUp.closedForever')}</p>
      <Outcome error={f.error} notice={f.notice} />
      <div class="row">
        <Field
          label={t('cashUp.countedCash')}
          {...f.bind('counted_cash')}
          required
          inputMode="decimal"
          autoComplete="off"
          hint={difference === null ? undefined : differenceText(difference)}
        />
      </div>
      <TextAreaField label={t('cashUp.note')} {...f.bind('note')} />
      {confirming && early && (
        <Notice kind="error">{t('cashUp.early', { now: early.now, closes: early.closes })}</Notice>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={f.busy}>
          {confirming ? t('cashUp.closeAnyway') : t('cashUp.closeDate', { date: bothDates(day.date) })}
        </button>
        {confirming && (
          <button type="button" onClick={() => setConfirming(false)}>
            {t('cashUp.notYet')}
          </button>
        )}
      </div>
    </form>
  )
}

function ClosedDay({ day }: { day: CashUp }) {
  const c = day.closing!
  const changed = c.expected_cash !== day.expected_cash || c.counter !== day.counter
  return (
    <>
      <Figures
        label={t('cashUp.asClosed')}
        rows={[
          ['cashUp.cashTaken', c.cash],
          ['cashUp.counterPayments', c.counter],
          ['cashUp.cashBacksPaid', c.cash_backs],
          ['cashUp.expected', c.expected_cash],
          ['cashUp.counted', c.counted_cash],
          ['cashUp.difference', c.difference],
        ]}
      />
      <p>
        <strong>{differenceText(c.difference)}</strong>{' '}
        {t('cashUp.closedBy', {
          name: c.closed_by?.name ?? t('cashUp.someoneGone'),
          time: digits(c.closed_at.slice(0, 16).replace('T', ' ')),
        })}
      </p>
      {c.note && <p>{t('cashUp.noteIs', { note: c.note })}</p>}
      {changed && (
        <Notice kind="info">
          {t('cashUp.changedAfter', { expected: money(day.expected_cash), counter: money(day.counter) })}
        </Notice>
      )}
    </>
  )
}
