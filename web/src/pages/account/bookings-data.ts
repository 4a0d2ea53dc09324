import { ApiError, api, type Schemas } from '../../api.ts'
import { t } from '../../i18n/index.ts'
import { fromPaisa, toPaisa } from '../../money.ts'
import { currentSession, setSession } from '../../session.ts'

// My bookings' data: court and indoor-game bookings in one list. Upcoming and past are told apart
// by state, not by this device's clock (which may be wrong): pending, confirmed and playing are
// upcoming; completed, cancelled and no-show are past.
//
// Offline, the service worker (web/public/sw.js) answers these two reads from the last copy it saw
// and says so in the `Courtside-Saved-At` header.

export type Kind = 'court' | 'game'

export interface MyBooking {
  kind: Kind
  id: number
  number: string
  status: Schemas['BookingStatus']
  date: string
  start: string
  end: string
  /** The court's or the game's name. */
  place: string
  venueId: number | null
  venueName: string | null
  total: string
  paid: string
  /** What is still to pay (total − paid), a decimal string. */
  due: string
  /** A pending booking's payment deadline (YYYY-MM-DD HH:mm:ss, venue time). */
  holdExpiresAt: string | null
  seriesId: number | null
  courtId: number | null
  review: Schemas['Review'] | null
}

export const UPCOMING = new Set<string>(['pending', 'confirmed', 'playing'])

/** Whether the customer can pay for the booking now: pending with something left to pay. */
export function payable(b: { status: string; due: string }): boolean {
  return b.status === 'pending' && toPaisa(b.due) > 0
}

/** The booking's own page: /bookings/court/12, /bookings/indoor/5 (the payment API's booking_type). */
export function bookingPath(kind: Kind, id: number): string {
  return `/bookings/${kind === 'court' ? 'court' : 'indoor'}/${id}`
}
export const SAVED_AT_HEADER = 'courtside-saved-at'

export interface MyBookings {
  items: MyBooking[]
  /** When the copy shown was saved, if it came from the offline copy. */
  savedAt: string | null
  /** Whether older bookings are left to load. */
  more: boolean
}

interface Answer<T> {
  data?: T
  error?: unknown
  response: Response
}

async function read<T>(pending: Promise<Answer<T>>): Promise<{ data: T; savedAt: string | null }> {
  let answer: Answer<T>
  try {
    answer = await pending
  } catch {
    throw new ApiError(0, t('app.unreachable'))
  }
  if (!answer.response.ok) {
    const body = (answer.error ?? {}) as { message?: string }
    // As api.ts's ok(): a token the service no longer knows ends the session here too.
    if (answer.response.status === 401 && currentSession()) setSession(null)
    throw new ApiError(answer.response.status, body.message ?? t('app.error'))
  }
  return { data: answer.data as T, savedAt: answer.response.headers.get(SAVED_AT_HEADER) }
}

/**
 * The customer's court and indoor bookings, soonest upcoming first: the latest `pages` × 100 of each
 * kind (the API lists the latest slot first, so the upcoming ones come in the first page).
 */
export async function loadMyBookings(pages = 1): Promise<MyBookings> {
  const client = api()
  const numbers = Array.from({ length: pages }, (_, i) => i + 1)
  const [courtPages, gamePages] = await Promise.all([
    Promise.all(
      numbers.map((page) => read(client.GET('/api/bookings', { params: { query: { per_page: 100, page } } }))),
    ),
    Promise.all(
      numbers.map((page) =>
        read(client.GET('/api/indoor-game-bookings', { params: { query: { per_page: 100, page } } })),
      ),
    ),
  ])
  const courts = { data: { data: courtPages.flatMap((p) => p.data.data) }, savedAt: courtPages[0].savedAt }
  const games = { data: { data: gamePages.flatMap((p) => p.data.data) }, savedAt: gamePages[0].savedAt }
  const more = courtPages[0].data.meta.last_page > pages || gamePages[0].data.meta.last_page > pages
  const items: MyBooking[] = [
    ...courts.data.data.map(
      (b): MyBooking => ({
        kind: 'court',
        id: b.id,
        number: b.booking_number,
        status: b.status,
        date: b.date,
        start: b.start_time,
        end: b.end_time,
        place: b.court?.name ?? t('bookings.court'),
        venueId: b.venue_id,
        venueName: b.venue?.name ?? null,
        total: b.total_amount,
        paid: b.paid_amount,
        due: b.balance_due,
        holdExpiresAt: b.hold_expires_at,
        seriesId: b.series_id,
        courtId: b.court_id,
        review: b.review,
      }),
    ),
    ...games.data.data.map(
      (b): MyBooking => ({
        kind: 'game',
        id: b.id,
        number: b.booking_number,
        status: b.status,
        date: b.date,
        start: b.start_time,
        end: b.end_time,
        place: b.indoor_game?.name ?? t('bookings.game'),
        venueId: b.indoor_game?.venue_id ?? null,
        venueName: b.indoor_game?.venue?.name ?? null,
        total: b.total_amount,
        paid: b.paid_amount,
        // The indoor resource writes balance_due as a number: worked out from the strings instead.
        due: fromPaisa(Math.max(toPaisa(b.total_amount) - toPaisa(b.paid_amount), 0)),
        // An offline copy saved before the field existed has none.
        holdExpiresAt: b.hold_expires_at ?? null,
        seriesId: null,
        courtId: null,
        review: null,
      }),
    ),
  ]
  const key = (b: MyBooking) => `${b.date} ${b.start}`
  items.sort((a, b) => {
    const au = UPCOMING.has(a.status)
    const bu = UPCOMING.has(b.status)
    if (au !== bu) return au ? -1 : 1
    // Upcoming: soonest first; past: latest first.
    return au ? key(a).localeCompare(key(b)) : key(b).localeCompare(key(a))
  })
  return { items, savedAt: courts.savedAt ?? games.savedAt, more }
}
