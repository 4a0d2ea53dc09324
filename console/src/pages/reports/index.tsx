import { useEffect, useRef, useState } from 'preact/hooks'
import { api, messageOf, ok, type User } from '../../api.ts'
import { Loaded, Section, Table, useLoad } from '../../components/forms.tsx'
import { Field, Loading, Notice } from '../../components/ui.tsx'
import { longDate, money } from '../../format.ts'
import { go, href } from '../../router.ts'
import { managesVenue, type Venue } from '../../session.ts'
import { addMonths, monthRange } from '../money/month.ts'
import { Heatmap } from './heatmap.tsx'
import { METHOD_LABELS, METHODS, type RevenueDay, type Summary } from './methods.ts'
import { Scroll } from './scroll.tsx'

// The owner's and managers' view of their business (issue 33): a date range (this month so far,
// last month, or any range up to 366 days), the totals, an occupancy heatmap by weekday and hour,
// net revenue by day stacked by payment method (Chart.js, loaded only here), the no-show rate, the
// top customers, and the bookings and payments as CSV files. Every figure is
// GET /api/venues/{venue}/reports/summary (docs/reports.md says how each is counted). Today is the
// service's today (the board's date, venue time), never this device's.

const DATE = /^\d{4}-\d{2}-\d{2}$/

export function ReportsPage({ user, venue, from, to }: { user: User; venue: Venue; from?: string; to?: string }) {
  const venueId = String(venue.id)
  const asked = from && to && DATE.test(from) && DATE.test(to) ? { from, to } : undefined
  const today = useLoad(
    () =>
      ok(api().GET('/api/venues/{venue}/board', { params: { path: { venue: venueId }, query: {} } })).then(
        (r) => r.data.date,
      ),
    [venueId],
  )
  if (!managesVenue(user, venue)) {
    return (
      <section>
        <h1>Reports at {venue.name}</h1>
        <Notice kind="error">
          Reports are for the venue's owner and managers. You work here as staff: you can use the day board and the
          cash-up.
        </Notice>
        <p>
          <a href={href(`/venues/${venue.id}/board`)}>Back to the day board</a>
        </p>
      </section>
    )
  }
  const range = asked ?? (today.data ? { from: `${today.data.slice(0, 7)}-01`, to: today.data } : undefined)
  return (
    <section>
      <h1>Reports at {venue.name}</h1>
      {today.error && <Notice kind="error">{today.error}</Notice>}
      {!range || !today.data ? (
        !today.error && <Loading what="Loading the reports" />
      ) : (
        <div class="manage-stack report-stack">
          <RangePicker venue={venue} range={range} today={today.data} />
          <Report venue={venue} range={range} />
        </div>
      )}
    </section>
  )
}

function RangePicker({ venue, range, today }: { venue: Venue; range: { from: string; to: string }; today: string }) {
  const [from, setFrom] = useState(range.from)
  const [to, setTo] = useState(range.to)
  useEffect(() => {
    setFrom(range.from)
    setTo(range.to)
  }, [range.from, range.to])
  const show = (r: { from: string; to: string }) => go(`/venues/${venue.id}/reports?from=${r.from}&to=${r.to}`)
  const thisMonth = { from: `${today.slice(0, 7)}-01`, to: today }
  const lastMonth = monthRange(addMonths(today.slice(0, 7), -1))
  const same = (r: { from: string; to: string }) => r.from === range.from && r.to === range.to
  return (
    <div class="card">
      <h2>Range</h2>
      <p class="muted">
        {longDate(range.from)} to {longDate(range.to)}
      </p>
      <div class="row report-range">
        <button type="button" aria-pressed={same(thisMonth)} onClick={() => show(thisMonth)}>
          This month
        </button>
        <button type="button" aria-pressed={same(lastMonth)} onClick={() => show(lastMonth)}>
          Last month
        </button>
        <form
          class="row"
          aria-label="Custom range"
          onSubmit={(e) => {
            e.preventDefault()
            if (DATE.test(from) && DATE.test(to)) show({ from, to })
          }}
        >
          <Field label="From" type="date" value={from} max={to} onInput={(e) => setFrom(e.currentTarget.value)} />
          <Field label="To" type="date" value={to} min={from} onInput={(e) => setTo(e.currentTarget.value)} />
          <button type="submit">Show range</button>
        </form>
      </div>
    </div>
  )
}

function Report({ venue, range }: { venue: Venue; range: { from: string; to: string } }) {
  const venueId = String(venue.id)
  const summary = useLoad(
    () =>
      ok(
        api().GET('/api/venues/{venue}/reports/summary', {
          params: { path: { venue: venueId }, query: { from: range.from, to: range.to } },
        }),
      ).then((r) => r.data),
    [venueId, range.from, range.to],
  )
  return (
    <Loaded state={summary} loading="Loading the figures" empty="" isEmpty={() => false}>
      {(s) => (
        <>
          <Section title="Totals">
            <Totals s={s} />
            <Downloads venue={venue} range={range} />
          </Section>
          <Section title="Revenue by day">
            <RevenueByDay days={s.by_day} net={s.revenue.net} />
          </Section>
          <Section title="Occupancy by weekday and hour">
            <Heatmap cells={s.by_hour} />
          </Section>
          <Section title="Top customers">
            <TopCustomers s={s} />
          </Section>
        </>
      )}
    </Loaded>
  )
}

const percent = (n: number, digits = 1) => `${n.toFixed(digits)}%`

function Totals({ s }: { s: Summary }) {
  const b = s.bookings.by_status
  const totals: [string, string][] = [
    ['Bookings', String(s.bookings.total)],
    ['Net revenue', money(s.revenue.net)],
    ['Received', money(s.revenue.gross)],
    ['Refunded', money(s.revenue.refunds)],
    ['Occupancy', percent(s.occupancy.percent)],
    ['No-show rate', percent(s.no_show_rate * 100)],
  ]
  return (
    <>
      <dl class="totals" aria-label="The range's totals">
        {totals.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p class="muted">
        {s.occupancy.booked_hours} of {s.occupancy.open_hours} open hours booked. Bookings: {b.completed} completed,{' '}
        {b.confirmed + b.playing} confirmed or playing, {b.pending} awaiting payment, {b.no_show} no-shows,{' '}
        {b.cancelled} cancelled. Money counts on the day it moved; revenue is before commission.
      </p>
      <Table caption="Net revenue by payment method" columns={['Method', { label: 'Net', num: true }]}>
        {METHODS.map((m) => (
          <tr key={m}>
            <td>{METHOD_LABELS[m]}</td>
            <td class="num nowrap">{money(s.revenue.by_method[m])}</td>
          </tr>
        ))}
      </Table>
    </>
  )
}

/** The CSV exports, fetched with the bearer token (a plain link cannot send it) and saved from a Blob. */
function Downloads({ venue, range }: { venue: Venue; range: { from: string; to: string } }) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null })
  async function download(what: 'bookings' | 'payments') {
    setState({ busy: true, error: null })
    try {
      const options = {
        params: { path: { venue: String(venue.id) }, query: range },
        headers: { accept: 'text/csv' },
        parseAs: 'blob' as const,
      }
      const blob =
        what === 'bookings'
          ? await ok(api().GET('/api/venues/{venue}/reports/bookings.csv', options))
          : await ok(api().GET('/api/venues/{venue}/reports/payments.csv', options))
      const url = URL.createObjectURL(blob)
      const a = document.createElement('a')
      a.href = url
      a.download = `${what}-${venue.slug}-${range.from}-${range.to}.csv`
      document.body.append(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
      setState({ busy: false, error: null })
    } catch (err) {
      setState({ busy: false, error: messageOf(err) })
    }
  }
  return (
    <>
      <div class="actions">
        <button type="button" disabled={state.busy} onClick={() => download('bookings')}>
          Download bookings CSV
        </button>
        <button type="button" disabled={state.busy} onClick={() => download('payments')}>
          Download payments CSV
        </button>
      </div>
      {state.error && <Notice kind="error">{state.error}</Notice>}
    </>
  )
}

/** The stacked bar chart (lazy Chart.js) and the same numbers as a table for screen readers. */
function RevenueByDay({ days, net }: { days: RevenueDay[]; net: string }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const [failed, setFailed] = useState<string | null>(null)
  useEffect(() => {
    let stop: (() => void) | undefined
    let live = true
    import('./revenue-chart.ts')
      .then((m) => {
        if (live && canvas.current) stop = m.drawRevenue(canvas.current, days)
      })
      .catch((err: unknown) => live && setFailed(messageOf(err)))
    return () => {
      live = false
      stop?.()
    }
  }, [days])
  const best = days.reduce<RevenueDay | null>((a, d) => (!a || Number(d.net) > Number(a.net) ? d : a), null)
  return (
    <>
      <p>
        Net revenue {money(net)} over {days.length} {days.length === 1 ? 'day' : 'days'}
        {best && Number(best.net) > 0 && `; the best day was ${longDate(best.date)} with ${money(best.net)}`}.
      </p>
      {failed && <Notice kind="error">The chart could not be drawn: {failed}</Notice>}
      <div class="chart-box">
        <canvas
          ref={canvas}
          role="img"
          aria-label="Net revenue by day, stacked by payment method. The table after the chart has the numbers."
        />
      </div>
      {/* A table cannot be narrower than its cells, so the clipping box is a div around it. */}
      <div class="sr-only">
        <table>
          <caption>Net revenue by day and payment method</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {METHODS.map((m) => (
                <th key={m} scope="col">
                  {METHOD_LABELS[m]}
                </th>
              ))}
              <th scope="col">Net</th>
              <th scope="col">Bookings</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <th scope="row">{d.date}</th>
                {METHODS.map((m) => (
                  <td key={m}>{money(d.by_method[m])}</td>
                ))}
                <td>{money(d.net)}</td>
                <td>{d.bookings}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}

function TopCustomers({ s }: { s: Summary }) {
  if (s.top_customers.length === 0) return <p>No customer booked in this range.</p>
  return (
    <Scroll label="Top customers">
      <Table
        caption="Top customers by net revenue"
        columns={['Customer', 'Phone', { label: 'Bookings', num: true }, { label: 'Net', num: true }]}
      >
        {s.top_customers.map((c) => (
          <tr key={`${c.name}-${c.phone ?? ''}`}>
            <td>{c.name}</td>
            <td class="nowrap">{c.phone ?? '—'}</td>
            <td class="num">{c.bookings}</td>
            <td class="num nowrap">{money(c.net)}</td>
          </tr>
        ))}
      </Table>
    </Scroll>
  )
}
