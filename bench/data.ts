import { createHash, randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { Database } from '../src/lib/db.ts'

// The bench's own data set, generated in SQL so a million rows load in seconds, not minutes.

export interface DataSize {
  venues: number
  courtsPerVenue: number
  /** Venues whose courts get a year of bookings (the "benchmarked venues"). */
  busyVenues: number
  /** Probability that a given hour of a busy court is booked. */
  fill: number
}

export interface BenchFixtures {
  busyCourtId: number
  freeCourtIds: number[]
  venueSlug: string
  tokens: string[]
}

export async function resetData(db: Database) {
  await sql`TRUNCATE bookings, indoor_game_bookings, court_blocks, pricing_rules, court_schedules, courts,
    venue_holidays, venue_staff, venue_amenities, media, reviews, tournaments, indoor_games, venues,
    api_tokens, user_roles, users, notifications, jobs RESTART IDENTITY CASCADE`.execute(db)
}

export async function generateCatalogue(
  db: Database,
  size: DataSize,
): Promise<Omit<BenchFixtures, 'busyCourtId'> & { busyCourtIds: number[] }> {
  await sql`INSERT INTO users (name, email, password_hash)
    SELECT 'Owner ' || g, 'owner' || g || '@bench.local', NULL FROM generate_series(1, 100) g`.execute(db)
  await sql`INSERT INTO users (name, email, password_hash)
    SELECT 'Player ' || g, 'player' || g || '@bench.local', NULL FROM generate_series(1, 200) g`.execute(db)
  await sql`INSERT INTO user_roles (user_id, role_id)
    SELECT u.id, r.id FROM users u JOIN roles r ON r.name = CASE WHEN u.email LIKE 'owner%' THEN 'venue_owner' ELSE 'customer' END`.execute(
    db,
  )
  // Courts are numbered venue after venue (court (v - 1) * courtsPerVenue + k), which bench/pgbench.ts uses.
  // Venues spread over Nepal's bounding box, denser around Kathmandu.
  await sql`INSERT INTO venues (owner_id, name, slug, address, city, state, latitude, longitude, opening_time,
      closing_time, verification_status, min_price, reviews_count, reviews_avg_rating)
    SELECT 1 + (g % 100), 'Bench Arena ' || g, 'bench-arena-' || g, 'Street ' || g,
      (ARRAY['Kathmandu','Lalitpur','Bhaktapur','Pokhara','Biratnagar','Butwal','Dharan','Chitwan'])[1 + g % 8], 'Province',
      CASE WHEN g % 3 = 0 THEN 27.60 + random() * 0.2 ELSE 26.4 + random() * 3.9 END,
      CASE WHEN g % 3 = 0 THEN 85.2 + random() * 0.2 ELSE 80.1 + random() * 8.0 END,
      '06:00', '22:00', 'verified', 100000 + (g % 20) * 5000, g % 40, CASE WHEN g % 40 = 0 THEN NULL ELSE 3 + (g % 20) / 10.0 END
    FROM generate_series(1, ${size.venues}) g`.execute(db)
  await sql`INSERT INTO courts (venue_id, sport_id, name, type, capacity, slot_minutes, price_per_hour)
    SELECT v.id, 1, 'Court ' || c, 'futsal', 10, 60, 100000 + (v.id % 20) * 5000
    FROM venues v CROSS JOIN generate_series(1, ${size.courtsPerVenue}) c ORDER BY v.id, c`.execute(db)
  await sql`INSERT INTO pricing_rules (court_id, type, day_of_week, start_time, end_time, price_per_hour)
    SELECT id, 'peak', NULL, '17:00', '21:00', 200000 FROM courts WHERE venue_id <= ${size.busyVenues}`.execute(db)
  await sql`ANALYZE`.execute(db)

  const busy = await db
    .selectFrom('courts')
    .select('id')
    .where('venue_id', '<=', size.busyVenues)
    .orderBy('id')
    .execute()
  const free = await db
    .selectFrom('courts')
    .select('id')
    .where('venue_id', '>', size.busyVenues)
    .orderBy('id')
    .limit(2000)
    .execute()
  const players = await db.selectFrom('users').select('id').where('email', 'like', 'player%').orderBy('id').execute()
  const tokens: string[] = []
  for (const p of players) {
    const secret = randomBytes(30).toString('base64url').slice(0, 40)
    const row = await db
      .insertInto('api_tokens')
      .values({ user_id: p.id, name: 'bench', token_hash: createHash('sha256').update(secret).digest('hex') })
      .returning('id')
      .executeTakeFirstOrThrow()
    tokens.push(`${row.id}|${secret}`)
  }
  return {
    busyCourtIds: busy.map((r) => r.id),
    freeCourtIds: free.map((r) => r.id),
    venueSlug: `bench-arena-${Math.max(1, Math.floor(size.venues / 2))}`,
    tokens,
  }
}

/**
 * Books `fill` of the hourly slots of the given courts over [fromDay, toDay) days relative to today
 * (past days completed, future ones confirmed). Returns the number of rows inserted.
 */
export async function generateBookings(
  db: Database,
  courtIds: number[],
  fromDay: number,
  toDay: number,
  fill: number,
): Promise<number> {
  if (courtIds.length === 0) return 0
  // One transaction with triggers off (session_replication_role): the rows are consistent by
  // construction, and a cache notification or foreign-key check per row would only slow the load.
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL session_replication_role = replica`.execute(trx)
    const res =
      await sql`INSERT INTO bookings (booking_number, user_id, court_id, venue_id, type, status, date, start_time,
      end_time, base_amount, total_amount, paid_amount, customer_name)
    SELECT 'BN-' || c.id || '-' || d || '-' || h, 101 + (((c.id + d + h) % 200 + 200) % 200), c.id, c.venue_id, 'online',
      CASE WHEN d < 0 THEN 'completed' ELSE 'confirmed' END,
      (now() AT TIME ZONE 'Asia/Kathmandu')::date + d, make_time(h, 0, 0), make_time(h + 1, 0, 0),
      150000, 150000, 150000, 'Bench Player'
    FROM courts c
    CROSS JOIN generate_series(${fromDay}::int, ${toDay - 1}::int) d
    CROSS JOIN generate_series(6, 21) h
    WHERE c.id = ANY(${courtIds}::bigint[]) AND random() < ${fill}
    ON CONFLICT DO NOTHING`.execute(trx)
    return Number(res.numAffectedRows ?? 0)
  })
}
