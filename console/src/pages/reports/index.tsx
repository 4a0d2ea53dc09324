import { useEffect, useRef, useState } from 'preact/hooks'
import { api, messageOf, ok, type User } from '../../api.ts'
import { Loaded, Section, Table, useLoad } from '../../components/forms.tsx'
import { Field, Loading, Notice } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import { bothDates, count, digits, localName, t } from '../../i18n/index.ts'
import { go, href } from '../../router.ts'
import { managesVenue, type Venue } from '../../session.ts'
import { addMonths, monthRange } from '../money/month.ts'
import { Heatmap } from './heatmap.tsx'
import { METHODS, methodLabel, type RevenueDay, type Summary } from './methods.ts'
import { Scroll } from './scroll.tsx'

// The owner's and managers' view of their business (issue 33): a date range (this month so far,
// last month, or any range up to 366 days), the totals, an occupancy heatmap by weekday and hour,
// net revenue by day stacked by payment method (Chart.js, loaded only here), the no-show rate, the
// top customers, and the bookings and payments as CSV files. Every figure is
// GET /api/venues/{venue}/reports/summary (docs/reports.md says how each is counted). Today is the
// service's today (the board's date, venue time), never this device's. Words from the console's
// catalogue (English or Nepali), dates with the BS date beside, money in lakh grouping.

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
        <h1>{t('reports.title', { venue: localName(venue) })}</h1>
        <Notice kind="error">{t('reports.staffOnly')}</Notice>
        <p>
          <a href={href(`/venues/${venue.id}/board`)}>{t('common.backToBoard')}</a>
        </p>
      </section>
    )
  }
  const range = asked ?? (today.data ? { from: `${today.data.slice(0, 7)}-01`, to: today.data } : undefined)
  return (
    <section>
      <h1>{t('reports.title', { venue: localName(venue) })}</h1>
      {today.error && <Notice kind="error">{today.error}</Notice>}
      {!range || !today.data ? (
        !today.error && <Loading what={t('reports.loading')} />
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
      <h2>{t('reports.range')}</h2>
      <p class="muted">{t('reports.fromTo', { from: bothDates(range.from), to: bothDates(range.to) })}</p>
      <div class="row report-range">
        <button type="button" aria-pressed={same(thisMonth)} onClick={() => show(thisMonth)}>
          {t('reports.thisMonth')}
        </button>
        <button type="button" aria-pressed={same(lastMonth)} onClick={() => show(lastMonth)}>
          {t('reports.lastMonth')}
        </button>
        <form
          class="row"
          aria-label={t('reports.customRange')}
          onSubmit={(e) => {
            e.preventDefault()
            if (DATE.test(from) && DATE.test(to)) show({ from, to })
          }}
        >
          <Field
            label={t('reports.from')}
            type="date"
            value={from}
            max={to}
            onInput={(e) => setFrom(e.currentTarget.value)}
          />
          <Field
            label={t('reports.to')}
            type="date"
            value={to}
            min={from}
            onInput={(e) => setTo(e.currentTarget.value)}
          />
          <button type="submit">{t('reports.showRange')}</button>
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
    <Loaded state={summary} loading={t('reports.loadingFigures')} empty="" isEmpty={() => false}>
      {(s) => (
        <>
          <Section title={t('reports.totals')}>
            <Totals s={s} />
            <Downloads venue={venue} range={range} />
          </Section>
          <Section title={t('reports.revenueByDay')}>
            <RevenueByDay days={s.by_day} net={s.revenue.net} />
          </Section>
          <Section title={t('reports.occupancy')}>
            <Heatmap cells={s.by_hour} />
          </Section>
          <Section title={t('reports.topCustomers')}>
            <TopCustomers s={s} />
          </Section>
        </>
      )}
    </Loaded>
  )
}

const percent = (n: number, places = 1) => digits(`${n.toFixed(places)}%`)

function Totals({ s }: { s: Summary }) {
  const b = s.bookings.by_status
  const totals: [string, string][] = [
    [t('common.bookings'), count(s.bookings.total)],
    [t('reports.netRevenue'), money(s.revenue.net)],
    [t('reports.received'), money(s.revenue.gross)],
    [t('reports.refunded'), money(s.revenue.refunds)],
    [t('reports.occupancyShort'), percent(s.occupancy.percent)],
    [t('reports.noShowRate'), percent(s.no_show_rate * 100)],
  ]
  return (
    <>
      <dl class="totals" aria-label={t('reports.rangeTotals')}>
        {totals.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p class="muted">
        {t('reports.explain', {
          booked: digits(String(s.occupancy.booked_hours)),
          open: digits(String(s.occupancy.open_hours)),
          completed: b.completed,
          confirmed: b.confirmed + b.playing,
          pending: b.pending,
          noShow: b.no_show,
          cancelled: b.cancelled,
        })}
      </p>
      <Table caption={t('reports.byMethod')} columns={[t('common.method'), { label: t('common.net'), num: true }]}>
        {METHODS.map((m) => (
          <tr key={m}>
            <td>{methodLabel(m)}</td>
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
          {t('reports.downloadBookings')}
        </button>
        <button type="button" disabled={state.busy} onClick={() => download('payments')}>
          {t('reports.downloadPayments')}
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
        {days.length === 1
          ? t('reports.netOverOne', { net: money(net) })
          : t('reports.netOver', { net: money(net), days: days.length })}
        {best && Number(best.net) > 0 && t('reports.bestDay', { date: bothDates(best.date), net: money(best.net) })}
        {t('reports.stop')}
      </p>
      {failed && <Notice kind="error">{t('reports.chartFailed', { error: failed })}</Notice>}
      <div class="chart-box">
        <canvas ref={canvas} role="img" aria-label={t('reports.chartLabel')} />
      </div>
      {/* A table cannot be narrower than its cells, so the clipping box is a div around it. */}
      <div class="sr-only">
        <table>
          <caption>{t('reports.byDayCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('common.day')}</th>
              {METHODS.map((m) => (
                <th key={m} scope="col">
                  {methodLabel(m)}
                </th>
              ))}
              <th scope="col">{t('common.net')}</th>
              <th scope="col">{t('common.bookings')}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <th scope="row">{bothDates(d.date)}</th>
                {METHODS.map((m) => (
                  <td key={m}>{money(d.by_method[m])}</td>
                ))}
                <td>{money(d.net)}</td>
                <td>{count(d.bookings)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}

function TopCustomers({ s }: { s: Summary }) {
  if (s.top_customers.length === 0) return <p>{t('reports.noCustomers')}</p>
  return (
    <Scroll label={t('reports.topCustomers')}>
      <Table
        caption={t('reports.topCaption')}
        columns={[
          t('common.customer'),
          t('common.phone'),
          { label: t('common.bookings'), num: true },
          { label: t('common.net'), num: true },
        ]}
      >
        {s.top_customers.map((c) => (
          <tr key={`${c.name}-${c.phone ?? ''}`}>
            <td>{c.name}</td>
            <td class="nowrap">{c.phone ?? '—'}</td>
            <td class="num">{count(c.bookings)}</td>
            <td class="num nowrap">{money(c.net)}</td>
          </tr>
        ))}
      </Table>
    </Scroll>
  )
}
