import { useEffect, useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../api.ts'
import { Failure, Loading, Notice } from '../components/ui.tsx'
import { VenueCard } from '../components/venue-card.tsx'
import { addDays } from '../dates.ts'
import {
  DAYS_AHEAD,
  DURATIONS,
  type FreeTimeSearch,
  laterBy,
  searchOf,
  TIMES,
  today,
  untilTimes,
} from '../free-time.ts'
import { formatDate, formatDigits, t } from '../i18n/index.ts'
import { navigate } from '../router.ts'
import '../find.css'
import { localName } from '../names.ts'

type Venue = Schemas['Venue']
type Sport = Schemas['Sport']

/** Where the device is, once the customer asked for venues near them. */
interface Position {
  lat: number
  lng: number
}
let remembered: Position | null = null

const SORTS = ['soonest', 'recommended', 'distance', 'rating', 'price'] as const
type Sort = (typeof SORTS)[number]

/**
 * The start page, "Play tonight" (issue 47), and the catalogue (GET /api/venues): courts and games
 * free on a day between two times for a length of play (tonight 18:00–21:00 for an hour unless the
 * address says otherwise; `date=any` for any day and time), near me (the browser's location; a city
 * when it is not given), a search, a sport or indoor games, and the order (soonest free first when
 * searching a time). Everything but the location is in the address
 * (?date=&from=&to=&duration=&q=&city=&sport=&sort=), so a search can be shared and reloaded.
 */
export function FindPage({ query }: { query: URLSearchParams }) {
  const q = query.get('q') ?? ''
  const city = query.get('city') ?? ''
  const sport = query.get('sport') ?? ''
  const search = searchOf(query)
  const [position, setPosition] = useState<Position | null>(remembered)
  const [locating, setLocating] = useState(false)
  const [locationError, setLocationError] = useState<string | null>(null)
  const sortParam = query.get('sort') ?? ''
  const offered = (s: string): s is Sort =>
    (SORTS as readonly string[]).includes(s) && (s !== 'soonest' || search !== null)
  const sort: Sort = offered(sortParam) ? sortParam : search ? 'soonest' : position ? 'distance' : 'recommended'
  const [venues, setVenues] = useState<Venue[] | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [sports, setSports] = useState<Sport[]>([])

  useEffect(() => {
    ok(api().GET('/api/sports'))
      .then((r) => setSports(r.data))
      .catch(() => setSports([]))
  }, [])

  useEffect(() => {
    let live = true
    setError(null)
    setVenues(null)
    const near = position && !city ? { lat: position.lat, lng: position.lng } : {}
    const order = sort === 'distance' && !near.lat ? (search ? 'soonest' : 'recommended') : sort
    const times = search ? { date: search.date, from: search.from, to: search.to, duration: search.duration } : {}
    ok(
      api().GET('/api/venues', {
        params: {
          query: {
            search: q || undefined,
            city: city || undefined,
            sport: sport || undefined,
            sort: order,
            per_page: 30,
            ...near,
            ...times,
          },
        },
      }),
    )
      .then((page) => live && setVenues(page.data))
      .catch((err) => live && setError(err))
    return () => {
      live = false
    }
  }, [q, city, sport, sort, position?.lat, position?.lng, search?.date, search?.from, search?.to, search?.duration])

  /** The address with parameters changed (an empty value removes one). */
  const withParams = (changes: Record<string, string>) => {
    const next = new URLSearchParams(query)
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value)
      else next.delete(name)
    }
    const text = next.toString()
    return text ? `/?${text}` : '/'
  }
  const withParam = (name: string, value: string) => withParams({ [name]: value })
  /** The address with one part of the free-time search changed (the others written out as shown). */
  const withTime = (change: Partial<Record<keyof FreeTimeSearch, string>>) => {
    if (!search) return withParams(change)
    const next = { date: search.date, from: search.from, to: search.to, duration: String(search.duration), ...change }
    if (change.from && next.to <= change.from) next.to = laterBy(change.from, 60)
    return withParams(next)
  }

  const locate = () => {
    setLocationError(null)
    if (!('geolocation' in navigator)) {
      setLocationError(t('find.noLocation'))
      return
    }
    setLocating(true)
    navigator.geolocation.getCurrentPosition(
      (p) => {
        remembered = { lat: p.coords.latitude, lng: p.coords.longitude }
        setPosition(remembered)
        setLocating(false)
        const next = new URLSearchParams(query)
        next.delete('city')
        next.delete('sort')
        navigate(next.toString() ? `/?${next}` : '/', true)
      },
      () => {
        setLocating(false)
        setLocationError(t('find.noLocation'))
      },
      { timeout: 10000, maximumAge: 600000 },
    )
  }

  const title = search ? titleOf(search) : t('find.title')
  const days = Array.from({ length: DAYS_AHEAD }, (_, i) => addDays(today(), i))
  if (search && !days.includes(search.date)) days.push(search.date)

  return (
    <section class="find">
      <h1>{title}</h1>
      {search && (
        <p class="muted">{t('tonight.intro', { from: formatDigits(search.from), to: formatDigits(search.to) })}</p>
      )}
      <form
        class="find-form when"
        aria-label={title}
        onSubmit={(e) => {
          e.preventDefault()
          const data = new FormData(e.currentTarget)
          const next = new URLSearchParams()
          const names = ['date', 'from', 'to', 'duration', 'q', 'city', 'sport', 'sort']
          for (const name of names) {
            const value = String(data.get(name) ?? '').trim()
            if (value) next.set(name, value)
          }
          if (next.get('date') === 'any') for (const name of ['from', 'to', 'duration']) next.delete(name)
          navigate(next.toString() ? `/?${next}` : '/')
        }}
      >
        <div class="field">
          <label for="find-date">{t('tonight.day')}</label>
          <select
            id="find-date"
            name="date"
            value={search?.date ?? 'any'}
            onChange={(e) => {
              const value = e.currentTarget.value
              navigate(
                value === 'any'
                  ? withParams({ date: 'any', from: '', to: '', duration: '', sort: sort === 'soonest' ? '' : sort })
                  : withTime({ date: value }),
                true,
              )
            }}
          >
            {days.map((d, i) => (
              <option key={d} value={d}>
                {i === 0
                  ? t('tonight.today')
                  : i === 1
                    ? t('tonight.tomorrow')
                    : formatDate(d, { weekday: true, adOnly: true })}
              </option>
            ))}
            <option value="any">{t('tonight.anyDay')}</option>
          </select>
        </div>
        {search && (
          <>
            <div class="field">
              <label for="find-from">{t('tonight.from')}</label>
              <select
                id="find-from"
                name="from"
                value={search.from}
                onChange={(e) => navigate(withTime({ from: e.currentTarget.value }), true)}
              >
                {TIMES.map((time) => (
                  <option key={time} value={time}>
                    {formatDigits(time)}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="find-to">{t('tonight.to')}</label>
              <select
                id="find-to"
                name="to"
                value={search.to}
                onChange={(e) => navigate(withTime({ to: e.currentTarget.value }), true)}
              >
                {untilTimes(search.from).map((time) => (
                  <option key={time} value={time}>
                    {formatDigits(time)}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="find-duration">{t('tonight.duration')}</label>
              <select
                id="find-duration"
                name="duration"
                value={String(search.duration)}
                onChange={(e) => navigate(withTime({ duration: e.currentTarget.value }), true)}
              >
                {DURATIONS.map((d) => (
                  <option key={d} value={String(d)}>
                    {t(`tonight.duration.${d}`)}
                  </option>
                ))}
              </select>
            </div>
          </>
        )}
        <div class="field">
          <label for="find-sport">{t('find.sport')}</label>
          <select
            id="find-sport"
            name="sport"
            value={sport}
            onChange={(e) => navigate(withParam('sport', e.currentTarget.value), true)}
          >
            <option value="">{t('find.anySport')}</option>
            {sports.map((s) => (
              <option key={s.id} value={s.slug}>
                {localName({ name: s.label || s.name, name_ne: s.name_ne })}
              </option>
            ))}
            <optgroup label={t('find.indoorGames')}>
              <option value="indoor">{t('find.anyIndoor')}</option>
              {GAMES.map((g) => (
                <option key={g} value={g}>
                  {t(`game.${g}`)}
                </option>
              ))}
            </optgroup>
          </select>
        </div>
        <div class="field">
          <label for="find-sort">{t('find.sort')}</label>
          <select
            id="find-sort"
            name="sort"
            value={sort}
            onChange={(e) => navigate(withParam('sort', e.currentTarget.value), true)}
          >
            {search && <option value="soonest">{t('find.sort.soonest')}</option>}
            <option value="recommended">{t('find.sort.recommended')}</option>
            {position && <option value="distance">{t('find.sort.distance')}</option>}
            <option value="rating">{t('find.sort.rating')}</option>
            <option value="price">{t('find.sort.price')}</option>
          </select>
        </div>
        <div class="field wide">
          <label for="find-q">{t('find.search')}</label>
          <input id="find-q" name="q" type="search" defaultValue={q} key={`q-${q}`} />
        </div>
        <div class="field">
          <label for="find-city">{t('find.city')}</label>
          <input
            id="find-city"
            name="city"
            list="find-cities"
            defaultValue={city}
            key={`c-${city}`}
            autocomplete="address-level2"
          />
          <datalist id="find-cities">
            {CITIES.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </div>
        <div class="actions">
          <button type="submit">{t('find.go')}</button>
          <button type="button" class="secondary" onClick={locate} disabled={locating}>
            {locating ? t('find.locating') : t('find.nearMe')}
          </button>
        </div>
      </form>
      {locationError && (
        <Notice>
          {locationError} {t('find.cityInstead')}
        </Notice>
      )}
      {position && !city && <p class="muted">{t('find.nearYou')}</p>}
      {error ? <Failure error={error} /> : null}
      {!venues && !error && <Loading />}
      {venues && (
        <p class="muted" role="status">
          {t('find.count', { count: venues.length })}
        </p>
      )}
      {venues && venues.length === 0 && (
        <p>
          {search
            ? t('tonight.none', {
                from: formatDigits(search.from),
                to: formatDigits(search.to),
                date: formatDate(search.date, { weekday: true, adOnly: true }),
              })
            : t('find.none')}
        </p>
      )}
      {venues && venues.length > 0 && (
        <ul class="cards venues">
          {venues.map((v) => (
            <VenueCard key={v.id} venue={v} search={search} />
          ))}
        </ul>
      )}
    </section>
  )
}

/** The indoor game types a venue can offer (the API's IndoorGameType, "other" aside). */
const GAMES: Schemas['IndoorGameType'][] = ['playstation', 'chess', 'carrom', 'table_tennis', 'ludo', 'cards', 'uno']

/** Cities of the valley and beyond, offered while typing (any city can be typed). */
const CITIES = ['Kathmandu', 'Lalitpur', 'Bhaktapur', 'Pokhara', 'Chitwan', 'Biratnagar', 'Butwal', 'Dharan']

/** The page's title for a search: tonight (an evening today), today, tomorrow, or the day. */
function titleOf(search: FreeTimeSearch): string {
  const day = today()
  if (search.date === day) return search.from >= '17:00' ? t('tonight.title') : t('tonight.titleToday')
  if (search.date === addDays(day, 1)) return t('tonight.titleTomorrow')
  return t('tonight.titleOn', { date: formatDate(search.date, { weekday: true, adOnly: true }) })
}
