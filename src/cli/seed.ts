import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { exitOnStartError, loadConfig } from '../config.ts'
import { type Clock, systemClock } from '../lib/clock.ts'
import type { Executor } from '../lib/db.ts'
import { openDatabase } from '../lib/db.ts'
import {
  DEMO_PASSWORD,
  DEMO_TOURNAMENT,
  DEMO_USERS,
  DEMO_VENUES,
  type DemoVenue,
  demoPhotos,
} from '../lib/demo-data.ts'
import { migrate } from '../lib/migrate.ts'
import { toPaisa } from '../lib/money.ts'
import { hashPassword, setPasswordCost } from '../lib/password.ts'
import { localStorage, type Storage } from '../lib/storage.ts'
import { addDays, toTimeWithSeconds } from '../lib/time.ts'
import { Zone } from '../lib/zone.ts'
import { seedVenueHistory } from './seed-history.ts'

// `npm run seed`: loads the demo data of src/lib/demo-data.ts into the configured database (the same
// configuration as `npm start`), after applying migrations. Idempotent: people are matched by
// email, venues by slug (an existing venue is left as it is, with its courts and games), the
// tournament by venue and name.

export interface SeedSummary {
  users: { email: string; role: string }[]
  password: string
  venues: number
  courts: number
  indoorGames: number
  tournaments: number
  teams: number
}

const paisa = (npr: number) => toPaisa(npr)
const time = (t: string) => toTimeWithSeconds(t)

/** The seed's "now": demo dates (the tournament's start) are counted from the venue zone's today. */
export interface SeedTime {
  zone: Zone
  clock: Clock
  /**
   * Also write the first demo venue's past (seed-history.ts: two months of played, paid, refunded
   * and no-show bookings before the clock's today) when it has none. Off by default: browser tests
   * that expect an empty past leave it off; `npm run seed` and the reports tests turn it on.
   */
  history?: boolean
  /** The platform's commission on online money (config.platformCommissionBasisPoints) for the history. */
  commissionBasisPoints?: number
  /**
   * The app's storage (ctx.storage): each new demo venue gets its drawn photos (src/lib/demo-photos)
   * stored through it as a thumbnail and gallery, like an owner's upload. Without it, no photos.
   */
  storage?: Pick<Storage, 'put' | 'delete'>
}

/**
 * Where the drawn demo photos are: src/lib/demo-photos from the project's root, the same from
 * src/cli (tsx) and dist/cli (the build), since the build does not copy them. A checkout without
 * them (only dist/ deployed) seeds no photos.
 */
const PHOTOS_DIR = fileURLToPath(new URL('../../src/lib/demo-photos/', import.meta.url))

/** Stores the venue's demo photos (demoPhotos) and adds them as its thumbnail and gallery (media). */
async function insertPhotos(
  db: Executor,
  storage: Pick<Storage, 'put'>,
  venueId: number,
  v: DemoVenue,
  stored: string[],
) {
  if (!existsSync(PHOTOS_DIR)) return
  for (const [i, name] of demoPhotos(v).entries()) {
    const file = join(PHOTOS_DIR, name)
    const path = await storage.put(`venues/${venueId}`, { path: file }, 'webp')
    stored.push(path)
    await db
      .insertInto('media')
      .values({
        model_type: 'venue',
        model_id: venueId,
        collection: i === 0 ? 'thumbnail' : 'gallery',
        path,
        mime_type: 'image/webp',
        size: (await stat(file)).size,
        sort_order: i,
      })
      .execute()
  }
}

async function ensureUsers(db: Executor, now: Date): Promise<Map<string, number>> {
  const ids = new Map<string, number>()
  const roles = new Map((await db.selectFrom('roles').select(['id', 'name']).execute()).map((r) => [r.name, r.id]))
  for (const u of DEMO_USERS) {
    let row = await db.selectFrom('users').select('id').where('email', '=', u.email).executeTakeFirst()
    if (!row) {
      row = await db
        .insertInto('users')
        .values({
          name: u.name,
          email: u.email,
          phone: u.phone,
          password_hash: await hashPassword(DEMO_PASSWORD),
          email_verified_at: now,
          phone_verified_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    }
    await db
      .insertInto('user_roles')
      .values({ user_id: row.id, role_id: roles.get(u.role)! })
      .onConflict((oc) => oc.doNothing())
      .execute()
    ids.set(u.key, row.id)
  }
  return ids
}

/** The demo desk staff at their venue (venue_staff), so the console's day board is usable at once. */
async function ensureStaff(db: Executor, users: Map<string, number>) {
  for (const u of DEMO_USERS) {
    if (!u.staffAt) continue
    const venue = await db.selectFrom('venues').select('id').where('slug', '=', u.staffAt).executeTakeFirstOrThrow()
    await db
      .insertInto('venue_staff')
      .values({ venue_id: venue.id, user_id: users.get(u.key)!, role: 'staff' })
      .onConflict((oc) => oc.doNothing())
      .execute()
  }
}

async function insertVenue(
  db: Executor,
  v: DemoVenue,
  ownerId: number,
  adminId: number,
  now: Date,
  photos?: { storage: Pick<Storage, 'put'>; stored: string[] },
) {
  const venue = await db
    .insertInto('venues')
    .values({
      owner_id: ownerId,
      name: v.name,
      name_ne: v.name_ne ?? null,
      slug: v.slug,
      description: v.description,
      phone: v.phone,
      email: v.email,
      address: v.address,
      address_ne: v.address_ne ?? null,
      city: v.city,
      state: v.state,
      latitude: v.latitude.toFixed(7),
      longitude: v.longitude.toFixed(7),
      opening_time: time(v.opening_time),
      closing_time: time(v.closing_time),
      verification_status: v.verified ? 'verified' : 'unverified',
      verification_requested_at: v.verified ? now : null,
      verification_reviewed_at: v.verified ? now : null,
      verification_note: v.verified ? `Verified by admin #${adminId}` : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const amenities = await db.selectFrom('amenities').select('id').where('name', 'in', v.amenities).execute()
  if (amenities.length) {
    await db
      .insertInto('venue_amenities')
      .values(amenities.map((a) => ({ venue_id: venue.id, amenity_id: a.id })))
      .execute()
  }
  if (v.holidays?.length) {
    await db
      .insertInto('venue_holidays')
      .values(v.holidays.map((h) => ({ venue_id: venue.id, date: h.date, name: h.name })))
      .execute()
  }
  const sports = new Map((await db.selectFrom('sports').select(['id', 'key']).execute()).map((s) => [s.key, s.id]))
  for (const c of v.courts) {
    const court = await db
      .insertInto('courts')
      .values({
        venue_id: venue.id,
        sport_id: sports.get(c.sport) ?? null,
        name: c.name,
        type: c.type,
        description: c.description,
        capacity: c.capacity,
        slot_minutes: c.slot_minutes,
        price_per_hour: paisa(c.price),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    if (c.schedules?.length) {
      await db
        .insertInto('court_schedules')
        .values(
          c.schedules.map((s) => ({
            court_id: court.id,
            day_of_week: s.day_of_week,
            open_time: time(s.open_time),
            close_time: time(s.close_time),
            is_closed: s.is_closed ?? false,
          })),
        )
        .execute()
    }
    if (c.rules.length) {
      await db
        .insertInto('pricing_rules')
        .values(
          c.rules.map((r) => ({
            court_id: court.id,
            type: r.type,
            day_of_week: r.day_of_week,
            start_time: time(r.start_time),
            end_time: time(r.end_time),
            price_per_hour: paisa(r.price),
          })),
        )
        .execute()
    }
  }
  for (const [i, g] of v.games.entries()) {
    await db
      .insertInto('indoor_games')
      .values({
        venue_id: venue.id,
        tenant_id: ownerId,
        name: g.name,
        game_type: g.game_type,
        description: g.description,
        capacity: g.capacity,
        slot_minutes: g.slot_minutes,
        price_per_hour: paisa(g.price),
        sort_order: i + 1,
      })
      .execute()
  }
  if (photos) await insertPhotos(db, photos.storage, venue.id, v, photos.stored)
  // The venue list's price sort reads this column.
  await db
    .updateTable('venues')
    .set((eb) => ({
      min_price: eb
        .selectFrom('courts')
        .select((c) => c.fn.min('price_per_hour').as('p'))
        .where('venue_id', '=', venue.id)
        .where('deleted_at', 'is', null)
        .where('is_active', '=', true),
    }))
    .where('id', '=', venue.id)
    .execute()
}

async function ensureTournament(db: Executor, customerId: number, createdBy: number, time: SeedTime) {
  const t = DEMO_TOURNAMENT
  const venue = await db.selectFrom('venues').select('id').where('slug', '=', t.venue).executeTakeFirstOrThrow()
  const existing = await db
    .selectFrom('tournaments')
    .select('id')
    .where('venue_id', '=', venue.id)
    .where('name', '=', t.name)
    .executeTakeFirst()
  if (existing) return
  const startsAt = addDays(time.zone.today(time.clock.now()), t.starts_in_days)
  const tournament = await db
    .insertInto('tournaments')
    .values({
      venue_id: venue.id,
      name: t.name,
      description: t.description,
      format: t.format,
      sport_type: t.sport_type,
      max_teams: t.max_teams,
      registered_teams: t.teams.length,
      registration_fee: paisa(t.registration_fee),
      prize_pool: paisa(t.prize_pool),
      starts_at: startsAt,
      ends_at: addDays(startsAt, t.lasts_days - 1),
      status: 'registration_open',
      created_by: createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('tournament_teams')
    .values(
      t.teams.map((team, i) => ({
        tournament_id: tournament.id,
        user_id: i === 0 ? customerId : null,
        name: team.name,
        captain_name: team.captain_name,
        contact_phone: team.contact_phone,
        players: JSON.stringify(team.players.map((name, j) => ({ name, position: j === 0 ? 'Captain' : null }))),
      })),
    )
    .execute()
}

/** Counts of the demo rows present in the database. */
export async function demoCounts(db: Executor) {
  const slugs = DEMO_VENUES.map((v) => v.slug)
  const venueIds = (await db.selectFrom('venues').select('id').where('slug', 'in', slugs).execute()).map((v) => v.id)
  const count = async (table: 'courts' | 'indoor_games' | 'tournaments') =>
    venueIds.length
      ? Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .where('venue_id', 'in', venueIds)
              .executeTakeFirstOrThrow()
          ).n,
        )
      : 0
  const teams = await db
    .selectFrom('tournament_teams as tt')
    .innerJoin('tournaments as t', 't.id', 'tt.tournament_id')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('t.name', '=', DEMO_TOURNAMENT.name)
    .executeTakeFirstOrThrow()
  return {
    venues: venueIds.length,
    courts: await count('courts'),
    indoorGames: await count('indoor_games'),
    tournaments: await count('tournaments'),
    teams: Number(teams.n),
  }
}

/** Loads the demo data (in one transaction) and returns what is there afterwards. */
export async function seedDemo(
  db: Executor,
  time: SeedTime = { zone: new Zone('Asia/Kathmandu'), clock: systemClock },
): Promise<SeedSummary> {
  const now = time.clock.now()
  // Photo files stored so far: removed again when the transaction fails.
  const stored: string[] = []
  const photos = time.storage ? { storage: time.storage, stored } : undefined
  const run = async (trx: Executor) => {
    const users = await ensureUsers(trx, now)
    for (const v of DEMO_VENUES) {
      const exists = await trx.selectFrom('venues').select('id').where('slug', '=', v.slug).executeTakeFirst()
      if (!exists) await insertVenue(trx, v, users.get(v.owner)!, users.get('admin')!, now, photos)
    }
    await ensureStaff(trx, users)
    await ensureTournament(trx, users.get('customer')!, users.get('owner1')!, time)
    if (time.history) {
      const customer = DEMO_USERS.find((u) => u.key === 'customer')!
      await seedVenueHistory(
        trx,
        DEMO_VENUES[0],
        {
          customerId: users.get('customer')!,
          customerName: customer.name,
          customerPhone: customer.phone,
          staffIds: [users.get('staff')!],
        },
        { zone: time.zone, now, commissionBasisPoints: time.commissionBasisPoints ?? 0 },
      )
    }
  }
  try {
    if (db.isTransaction) await run(db)
    else await db.transaction().execute(run)
  } catch (err) {
    await Promise.all(stored.map((p) => time.storage?.delete(p)))
    throw err
  }
  return {
    users: DEMO_USERS.map((u) => ({ email: u.email, role: u.role })),
    password: DEMO_PASSWORD,
    ...(await demoCounts(db)),
  }
}

async function main() {
  const config = loadConfig()
  setPasswordCost(config.argon2MemoryKib)
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite'),
  })
  try {
    await migrate(database.db)
    const summary = await seedDemo(database.db, {
      zone: new Zone(config.timezone),
      clock: systemClock,
      history: true,
      commissionBasisPoints: config.platformCommissionBasisPoints,
      storage: localStorage(config.uploadsDir, config.appUrl),
    })
    console.log('Demo data loaded.')
    for (const u of summary.users) console.log(`  ${u.role.padEnd(12)} ${u.email}`)
    console.log(`  password     ${summary.password}`)
    console.log(
      `  ${summary.venues} venues, ${summary.courts} courts, ${summary.indoorGames} indoor games, ` +
        `${summary.tournaments} tournament with ${summary.teams} teams`,
    )
  } finally {
    await database.close()
  }
}

// Run only when executed (`tsx src/cli/seed.ts`), not when a test imports seedDemo.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch(exitOnStartError)
}
