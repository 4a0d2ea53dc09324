import { useEffect, useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../api.ts'
import { Failure, Loading, Notice, Stars } from '../components/ui.tsx'
import { addDays, hhmm, isIsoDate, minutes, today } from '../dates.ts'
import { formatDate, formatDigits, formatMoney, formatWeekday, t } from '../i18n/index.ts'
import { fromPaisa, slotPrice } from '../money.ts'
import { localAddress, localName } from '../names.ts'
import { Link, navigate } from '../router.ts'
import { useSession } from '../session.ts'

type Venue = Schemas['Venue']
type Court = Schemas['Court']
type Game = Schemas['IndoorGame']
type Reviews = { average_rating: number; reviews_count: number; reviews: Schemas['Review'][] }

/** A court or an indoor game: what a customer books a slot of. */
export type Resource = { kind: 'court'; item: Court } | { kind: 'game'; item: Game }

/** One slot of the day's grid, priced. */
export interface Slot {
  start: string
  end: string
  free: boolean
  /** It has started (today only): neither bookable nor worth waiting for. */
  past: boolean
  /** Paisa. */
  price: number
}

/** How many days the date strip offers (the venue's booking window, at most two weeks). */
const STRIP_DAYS = 14

/**
 * A venue's page, by id or slug: /venues/:key, its own shareable /v/:slug (framable), and with
 * `embed` the widget for an <iframe> (/embed/v/:slug: no site header; booking opens in a new tab).
 * Photos, amenities, hours, reviews, its courts and indoor games, and the day's availability grid
 * with prices; a taken court slot can be waited for (the waitlist).
 */
export function VenuePage({ slug, date, embed = false }: { slug: string; date: string | null; embed?: boolean }) {
  const [venue, setVenue] = useState<Venue | null>(null)
  const [resources, setResources] = useState<Resource[] | null>(null)
  const [reviews, setReviews] = useState<Reviews | null>(null)
  const [error, setError] = useState<unknown>(null)

  useEffect(() => {
    let live = true
    setVenue(null)
    setError(null)
    ok(api().GET('/api/venues/{venue}', { params: { path: { venue: slug } } }))
      .then(async ({ data: v }) => {
        if (!live) return
        setVenue(v)
        document.title = `${localName(v)} · ${t('app.name')}`
        const path = { venue: String(v.id) }
        const [courts, games] = await Promise.all([
          ok(api().GET('/api/venues/{venue}/courts', { params: { path } })),
          ok(api().GET('/api/venues/{venue}/indoor-games', { params: { path } })),
        ])
        if (!live) return
        setResources([
          ...courts.data.map((item): Resource => ({ kind: 'court', item })),
          ...games.data.map((item): Resource => ({ kind: 'game', item })),
        ])
        const r = await ok(api().GET('/api/venues/{venue}/reviews', { params: { path } })).catch(() => null)
        if (live && r) setReviews(r)
      })
      .catch((err) => live && setError(err))
    return () => {
      live = false
    }
  }, [slug])

  const framed = embed || (typeof window !== 'undefined' && window.top !== window.self)
  const body = error ? (
    <Failure error={error} />
  ) : !venue ? (
    <Loading />
  ) : (
    <article class="venue">
      <h1>{localName(venue)}</h1>
      <p class="muted">
        {localAddress(venue)}, {venue.city}
      </p>
      {!embed && <Gallery venue={venue} />}
      {!embed && <Facts venue={venue} reviews={reviews} />}
      <Booker venue={venue} resources={resources} date={date} framed={framed} embed={embed} />
      {!embed && reviews && <ReviewList reviews={reviews} />}
    </article>
  )
  if (!embed) return body
  return (
    <>
      <main id="main" class="embed">
        {body}
      </main>
      <footer class="embed-foot">
        <a href={`/v/${slug}`} target="_blank" rel="noopener">
          {t('venue.poweredBy')}
        </a>
      </footer>
    </>
  )
}

function Gallery({ venue }: { venue: Venue }) {
  const images = venue.images
  if (images.length === 0) return null
  return (
    // A row that scrolls sideways: focusable, so it scrolls with the keyboard too.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs keyboard access (axe scrollable-region-focusable)
    <ul class="gallery" aria-label={t('venue.photos')} tabIndex={0}>
      {images.map((img, i) => (
        <li key={img.id}>
          <img
            src={img.url}
            alt={t('venue.photoAlt', { name: venue.name, n: i + 1 })}
            loading={i === 0 ? 'eager' : 'lazy'}
            fetchpriority={i === 0 ? 'high' : 'auto'}
            width={320}
            height={200}
          />
        </li>
      ))}
    </ul>
  )
}

function Facts({ venue, reviews }: { venue: Venue; reviews: Reviews | null }) {
  return (
    <section class="facts" aria-labelledby="venue-about">
      <h2 id="venue-about">{t('venue.about')}</h2>
      {reviews && reviews.reviews_count > 0 && <Stars rating={reviews.average_rating} count={reviews.reviews_count} />}
      {venue.description && <p>{venue.description}</p>}
      <dl>
        <dt>{t('venue.hours')}</dt>
        <dd>{formatDigits(`${hhmm(venue.opening_time)}–${hhmm(venue.closing_time)}`)}</dd>
        {venue.phone && (
          <>
            <dt>{t('venue.phone')}</dt>
            <dd>
              <a href={`tel:${venue.phone}`}>{venue.phone}</a>
            </dd>
          </>
        )}
        <dt>{t('venue.cancellation')}</dt>
        <dd>{t('venue.freeCancellation', { hours: venue.free_cancellation_hours })}</dd>
      </dl>
      {venue.amenities.length > 0 && (
        <>
          <h3>{t('venue.amenities')}</h3>
          <ul class="chips">
            {venue.amenities.map((a) => (
              <li key={a.id}>{localName(a)}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}

function ReviewList({ reviews }: { reviews: Reviews }) {
  return (
    <section aria-labelledby="venue-reviews">
      <h2 id="venue-reviews">{t('venue.reviews')}</h2>
      {reviews.reviews.length === 0 ? (
        <p class="muted">{t('venue.noReviews')}</p>
      ) : (
        <ul class="reviews">
          {reviews.reviews.slice(0, 10).map((r) => (
            <li key={r.id} class="card">
              <Stars rating={r.rating} />
              <p>
                <strong>{r.user.name}</strong> · <span class="muted">{formatDate(r.created_at, { adOnly: true })}</span>
              </p>
              {r.comment && <p>{r.comment}</p>}
              {r.replies.map((reply) => (
                <p key={reply.id} class="reply">
                  {t('venue.reply')}: {reply.reply}
                </p>
              ))}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** The date strip, the court or game, the day's slots, and the way to the booking page. */
function Booker(props: {
  venue: Venue
  resources: Resource[] | null
  date: string | null
  framed: boolean
  embed: boolean
}) {
  const { venue, resources, framed } = props
  const first = today()
  const days = Math.max(1, Math.min(STRIP_DAYS, venue.booking_window_days || STRIP_DAYS))
  const last = addDays(first, days - 1)
  const day = isIsoDate(props.date) && props.date >= first && props.date <= last ? props.date : first
  const [chosen, setChosen] = useState(0)
  const [picked, setPicked] = useState<Slot[]>([])
  const [waitFor, setWaitFor] = useState<Slot | null>(null)
  const resource = resources?.[chosen]

  useEffect(() => {
    setPicked([])
    setWaitFor(null)
  }, [day, chosen])

  const setDay = (d: string) => {
    const next = new URLSearchParams(location.search)
    next.set('date', d)
    navigate(`${location.pathname}?${next}`, true)
  }

  return (
    <section class="booker" aria-labelledby="venue-book">
      <h2 id="venue-book">{t('venue.book')}</h2>
      <DateStrip first={first} days={days} value={day} onChange={setDay} />
      {!resources ? (
        <Loading />
      ) : resources.length === 0 ? (
        <p>{t('venue.nothingToBook')}</p>
      ) : (
        <>
          <fieldset class="resources">
            <legend>{t('venue.pickCourt')}</legend>
            {resources.map((r, i) => (
              <label key={`${r.kind}-${r.item.id}`} class={i === chosen ? 'choice on' : 'choice'}>
                <input type="radio" name="resource" checked={i === chosen} onChange={() => setChosen(i)} />
                <span>
                  {r.item.name}
                  <span class="muted small">
                    {' · '}
                    {r.kind === 'court'
                      ? r.item.sport
                        ? localName(r.item.sport)
                        : r.item.type
                      : r.item.game_type === 'other'
                        ? t('venue.indoorGame')
                        : t(`game.${r.item.game_type}`)}
                    {' · '}
                    {t('venue.perHour', { price: formatMoney(r.item.price_per_hour) })}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          {resource && (
            <SlotGrid
              key={`${resource.kind}-${resource.item.id}-${day}`}
              resource={resource}
              date={day}
              picked={picked}
              onPick={(slot) => {
                setWaitFor(null)
                setPicked(pick(picked, slot))
              }}
              onTaken={(slot) => setWaitFor(slot)}
            />
          )}
          {resource && waitFor && resource.kind === 'court' && (
            <Waitlist court={resource.item} date={day} slot={waitFor} framed={framed} />
          )}
          {resource && picked.length > 0 && (
            <Summary venue={venue} resource={resource} date={day} picked={picked} framed={framed} />
          )}
        </>
      )}
    </section>
  )
}

function DateStrip(props: { first: string; days: number; value: string; onChange: (d: string) => void }) {
  const dates = Array.from({ length: props.days }, (_, i) => addDays(props.first, i))
  return (
    <fieldset class="date-field">
      <legend class="sr-only">{t('venue.date')}</legend>
      <div class="date-strip">
        {dates.map((d, i) => {
          const [y, m, dd] = d.split('-').map(Number)
          const weekday = new Date(Date.UTC(y, m - 1, dd)).getUTCDay()
          return (
            <button
              key={d}
              type="button"
              class="day"
              aria-pressed={d === props.value}
              onClick={() => props.onChange(d)}
            >
              <span>{i === 0 ? t('venue.today') : formatWeekday(weekday)}</span>{' '}
              <strong>{formatDigits(String(dd))}</strong>
              {/* The rest of the date (month, year, Bikram Sambat) for screen readers: "Wed 2 Dec 2026 · …". */}
              <span class="sr-only">{formatDate(d).replace(/^\S+/, '')}</span>
            </button>
          )
        })}
      </div>
    </fieldset>
  )
}

/** The slots of one court or game on one day, from its availability route, priced. */
function SlotGrid(props: {
  resource: Resource
  date: string
  picked: Slot[]
  onPick: (slot: Slot) => void
  onTaken: (slot: Slot) => void
}) {
  const { resource, date } = props
  const [slots, setSlots] = useState<Slot[] | null>(null)
  const [closed, setClosed] = useState(false)
  const [error, setError] = useState<unknown>(null)

  useEffect(() => {
    let live = true
    const now = date === today() ? nowMinutes() : -1
    const load =
      resource.kind === 'court'
        ? ok(
            api().GET('/api/courts/{court}/availability', {
              params: { path: { court: String(resource.item.id) }, query: { date } },
            }),
          ).then((a) => {
            setClosed(a.is_closed)
            return a.slots.map((s) => ({
              start: s.start_time,
              end: s.end_time,
              free: s.is_available,
              past: minutes(s.start_time) <= now,
              price: slotPrice(s.price_per_hour, a.slot_minutes),
            }))
          })
        : ok(
            api().GET('/api/indoor-games/{indoorGame}/availability', {
              params: { path: { indoorGame: String(resource.item.id) }, query: { date } },
            }),
          ).then((a) =>
            a.slots.map((s) => ({
              start: s.start_time,
              end: s.end_time,
              free: s.is_available,
              past: minutes(s.start_time) <= now,
              price: slotPrice(resource.item.price_per_hour, a.slot_minutes),
            })),
          )
    load.then((list) => live && setSlots(list)).catch((err) => live && setError(err))
    return () => {
      live = false
    }
  }, [resource.kind, resource.item.id, date])

  if (error) return <Failure error={error} />
  if (!slots) return <Loading />
  if (closed || slots.length === 0) return <p>{t('venue.closed', { date: formatDate(date) })}</p>
  const isPicked = (s: Slot) => props.picked.some((p) => p.start === s.start)
  return (
    <ul
      class="slots"
      aria-label={t('venue.slotsOf', { name: resource.item.name, date: formatDate(date, { adOnly: true }) })}
    >
      {slots.map((s) => {
        const time = formatDigits(`${s.start}–${s.end}`)
        if (s.free && !s.past) {
          return (
            <li key={s.start}>
              <button type="button" class="slot free" aria-pressed={isPicked(s)} onClick={() => props.onPick(s)}>
                <span>{time}</span>
                <span class="price">{formatMoney(fromPaisa(s.price))}</span>
              </button>
            </li>
          )
        }
        if (s.past || resource.kind !== 'court') {
          return (
            <li key={s.start}>
              <span class="slot taken">
                <span>{time}</span>
                <span>{s.past ? t('venue.past') : t('venue.taken')}</span>
              </span>
            </li>
          )
        }
        return (
          <li key={s.start}>
            <button type="button" class="slot taken" onClick={() => props.onTaken(s)}>
              <span>{time}</span>
              <span>{t('venue.takenWait')}</span>
            </button>
          </li>
        )
      })}
    </ul>
  )
}

/** Minutes since midnight in Nepal now (from the device's clock). */
function nowMinutes(): number {
  const [h, m] = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Kathmandu',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
    .format(new Date())
    .split(':')
    .map(Number)
  return h * 60 + m
}

/**
 * The next selection after tapping `slot`: a booking is one run of back-to-back slots, so a tap
 * next to the run extends it, a tap on its first or last slot shrinks it, any other tap starts anew.
 */
export function pick(picked: Slot[], slot: Slot): Slot[] {
  if (picked.length === 0) return [slot]
  const first = picked[0]
  const last = picked[picked.length - 1]
  if (slot.start === first.start) return picked.slice(1)
  if (slot.start === last.start) return picked.slice(0, -1)
  if (slot.start === last.end) return [...picked, slot]
  if (slot.end === first.start) return [slot, ...picked]
  return [slot]
}

function Summary(props: { venue: Venue; resource: Resource; date: string; picked: Slot[]; framed: boolean }) {
  const { resource, date, picked, framed } = props
  const start = picked[0].start
  const end = picked[picked.length - 1].end
  const total = picked.reduce((sum, s) => sum + s.price, 0)
  const kind = resource.kind === 'court' ? 'court' : 'game'
  const href = `/book?${kind}=${resource.item.id}&date=${date}&start=${start}&end=${end}`
  return (
    <section class="summary" aria-label={t('venue.yourPick')}>
      <p>
        <strong>{resource.item.name}</strong> · {formatDate(date, { adOnly: true })} · {formatDigits(`${start}–${end}`)}
      </p>
      <p class="total">{formatMoney(fromPaisa(total))}</p>
      {framed ? (
        <a class="button" href={href} target="_blank" rel="noopener">
          {t('venue.continue')}
        </a>
      ) : (
        <Link class="button" href={href}>
          {t('venue.continue')}
        </Link>
      )}
    </section>
  )
}

/** Joining the waitlist for a taken court slot (POST /api/waitlist); signed in only. */
function Waitlist(props: { court: Court; date: string; slot: Slot; framed: boolean }) {
  const { court, date, slot, framed } = props
  const session = useSession()
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle')
  const [error, setError] = useState<unknown>(null)
  const when = formatDigits(`${slot.start}–${slot.end}`)
  const join = async () => {
    setState('busy')
    setError(null)
    try {
      await ok(
        api().POST('/api/waitlist', {
          body: { court_id: court.id, date, start_time: slot.start, end_time: slot.end },
        }),
      )
      setState('done')
    } catch (err) {
      setError(err)
      setState('idle')
    }
  }
  const back = `${location.pathname}${location.search}`
  return (
    <section class="waitlist card" aria-label={t('venue.waitlist')}>
      <p>{t('venue.takenExplain', { time: when })}</p>
      {state === 'done' ? (
        <Notice kind="ok">{t('venue.waitlistJoined', { time: when })}</Notice>
      ) : session ? (
        <button type="button" onClick={join} disabled={state === 'busy'}>
          {t('venue.joinWaitlist')}
        </button>
      ) : (
        <a
          class="button secondary"
          href={`/signin?next=${encodeURIComponent(back)}`}
          target={framed ? '_blank' : undefined}
          rel={framed ? 'noopener' : undefined}
        >
          {t('venue.signInToWait')}
        </a>
      )}
      {error ? <Failure error={error} /> : null}
    </section>
  )
}
