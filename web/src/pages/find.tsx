import { useEffect, useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../api.ts'
import { Failure, Loading, Notice, Stars } from '../components/ui.tsx'
import { formatDigits, t } from '../i18n/index.ts'
import { Link, navigate } from '../router.ts'

type Venue = Schemas['Venue']
type Sport = Schemas['Sport']

/** Where the device is, once the customer asked for venues near them. */
interface Position {
  lat: number
  lng: number
}
let remembered: Position | null = null

const SORTS = ['recommended', 'distance', 'rating', 'price'] as const

/**
 * The catalogue (GET /api/venues): venues near me (the browser's location; a city when it is not
 * given), a search, a sport or indoor games, and the order. Everything but the location is in the
 * address (?q=&city=&sport=&sort=), so a search can be shared and reloaded.
 */
export function FindPage({ query }: { query: URLSearchParams }) {
  const q = query.get('q') ?? ''
  const city = query.get('city') ?? ''
  const sport = query.get('sport') ?? ''
  const [position, setPosition] = useState<Position | null>(remembered)
  const [locating, setLocating] = useState(false)
  const [locationError, setLocationError] = useState<string | null>(null)
  const sortParam = query.get('sort') ?? ''
  const sort = (SORTS as readonly string[]).includes(sortParam) ? sortParam : position ? 'distance' : 'recommended'
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
    const order = sort === 'distance' && !near.lat ? 'recommended' : sort
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
          },
        },
      }),
    )
      .then((page) => live && setVenues(page.data))
      .catch((err) => live && setError(err))
    return () => {
      live = false
    }
  }, [q, city, sport, sort, position?.lat, position?.lng])

  /** The address with one parameter changed (an empty value removes it). */
  const withParam = (name: string, value: string) => {
    const next = new URLSearchParams(query)
    if (value) next.set(name, value)
    else next.delete(name)
    const text = next.toString()
    return text ? `/?${text}` : '/'
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

  return (
    <section class="find">
      <h1>{t('find.title')}</h1>
      <form
        class="find-form"
        aria-label={t('find.title')}
        onSubmit={(e) => {
          e.preventDefault()
          const data = new FormData(e.currentTarget)
          const next = new URLSearchParams()
          for (const name of ['q', 'city', 'sport', 'sort']) {
            const value = String(data.get(name) ?? '').trim()
            if (value) next.set(name, value)
          }
          navigate(next.toString() ? `/?${next}` : '/')
        }}
      >
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
                {s.label || s.name}
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
            <option value="recommended">{t('find.sort.recommended')}</option>
            {position && <option value="distance">{t('find.sort.distance')}</option>}
            <option value="rating">{t('find.sort.rating')}</option>
            <option value="price">{t('find.sort.price')}</option>
          </select>
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
      {venues && venues.length === 0 && <p>{t('find.none')}</p>}
      {venues && venues.length > 0 && (
        <ul class="cards venues">
          {venues.map((v) => (
            <VenueCard key={v.id} venue={v} />
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

function VenueCard({ venue: v }: { venue: Venue }) {
  const image = v.thumbnail ?? v.images[0]
  return (
    <li class="card venue-card">
      {image && <img src={image.thumb_url} alt="" width={120} height={90} loading="lazy" />}
      <div>
        <h2>
          <Link href={`/v/${v.slug}`}>{v.name}</Link>
        </h2>
        <p class="muted">
          {v.address}, {v.city}
        </p>
        <p>
          {v.reviews_avg_rating ? <Stars rating={v.reviews_avg_rating} count={v.reviews_count} /> : null}
          {v.distance_km != null && (
            <span class="distance"> · {t('find.km', { km: formatDigits(v.distance_km.toFixed(1)) })}</span>
          )}
        </p>
        {v.courts.length > 0 && <p class="muted small">{v.courts.map((c) => c.name).join(' · ')}</p>}
      </div>
    </li>
  )
}
