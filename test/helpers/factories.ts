import type { App } from '../../src/app.ts'
import { DEMO_VENUES } from '../../src/cli/seed-data.ts'
import { issueToken, type Role } from '../../src/lib/auth.ts'
import { hashPassword } from '../../src/lib/password.ts'
import { account } from '../../src/modules/ledger/index.ts'
import { creditWallet } from '../../src/modules/wallet/index.ts'

// Direct inserts for test fixtures: fast, and independent of the routes under test.

let seq = 0
const next = () => `${process.pid}${++seq}`

export interface TestUser {
  id: number
  email: string
  password: string
  token: string
  headers: { authorization: string }
}

export async function createUser(
  app: App,
  opts: {
    roles?: Role[]
    name?: string
    email?: string
    phone?: string | null
    password?: string
    is_active?: boolean
    wallet?: number
    /**
     * Whether the account has a verified phone (default true: its unpaid cash bookings hold until
     * their start; false: a new account's, held only BOOKING_HOLD_MINUTES, docs/bookings.md).
     */
    phone_verified?: boolean
  } = {},
): Promise<TestUser> {
  const db = app.ctx.db
  const n = next()
  const password = opts.password ?? 'password123'
  const email = opts.email ?? `user${n}@example.com`
  const user = await db
    .insertInto('users')
    .values({
      name: opts.name ?? `User ${n}`,
      email,
      phone: opts.phone === undefined ? null : opts.phone,
      password_hash: await hashPassword(password),
      is_active: opts.is_active ?? true,
      wallet_balance: 0,
      phone_verified_at: (opts.phone_verified ?? true) ? app.ctx.clock.now() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const role of opts.roles ?? ['customer']) {
    const r = await db.selectFrom('roles').select('id').where('name', '=', role).executeTakeFirstOrThrow()
    await db.insertInto('user_roles').values({ user_id: user.id, role_id: r.id }).execute()
  }
  if (opts.wallet) {
    // A completed top-up through gateway_1: balance == sum(wallet rows), and the books balance.
    await creditWallet(
      db,
      user.id,
      opts.wallet,
      { referenceType: null, referenceId: null, description: 'Test top-up' },
      { kind: 'topup', occurredAt: app.ctx.clock.now(), contra: account.gatewayClearing('gateway_1') },
      'topup',
    )
  }
  const token = await issueToken(db, user.id, 'test')
  return { id: user.id, email, password, token, headers: { authorization: `Bearer ${token}` } }
}

export async function createVenue(
  app: App,
  ownerId: number,
  fields: Partial<{
    name: string
    slug: string
    city: string
    address: string
    latitude: number
    longitude: number
    opening_time: string
    closing_time: string
    verification_status: 'unverified' | 'pending' | 'verified' | 'rejected'
    is_active: boolean
    free_cancellation_hours: number
  }> = {},
) {
  const n = next()
  const name = fields.name ?? `Venue ${n}`
  return app.ctx.db
    .insertInto('venues')
    .values({
      owner_id: ownerId,
      name,
      slug: fields.slug ?? `venue-${n}`,
      address: fields.address ?? 'Baneshwor',
      city: fields.city ?? 'Kathmandu',
      state: 'Bagmati',
      latitude: String(fields.latitude ?? 27.7),
      longitude: String(fields.longitude ?? 85.33),
      opening_time: fields.opening_time ?? '06:00:00',
      closing_time: fields.closing_time ?? '22:00:00',
      verification_status: fields.verification_status ?? 'verified',
      is_active: fields.is_active ?? true,
      free_cancellation_hours: fields.free_cancellation_hours ?? 24,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function assignStaff(app: App, venueId: number, userId: number, role: 'manager' | 'staff') {
  await app.ctx.db.insertInto('venue_staff').values({ venue_id: venueId, user_id: userId, role }).execute()
}

export async function createCourt(
  app: App,
  venueId: number,
  fields: Partial<{
    name: string
    type: string
    slot_minutes: number
    price_per_hour: number
    is_active: boolean
    capacity: number
  }> = {},
) {
  return app.ctx.db
    .insertInto('courts')
    .values({
      venue_id: venueId,
      sport_id: 1,
      name: fields.name ?? `Court ${next()}`,
      type: fields.type ?? 'futsal',
      capacity: fields.capacity ?? 10,
      slot_minutes: fields.slot_minutes ?? 60,
      price_per_hour: fields.price_per_hour ?? 150000,
      is_active: fields.is_active ?? true,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function createIndoorGame(
  app: App,
  venueId: number,
  fields: Partial<{
    name: string
    game_type: string
    capacity: number
    slot_minutes: number
    price_per_hour: number
    is_active: boolean
  }> = {},
) {
  const venue = await app.ctx.db
    .selectFrom('venues')
    .select('owner_id')
    .where('id', '=', venueId)
    .executeTakeFirstOrThrow()
  return app.ctx.db
    .insertInto('indoor_games')
    .values({
      venue_id: venueId,
      tenant_id: venue.owner_id,
      name: fields.name ?? `Station ${next()}`,
      game_type: fields.game_type ?? 'playstation',
      capacity: fields.capacity ?? 4,
      slot_minutes: fields.slot_minutes ?? 60,
      price_per_hour: fields.price_per_hour ?? 30000,
      is_active: fields.is_active ?? true,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * A fixed "now" for a test on a ManualClock: Tuesday 10 March 2026, 09:00 in Kathmandu (03:15 UTC),
 * an ordinary weekday morning. Such a test counts its dates from this day (daysFromFixedNow), never
 * from the real one, so it answers the same on any day and at any hour it runs.
 */
export const FIXED_NOW = '2026-03-10T03:15:00Z'

/** The venue-local date n days after FIXED_NOW's day, "YYYY-MM-DD". */
export function daysFromFixedNow(n: number): string {
  return daysAfter(FIXED_NOW, n)
}

/**
 * When this module was loaded: the start of the test process (one file, or the files that
 * scripts/test.mjs runs one after another in it). daysFromNow counts from the venue-local day of
 * this instant, not from the clock at each call: a test that books daysFromNow(3) and later checks
 * the booking's date against daysFromNow(3) would otherwise fail when midnight (venue time) passes
 * in between.
 */
const testStart = Date.now()

/**
 * A venue-local date n days from the real today, "YYYY-MM-DD", today being the day the test process
 * started (see testStart). Only for a test against a spawned server (src/server.ts runs on the system
 * clock and takes no ManualClock: test/ops/tracing, test/webhooks/kill), which can book nothing but a
 * real future date. Every other test builds its app on a ManualClock and counts from FIXED_NOW.
 */
export function daysFromNow(n: number): string {
  return daysAfter(testStart, n)
}

/** The venue-local date n days after the venue-local day of the instant `from`, "YYYY-MM-DD". */
export function daysAfter(from: Date | string | number, n: number): string {
  const s = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Kathmandu' }).format(
    new Date(new Date(from).getTime() + n * 86400000),
  )
  return s.slice(0, 10)
}

/** The demo venues' holiday dates, on which holiday pricing applies. */
const demoHolidays = new Set(DEMO_VENUES.flatMap((v) => (v.holidays ?? []).map((h) => h.date)))

/**
 * A day at least `min` days after the day of the instant `from` (a ManualClock's start) with the
 * demo's weekday prices: not a Saturday, not a demo holiday. Tests whose prices or rules depend on
 * the weekday choose their day with this instead of a fixed offset.
 */
export function ordinaryDayAfter(from: Date | string | number, min: number): string {
  for (let n = min; n < min + 370; n++) {
    const date = daysAfter(from, n)
    if (new Date(`${date}T00:00:00Z`).getUTCDay() !== 6 && !demoHolidays.has(date)) return date
  }
  throw new Error('ordinaryDayAfter: no ordinary day in a year')
}
