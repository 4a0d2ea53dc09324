import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { Outcome, rupees, Section, Table, TextAreaField, useForm, useLoad } from '../../components/forms.tsx'
import { Field, Loading, Notice } from '../../components/ui.tsx'
import { longDate, money } from '../../format.ts'
import { go } from '../../router.ts'
import type { Venue } from '../../session.ts'
import { METHOD_LABELS } from '../reports/methods.ts'
import { Scroll } from '../reports/scroll.tsx'

// The desk's cash-up (issue 33): a day's cash and counter payments by the staff member who took
// them, the day's cash-backs (who took the payment, refunded, approved and paid each out), and what
// the drawer should hold (GET /api/venues/{venue}/cash-up); the desk counts the drawer and closes
// the day (POST), after which the day shows expected against counted and the difference, read only.
// For the venue's staff, managers and owner (the service refuses anyone else). The day defaults to
// today on the service's clock, venue time.

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
      <h1>Cash-up at {venue.name}</h1>
      <div class="row cash-up-day">
        <Field
          label="Day"
          type="date"
          value={shown ?? ''}
          max={todayDate}
          onInput={(e) =>
            DATE.test(e.currentTarget.value) && go(`/venues/${venue.id}/cash-up?date=${e.currentTarget.value}`)
          }
        />
        {todayDate && shown !== todayDate && (
          <button type="button" onClick={() => go(`/venues/${venue.id}/cash-up?date=${todayDate}`)}>
            Today
          </button>
        )}
      </div>
      {day.error && <Notice kind="error">{day.error}</Notice>}
      {!day.data ? (
        !day.error && <Loading what="Loading the day's cash" />
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
      <Section title={`${longDate(day.date)}: ${closing ? 'closed' : 'open'}`}>
        {closing ? (
          <ClosedDay day={day} />
        ) : (
          <>
            <Figures
              label="The day's cash so far"
              rows={[
                ['Cash taken', day.cash],
                ['Counter payments (not in the drawer)', day.counter],
                ['Cash-backs paid', day.cash_backs],
                ['Expected in the drawer', day.expected_cash],
              ]}
            />
            <CloseForm venueId={venueId} day={day} early={early} onClosed={onClosed} />
          </>
        )}
      </Section>
      <Section title="By staff member">
        <StaffTable rows={closing ? closing.by_staff : day.by_staff} caption="Expected cash by staff member" />
      </Section>
      <Section title="Desk payments">
        {day.payments.length === 0 ? (
          <p>No payment was taken at the desk that day.</p>
        ) : (
          <Scroll label="Desk payments">
            <Table
              caption="Desk payments of the day"
              columns={['Time', 'Booking', 'Customer', 'Method', 'Taken by', { label: 'Amount', num: true }]}
            >
              {day.payments.map((p) => (
                <tr key={p.id}>
                  <td class="nowrap">{p.received_at.slice(11, 16)}</td>
                  <td class="nowrap">{p.booking_number}</td>
                  <td>{p.customer_name}</td>
                  <td>
                    {p.method === 'cash' ? 'Cash' : `${METHOD_LABELS[p.method]} at the counter`}
                    {p.unverified && ' (typed reference, unverified)'}
                  </td>
                  <td>{p.staff.name ?? `#${p.staff.id}`}</td>
                  <td class="num nowrap">{money(p.amount)}</td>
                </tr>
              ))}
            </Table>
          </Scroll>
        )}
        {day.cash_backs_of_day.length > 0 && (
          <Scroll label="Cash-backs">
            <Table
              caption="Cash-backs of the day"
              columns={[
                'Booking',
                'Status',
                'Payment taken by',
                'Refunded by',
                'Approved by',
                'Paid out by',
                { label: 'Amount', num: true },
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
                      ? `Paid ${c.paid_at?.slice(11, 16) ?? ''}`
                      : c.payment_method === 'cash'
                        ? 'Due'
                        : `Due (${METHOD_LABELS[c.payment_method]}, not from the drawer)`}
                  </td>
                  <td>{who(c.taken_by)}</td>
                  <td>{who(c.cancelled_by)}</td>
                  <td>{c.needs_approval ? who(c.approved_by) : 'Not needed'}</td>
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

function Figures({ label, rows }: { label: string; rows: [string, string][] }) {
  return (
    <dl class="totals" aria-label={label}>
      {rows.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{money(value)}</dd>
        </div>
      ))}
    </dl>
  )
}

function StaffTable({ rows, caption }: { rows: StaffTotals[]; caption: string }) {
  if (rows.length === 0) return <p>Nobody took or paid out money at the desk that day.</p>
  return (
    <Scroll label={caption}>
      <Table
        caption={caption}
        columns={[
          'Staff member',
          { label: 'Payments', num: true },
          { label: 'Cash', num: true },
          { label: 'Counter', num: true },
          { label: 'Cash-backs', num: true },
          { label: 'Expected cash', num: true },
        ]}
      >
        {rows.map((r) => (
          <tr key={r.staff?.id ?? 0}>
            <td>{r.staff?.name ?? 'Unknown'}</td>
            <td class="num">{r.payments}</td>
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
  if (Number(difference) === 0) return 'The drawer matches.'
  return Number(difference) < 0
    ? `The drawer is short by ${money(difference.slice(1))}.`
    : `The drawer is over by ${money(difference)}.`
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
    <form onSubmit={close} aria-label="Close the day">
      <h3>Count the drawer and close the day</h3>
      <p class="muted">Once closed, the day's figures are kept as they are and cannot be changed.</p>
      <Outcome error={f.error} notice={f.notice} />
      <div class="row">
        <Field
          label="Counted cash (Rs)"
          {...f.bind('counted_cash')}
          required
          inputMode="decimal"
          autoComplete="off"
          hint={difference === null ? undefined : differenceText(difference)}
        />
      </div>
      <TextAreaField label="Note (optional)" {...f.bind('note')} />
      {confirming && early && (
        <Notice kind="error">
          It is {early.now} and the venue is open until {early.closes}: money taken after closing the day is not in its
          figures. Close the day anyway?
        </Notice>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={f.busy}>
          {confirming ? 'Close anyway' : `Close ${longDate(day.date)}`}
        </button>
        {confirming && (
          <button type="button" onClick={() => setConfirming(false)}>
            Not yet
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
        label="The day as closed"
        rows={[
          ['Cash taken', c.cash],
          ['Counter payments (not in the drawer)', c.counter],
          ['Cash-backs paid', c.cash_backs],
          ['Expected in the drawer', c.expected_cash],
          ['Counted', c.counted_cash],
          ['Difference', c.difference],
        ]}
      />
      <p>
        <strong>{differenceText(c.difference)}</strong> Closed by {c.closed_by?.name ?? 'someone no longer on file'} at{' '}
        {c.closed_at.slice(0, 16)}.
      </p>
      {c.note && <p>Note: {c.note}</p>}
      {changed && (
        <Notice kind="info">
          Money was recorded for this day after it was closed: it now shows {money(day.expected_cash)} expected in the
          drawer and {money(day.counter)} at the counter. The closing figures above stay as they were.
        </Notice>
      )}
    </>
  )
}
