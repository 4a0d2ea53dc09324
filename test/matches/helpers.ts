import type { App } from '../../src/app.ts'
import { createCourt, createUser, createVenue, daysFromFixedNow, type TestUser } from '../helpers/factories.ts'
import { insertBooking } from '../payments/helpers.ts'

// Open-match fixtures: a venue with one futsal court and an organizer with a pending booking.

let day = 0

export async function matchWorld(
  app: App,
  opts: { total?: number; days?: number; lat?: number; lng?: number; start?: string } = {},
) {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { latitude: opts.lat ?? 27.7, longitude: opts.lng ?? 85.33 })
  const court = await createCourt(app, venue.id)
  const organizer = await createUser(app, { name: 'Organizer Rai', wallet: 500000 })
  const date = daysFromFixedNow(opts.days ?? 2 + (day++ % 5))
  const start = opts.start ?? '18:00'
  const booking = await insertBooking(app, {
    userId: organizer.id,
    venueId: venue.id,
    courtId: court.id,
    total: opts.total ?? 100000,
    date,
    start,
    end: `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:00`,
  })
  return { owner, venue, court, organizer, booking, date }
}

export function post(app: App, user: TestUser | undefined, url: string, payload: unknown = {}) {
  return app.inject({ method: 'POST', url, headers: user?.headers, payload: payload as Record<string, unknown> })
}

export function get(app: App, user: TestUser | undefined, url: string) {
  return app.inject({ method: 'GET', url, headers: user?.headers })
}

export async function openMatch(
  app: App,
  organizer: TestUser,
  bookingId: number,
  extra: Record<string, unknown> = {},
): Promise<MatchOut> {
  const res = await post(app, organizer, '/api/matches', {
    booking_id: bookingId,
    players_total: 4,
    visibility: 'public',
    ...extra,
  })
  if (res.statusCode !== 201) throw new Error(`open match: ${res.statusCode} ${res.body}`)
  return res.json().data
}

export interface MatchOut {
  id: number
  booking: { id: number; booking_number: string; date: string; start_time: string }
  sport: string
  status: string
  players: Array<{ id: number; name: string; level: number }>
  players_total: number
  spots_left: number
  price_per_player: string
  level_min: number | null
  level_max: number | null
  visibility: string
  link: string | null
}

/** Sets a user's rating in a sport directly (a level of `level` = rating 800 + 200 × level). */
export async function setLevel(app: App, userId: number, sport: string, level: number) {
  await app.ctx.db
    .insertInto('player_ratings')
    .values({
      user_id: userId,
      sport,
      rating: 800 + 200 * level,
      rd: 100,
      volatility: 0.06,
      matches_played: 5,
      updated_at: app.ctx.clock.now(),
    })
    .execute()
}

export async function notificationTypes(app: App, userId: number): Promise<string[]> {
  const rows = await app.ctx.db
    .selectFrom('notifications')
    .select('type')
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute()
  return rows.map((r) => r.type.split('\\').pop()!)
}
