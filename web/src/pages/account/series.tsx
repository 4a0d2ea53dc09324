import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { Field, formValues, Loaded, Outcome, SignedIn, useAction, useLoad } from '../../components/account.tsx'
import { SlotFacts } from '../../components/slot-facts.tsx'
import { isIsoDate, minutes } from '../../dates.ts'
import { formatDate, formatDigits, formatMoney, formatWeekday, t, useLang } from '../../i18n/index.ts'
import { fromPaisa, slotPrice } from '../../money.ts'
import { Link, navigate } from '../../router.ts'
import { loadMyBookings } from './bookings-data.ts'

type Series = Schemas['BookingSeries']

/** The customer's weekly series: the series their bookings belong to. */
export function SeriesListPage() {
  return (
    <SignedIn title={t('series.title')}>
      <SeriesList />
    </SignedIn>
  )
}

function SeriesList() {
  const state = useLoad(async () => {
    const { items } = await loadMyBookings()
    const ids = [...new Set(items.map((b) => b.seriesId).filter((id): id is number => id !== null))]
    return Promise.all(
      ids.map(
        async (id) =>
          (await ok(api().GET('/api/bookings/series/{series}', { params: { path: { series: String(id) } } }))).data,
      ),
    )
  })
  return (
    <section>
      <h1>{t('series.title')}</h1>
      <p>{t('series.intro')}</p>
      <Loaded state={state}>
        {(list) =>
          list.length === 0 ? (
            <p>{t('series.none')}</p>
          ) : (
            <ul class="cards">
              {list.map((s) => (
                <li key={s.id} class="card">
                  <Link href={`/bookings/series/${s.id}`}>{seriesLine(s)}</Link>
                  <p class="muted">
                    {formatDate(s.start_date)} · {t('series.occurrences', { count: s.occurrences.length })}
                  </p>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  )
}

function seriesLine(s: Series) {
  return t('series.weekly', {
    weekday: formatWeekday(s.weekday),
    from: formatDigits(s.start_time),
    to: formatDigits(s.end_time),
  })
}

/** One series: its bookings, and cancelling the rest of it from a date on. */
export function SeriesPage({ id }: { id: string }) {
  return (
    <SignedIn title={t('series.title')}>
      <SeriesDetail id={id} />
    </SignedIn>
  )
}

function SeriesDetail({ id }: { id: string }) {
  useLang()
  const state = useLoad(
    () => ok(api().GET('/api/bookings/series/{series}', { params: { path: { series: id } } })),
    [id],
  )
  const action = useAction()
  return (
    <section>
      <h1>{t('series.title')}</h1>
      <Loaded state={state}>
        {({ data: s }) => {
          const live = s.occurrences.filter((b) => b.status === 'pending' || b.status === 'confirmed')
          return (
            <>
              <p>
                <strong>{seriesLine(s)}</strong>
                {s.occurrences[0]?.venue && (
                  <>
                    <br />
                    {s.occurrences[0].venue.name} · {s.occurrences[0].court?.name}
                  </>
                )}
              </p>
              <ul class="rows">
                {s.occurrences.map((b) => (
                  <li key={b.id}>
                    {formatDate(b.date)} · {t(`status.${b.status}`)} · {formatMoney(b.total_amount)}
                  </li>
                ))}
              </ul>
              {s.skipped.length > 0 && <p class="muted">{t('series.skipped', { count: s.skipped.length })}</p>}
              {live.length > 0 && (
                <form
                  class="panel"
                  onSubmit={(e) => {
                    const v = formValues(e)
                    action.run(async () => {
                      const answer = await ok(
                        api().PATCH('/api/bookings/series/{series}/cancel', {
                          params: { path: { series: id } },
                          body: { from_date: v.from_date },
                        }),
                      )
                      state.reload()
                      return `${t('series.cancelled', { count: answer.data.cancelled.length })} ${t('cancel.done', { amount: formatMoney(answer.refund_amount) })}`
                    })
                  }}
                >
                  <Field
                    label={t('series.cancelFrom')}
                    name="from_date"
                    type="date"
                    required
                    defaultValue={live[0].date}
                    hint={t('series.cancelFromHint')}
                    error={action.field('from_date')}
                  />
                  <button type="submit" class="danger" disabled={action.busy}>
                    {t('series.cancel')}
                  </button>
                </form>
              )}
              <Outcome notice={action.notice} message={action.message} />
            </>
          )
        }}
      </Loaded>
      <p>
        <Link href="/bookings">{t('nav.bookings')}</Link>
      </p>
    </section>
  )
}

/** A new weekly series of a court at a time, started from one of the customer's bookings. */
export function NewSeriesPage({ query }: { query: URLSearchParams }) {
  return (
    <SignedIn title={t('series.new')}>
      <NewSeries query={query} />
    </SignedIn>
  )
}

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

interface Chosen {
  start_date: string
  start_time: string
  end_time: string
}

/**
 * The series being asked for: venue, court, the first date, the time and the first week's price
 * (the court's public availability of that date, each slot priced as the service prices it).
 */
function SeriesSummary({ court, chosen }: { court: number; chosen: Chosen }) {
  const place = useLoad(async () => {
    const { data: c } = await ok(api().GET('/api/courts/{court}', { params: { path: { court: String(court) } } }))
    const { data: v } = await ok(api().GET('/api/venues/{venue}', { params: { path: { venue: String(c.venue_id) } } }))
    return { name: c.name, venue: { id: v.id, name: v.name, slug: v.slug } }
  }, [court])
  const ready =
    isIsoDate(chosen.start_date) &&
    /^\d{2}:\d{2}$/.test(chosen.start_time) &&
    /^\d{2}:\d{2}$/.test(chosen.end_time) &&
    minutes(chosen.end_time) > minutes(chosen.start_time)
  const price = useLoad(async () => {
    if (!ready) return null
    const day = await ok(
      api().GET('/api/courts/{court}/availability', {
        params: { path: { court: String(court) }, query: { date: chosen.start_date } },
      }),
    )
    const slots = day.slots.filter(
      (s) => minutes(s.start_time) >= minutes(chosen.start_time) && minutes(s.end_time) <= minutes(chosen.end_time),
    )
    if (slots.length === 0) return null
    return fromPaisa(slots.reduce((sum, s) => sum + slotPrice(s.price_per_hour, day.slot_minutes), 0))
  }, [court, chosen.start_date, chosen.start_time, chosen.end_time])
  if (!place.data || !ready) return null
  return (
    <div class="card">
      <h2>{t('series.summary')}</h2>
      <p>
        {t('series.weekly', {
          weekday: formatWeekday(new Date(`${chosen.start_date}T00:00:00Z`).getUTCDay()),
          from: formatDigits(chosen.start_time),
          to: formatDigits(chosen.end_time),
        })}
      </p>
      <SlotFacts
        kind="court"
        place={place.data.name}
        venue={place.data.venue}
        date={chosen.start_date}
        start={chosen.start_time}
        end={chosen.end_time}
        price={price.data}
        priceLabel={t('slot.firstWeekPrice')}
      />
      <p class="muted small">{t('series.summaryHint')}</p>
    </div>
  )
}

function NewSeries({ query }: { query: URLSearchParams }) {
  const action = useAction()
  const court = Number(query.get('court'))
  const from = query.get('date')
  const [chosen, setChosen] = useState<Chosen>({
    start_date: from ? addDays(from, 7) : '',
    start_time: query.get('from') ?? '',
    end_time: query.get('to') ?? '',
  })
  return (
    <section class="narrow">
      <h1>{t('series.new')}</h1>
      <p>{t('series.intro')}</p>
      {Number.isInteger(court) && court > 0 && <SeriesSummary court={court} chosen={chosen} />}
      <form
        onInput={(e) => {
          const form = e.currentTarget
          const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? ''
          setChosen({ start_date: value('start_date'), start_time: value('start_time'), end_time: value('end_time') })
        }}
        onSubmit={(e) => {
          const v = formValues(e)
          action.run(async () => {
            const answer = await ok(
              api().POST('/api/bookings/series', {
                body: {
                  court_id: court,
                  start_date: v.start_date,
                  weeks: Number(v.weeks),
                  start_time: v.start_time,
                  end_time: v.end_time,
                  on_conflict: 'skip',
                },
              }),
            )
            navigate(`/bookings/series/${answer.data.id}`)
          })
        }}
      >
        <Field
          label={t('series.start')}
          name="start_date"
          type="date"
          required
          defaultValue={from ? addDays(from, 7) : undefined}
          error={action.field('start_date')}
        />
        <Field
          label={t('series.from')}
          name="start_time"
          type="time"
          required
          defaultValue={query.get('from') ?? undefined}
          error={action.field('start_time')}
        />
        <Field
          label={t('series.to')}
          name="end_time"
          type="time"
          required
          defaultValue={query.get('to') ?? undefined}
          error={action.field('end_time')}
        />
        <Field
          label={t('series.weeks')}
          name="weeks"
          type="number"
          min={2}
          max={26}
          required
          defaultValue="4"
          error={action.field('weeks')}
        />
        <Outcome notice={action.notice} message={action.message} />
        <button type="submit" disabled={action.busy || !court}>
          {t('series.create')}
        </button>
      </form>
    </section>
  )
}
