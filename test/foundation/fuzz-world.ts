import assert from 'node:assert/strict'
import { sql } from 'kysely'
import type { App } from '../../src/app.ts'
import { issueToken } from '../../src/lib/auth.ts'
import {
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysAfter,
  type TestUser,
} from '../helpers/factories.ts'
import { insertBooking } from '../payments/helpers.ts'
import { insertReview } from '../reviews/fixtures.ts'
import { insertTournament, withTeams } from '../tournaments/helpers.ts'

// The data the fuzz test (fuzz.test.ts) aims at: one of everything a path can name, made through
// the factories and, where a row has rules of its own (coupons, pricing, holidays, blocks,
// fixtures), through the real routes.

export interface FuzzWorld {
  admin: TestUser
  owner: TestUser
  /** A plausible booking date: three days after the app clock's day (not the machine's). */
  date: string
  /** Real values for path parameters, by parameter name. */
  ids: Record<string, string>
}

async function created(app: App, who: TestUser, url: string, payload: Record<string, unknown>) {
  const res = await app.inject({ method: 'POST', url, headers: who.headers, payload })
  assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`)
  return String(res.json().data.id)
}

export async function fuzzWorld(app: App): Promise<FuzzWorld> {
  const admin = await createUser(app, { roles: ['super_admin'] })
  const owner = await createUser(app, { roles: ['venue_owner'] })
  // A bystander the {user} routes (admin user update, staff removal) may touch, never the callers.
  const bystander = await createUser(app)
  const customer = await createUser(app, { wallet: 500000 })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const game = await createIndoorGame(app, venue.id)
  const today = app.ctx.clock.now()
  const date = daysAfter(today, 5)
  const booking = await insertBooking(app, {
    userId: customer.id,
    venueId: venue.id,
    courtId: court.id,
    total: 150000,
    date,
    status: 'confirmed',
  })
  const indoor = await insertBooking(app, {
    userId: customer.id,
    venueId: venue.id,
    indoorGameId: game.id,
    total: 30000,
    date,
    status: 'confirmed',
  })
  const review = await insertReview(app, venue.id, customer)
  const tournament = await insertTournament(app, venue.id)
  await withTeams(app, tournament.id, ['Reds', 'Blues', 'Greens'])
  const generated = await app.inject({
    method: 'POST',
    url: `/api/tournaments/${tournament.id}/fixtures/generate`,
    headers: owner.headers,
  })
  assert.ok(generated.statusCode < 300, generated.body)
  const fixture = await app.ctx.db.selectFrom('fixtures').select('id').orderBy('id').executeTakeFirstOrThrow()
  const coupon = await created(app, owner, `/api/venues/${venue.id}/coupons`, {
    code: 'FUZZ10',
    type: 'percent',
    value: 10,
  })
  const rule = await created(app, owner, `/api/courts/${court.id}/pricing`, {
    type: 'peak',
    start_time: '18:00',
    end_time: '20:00',
    price_per_hour: 2000,
  })
  const holiday = await created(app, owner, `/api/venues/${venue.id}/holidays`, {
    date: daysAfter(today, 30),
    name: 'Dashain',
  })
  const block = await created(app, owner, `/api/courts/${court.id}/blocks`, {
    date: daysAfter(today, 6),
    start_time: '08:00',
    end_time: '09:00',
  })
  const spareToken = await issueToken(app.ctx.db, admin.id, 'spare')
  const tokenRow = await app.ctx.db
    .selectFrom('api_tokens')
    .select('id')
    .where('user_id', '=', admin.id)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow()
  assert.ok(spareToken)

  const v = String(venue.id)
  return {
    admin,
    owner,
    date: daysAfter(today, 3),
    ids: {
      venue: v,
      court: String(court.id),
      indoorGame: String(game.id),
      booking: String(booking.id),
      indoorGameBooking: String(indoor.id),
      review: String(review.id),
      tournament: String(tournament.id),
      fixture: String(fixture.id),
      coupon,
      rule,
      holiday,
      block,
      user: String(bystander.id),
      tokenId: String(tokenRow.id),
      // /api/admin/amenities/{id}, /api/admin/sports/{id} and /api/venues/{venue}/images/{id}
      // (notification ids are UUIDs: the test uses an unknown one).
      id: '1',
      hash: 'a'.repeat(40),
      provider: 'provider_1',
      gateway: 'esewa',
      payment: '1',
    },
  }
}

// Tables a refused request must leave alone. Left out: api_tokens (every authenticated request
// stamps last_used_at) and otps (a wrong code counts an attempt before it is refused, by design).
const WATCHED = [
  'amenities',
  'booking_charges',
  'booking_series',
  'bookings',
  'coupon_usages',
  'coupons',
  'court_blocks',
  'court_schedules',
  'courts',
  'device_tokens',
  'fixtures',
  'indoor_game_bookings',
  'indoor_games',
  'jobs',
  'media',
  'notifications',
  'payments',
  'pricing_rules',
  'review_replies',
  'reviews',
  'social_accounts',
  'sports',
  'tournament_teams',
  'tournaments',
  'user_roles',
  'users',
  'venue_amenities',
  'venue_holidays',
  'venue_staff',
  'venues',
  'waitlist_entries',
  'wallet_transactions',
] as const

/** One checksum of every watched table's rows: equal before and after means nothing changed. */
export async function fingerprint(app: App): Promise<string> {
  const parts = WATCHED.map(
    (t) =>
      sql`SELECT ${t}::text || ':' || coalesce(md5(string_agg(r::text, ',' ORDER BY r::text)), '') AS h FROM ${sql.table(t)} r`,
  )
  const { rows } = await sql<{ h: string }>`SELECT md5(string_agg(h, '|' ORDER BY h)) AS h FROM (${sql.join(
    parts,
    sql` UNION ALL `,
  )}) s`.execute(app.ctx.db)
  return rows[0].h
}
