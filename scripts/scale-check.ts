// npm run scale-check: two instances on one PostgreSQL and one Redis behave as one service.
// Verifies: no double booking across instances, rate limits (per address and per account) counted
// once across both, each booking reminder sent exactly once, hold expiry run once.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { sql } from 'kysely'
import pg from 'pg'
import { openDatabase } from '../src/lib/db.ts'
import { migrate } from '../src/lib/migrate.ts'
import { account, post, transfer } from '../src/modules/ledger/index.ts'

const ADMIN_URL = process.env.SCALE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const DB_NAME = `courtside_scale_${process.pid}`
const dbUrl = (() => {
  const u = new URL(ADMIN_URL)
  u.pathname = `/${DB_NAME}`
  return u.toString()
})()
const PORTS = [8301, 8302]
const failures: string[] = []

function check(ok: boolean, text: string) {
  console.log(`${ok ? 'PASS' : 'FAIL'} ${text}`)
  if (!ok) failures.push(text)
}

function kathmandu(offsetMs: number) {
  const s = new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Asia/Kathmandu',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(Date.now() + offsetMs))
  return { date: s.slice(0, 10), time: s.slice(11, 16) }
}

async function start(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist/server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      APP_KEY: 'scale-check-shared-key',
      // Production settings, with the in-service gateways and the outbox file: the check sends nothing out.
      PAYMENT_SANDBOX_IN_PRODUCTION: 'true',
      OUTBOX_LOG_IN_PRODUCTION: 'true',
      // Served on loopback only (HOST below); nothing scrapes it.
      METRICS_PUBLIC: 'true',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: dbUrl,
      REDIS_URL,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ENABLED: 'true',
      RATE_LIMIT_DEFAULT: '100000',
      RATE_LIMIT_REGISTER: '10',
      RATE_LIMIT_LOGIN_ACCOUNT: '10',
      // The check below plays clients at many addresses through X-Forwarded-For from 127.0.0.1.
      TRUST_PROXY: '127.0.0.1',
      JOBS_ENABLED: 'true',
      JOBS_POLL_MS: '200',
      DATA_DIR: `.tmp/scale-${port}`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child
    } catch {}
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`instance on ${port} did not start`)
}

/** The production build (`npm run build`), which is what `npm start` runs. */
function buildServer() {
  const res = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' })
  if (res.status !== 0) throw new Error('npm run build failed')
}

async function main() {
  buildServer()
  const admin = new pg.Client({ connectionString: ADMIN_URL })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${DB_NAME}`)
  const redis = new Redis(REDIS_URL)
  const stale = await redis.keys('courtside-rl:*')
  if (stale.length) await redis.del(...stale)

  const { db, close } = await openDatabase({ databaseUrl: dbUrl, poolSize: 4 })
  await migrate(db)
  // Fixtures: an owner, a verified venue with a court, 50 customers with tokens.
  const owner = await db
    .insertInto('users')
    .values({ name: 'Owner', email: 'owner@scale.local' })
    .returning('id')
    .executeTakeFirstOrThrow()
  const venue = await db
    .insertInto('venues')
    .values({
      owner_id: owner.id,
      name: 'Scale Arena',
      slug: 'scale-arena',
      address: 'Ring Road',
      city: 'Kathmandu',
      state: 'Bagmati',
      latitude: '27.7',
      longitude: '85.3',
      opening_time: '00:00',
      closing_time: '23:59',
      verification_status: 'verified',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const court = await db
    .insertInto('courts')
    .values({ venue_id: venue.id, name: 'Court A', type: 'futsal', slot_minutes: 60, price_per_hour: 100000 })
    .returning('id')
    .executeTakeFirstOrThrow()
  const tokens: string[] = []
  const userIds: number[] = []
  const customerRole = await db
    .selectFrom('roles')
    .select('id')
    .where('name', '=', 'customer')
    .executeTakeFirstOrThrow()
  for (let i = 0; i < 50; i++) {
    const u = await db
      .insertInto('users')
      .values({ name: `Player ${i}`, email: `p${i}@scale.local` })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db.insertInto('user_roles').values({ user_id: u.id, role_id: customerRole.id }).execute()
    const secret = randomBytes(30).toString('base64url').slice(0, 40)
    const t = await db
      .insertInto('api_tokens')
      .values({ user_id: u.id, name: 'scale', token_hash: createHash('sha256').update(secret).digest('hex') })
      .returning('id')
      .executeTakeFirstOrThrow()
    tokens.push(`${t.id}|${secret}`)
    userIds.push(u.id)
  }

  const instances = [await start(PORTS[0]), await start(PORTS[1])]
  try {
    // 1. No double booking across instances: 200 creates for 5 slots, alternating instances.
    const day = kathmandu(3 * 86400000).date
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fetch(`http://127.0.0.1:${PORTS[i % 2]}/api/bookings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[i % tokens.length]}` },
          body: JSON.stringify({
            court_id: court.id,
            date: day,
            start_time: `${String(10 + (i % 5)).padStart(2, '0')}:00`,
            end_time: `${String(11 + (i % 5)).padStart(2, '0')}:00`,
          }),
        }).then((r) => r.status),
      ),
    )
    const created = statuses.filter((s) => s === 201).length
    const conflicts = statuses.filter((s) => s === 409).length
    const live = await sql<{ n: string }>`SELECT count(*) AS n FROM bookings WHERE court_id = ${court.id}
      AND date = ${day} AND status IN ('pending', 'confirmed', 'playing')`.execute(db)
    check(
      created === 5 && conflicts === 195 && Number(live.rows[0].n) === 5,
      `double booking: 200 creates for 5 slots over 2 instances -> ${created} created, ${conflicts} x 409, ${live.rows[0].n} live rows`,
    )

    // 2. Rate limits counted once: register is 10/min per client; 8 attempts on each instance.
    const regs = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        fetch(`http://127.0.0.1:${PORTS[i % 2]}/api/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name: `New ${i}`,
            email: `new${i}@scale.local`,
            password: 'password123',
            password_confirmation: 'password123',
          }),
        }).then((r) => r.status),
      ),
    )
    const allowed = regs.filter((s) => s !== 429).length
    check(
      allowed === 10 && regs.filter((s) => s === 429).length === 6,
      `rate limit: 16 registrations over 2 instances -> ${allowed} allowed, ${16 - allowed} x 429`,
    )

    // 2b. Login failures per account counted once across instances and addresses: 11 wrong
    // passwords for one account, each from its own address, alternating instances.
    const logins: number[] = []
    for (let i = 0; i < 11; i++) {
      const res = await fetch(`http://127.0.0.1:${PORTS[i % 2]}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i + 1}` },
        body: JSON.stringify({ email: 'P0@Scale.local', password: 'wrong-password' }),
      })
      logins.push(res.status)
    }
    check(
      logins.slice(0, 10).every((s) => s === 403) && logins[10] === 429,
      `account limit: 11 failed logins for one account from 11 addresses over 2 instances -> ${logins.join(',')}`,
    )

    // 3. Reminders: bookings that start in ~24 h get exactly one BookingReminder each.
    // 4. Hold expiry: pending bookings whose hold passed are cancelled once.
    const soon = kathmandu(24 * 3600 * 1000 - 5 * 60 * 1000)
    const startHour = Number(soon.time.slice(0, 2))
    const reminderIds: number[] = []
    const holdIds: number[] = []
    const later = kathmandu(5 * 86400000).date
    for (let i = 0; i < 10; i++) {
      const r = await db
        .insertInto('bookings')
        .values({
          booking_number: `SC-R-${i}`,
          user_id: userIds[i],
          court_id: court.id,
          venue_id: venue.id,
          status: 'confirmed',
          date: soon.date,
          start_time: `${String(startHour).padStart(2, '0')}:${String(i * 5).padStart(2, '0')}`,
          end_time: `${String(startHour).padStart(2, '0')}:${String(i * 5 + 5).padStart(2, '0')}`,
          base_amount: 100000,
          total_amount: 100000,
          paid_amount: 100000,
          customer_name: `Player ${i}`,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      reminderIds.push(r.id)
      // Paid through eSewa: its payment and ledger entry, so the books agree (checked at the end).
      const payment = await db
        .insertInto('payments')
        .values({
          user_id: userIds[i],
          payable_type: 'court',
          payable_id: r.id,
          method: 'gateway_1',
          amount: 100000,
          status: 'completed',
          reference: `SC-P-${i}`,
          completed_at: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await post(db, {
        kind: 'gateway_payment',
        occurredAt: new Date(),
        description: 'Scale check payment',
        paymentId: payment.id,
        booking: { kind: 'court', id: r.id },
        venueId: venue.id,
        userId: userIds[i],
        lines: transfer(account.gatewayClearing('gateway_1'), account.venueBalance(venue.id), 100000),
      })
      const h = await db
        .insertInto('bookings')
        .values({
          booking_number: `SC-H-${i}`,
          user_id: userIds[i],
          court_id: court.id,
          venue_id: venue.id,
          status: 'pending',
          date: later,
          start_time: `${String(6 + i).padStart(2, '0')}:00`,
          end_time: `${String(7 + i).padStart(2, '0')}:00`,
          base_amount: 100000,
          total_amount: 100000,
          payment_method: 'gateway_1',
          hold_expires_at: new Date(Date.now() - 60_000),
          customer_name: `Player ${i}`,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      holdIds.push(h.id)
    }
    // Let both instances' job loops race for a while.
    const deadline = Date.now() + Number(process.env.SCALE_WAIT_MS ?? 75_000)
    let reminders = 0
    let cancelled = 0
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000))
      reminders = Number(
        (
          await sql<{ n: string }>`SELECT count(*) AS n FROM notifications
            WHERE type LIKE '%BookingReminder' AND (data->>'booking_id')::bigint = ANY(${reminderIds}::bigint[])`.execute(
            db,
          )
        ).rows[0].n,
      )
      cancelled = Number(
        (
          await sql<{ n: string }>`SELECT count(*) AS n FROM bookings WHERE id = ANY(${holdIds}::bigint[])
            AND status = 'cancelled' AND cancel_reason = 'Payment not received'`.execute(db)
        ).rows[0].n,
      )
      if (reminders >= 10 && cancelled === 10) {
        // Keep both loops running a little longer: a duplicate would show up now.
        await new Promise((r) => setTimeout(r, 3000))
        break
      }
    }
    const perBooking = await sql<{
      booking_id: string
      n: string
    }>`SELECT data->>'booking_id' AS booking_id, count(*) AS n
      FROM notifications WHERE type LIKE '%BookingReminder' GROUP BY 1 HAVING count(*) > 1`.execute(db)
    reminders = Number(
      (
        await sql<{ n: string }>`SELECT count(*) AS n FROM notifications
          WHERE type LIKE '%BookingReminder' AND (data->>'booking_id')::bigint = ANY(${reminderIds}::bigint[])`.execute(
          db,
        )
      ).rows[0].n,
    )
    check(
      reminders === 10 && perBooking.rows.length === 0,
      `reminders: 10 bookings ~24 h ahead -> ${reminders} BookingReminder notifications, ${perBooking.rows.length} sent twice`,
    )
    const cancelNotices = Number(
      (
        await sql<{ n: string }>`SELECT count(*) AS n FROM notifications
          WHERE type LIKE '%BookingCancelled' AND (data->>'booking_id')::bigint = ANY(${holdIds}::bigint[])`.execute(db)
      ).rows[0].n,
    )
    check(
      cancelled === 10 && cancelNotices <= 10,
      `hold expiry: 10 expired holds -> ${cancelled} cancelled ("Payment not received"), ${cancelNotices} cancellation notices (at most one each)`,
    )
    // The books of everything both instances did: `npm run ledger -- check` on this database.
    const books = spawnSync('npx', ['tsx', 'src/cli/ledger.ts', 'check'], {
      env: { ...process.env, DATABASE_URL: dbUrl, NODE_ENV: 'development' },
      encoding: 'utf8',
    })
    const verdict = (books.stdout ?? '')
      .trim()
      .split('\n')
      .filter((l) => /^balanced|^PROBLEM|^entries/.test(l))
    check(books.status === 0, `ledger: npm run ledger -- check -> exit ${books.status}; ${verdict.join('; ')}`)
  } finally {
    for (const i of instances) i.kill('SIGTERM')
    await Promise.all(instances.map((i) => new Promise((r) => i.once('exit', r))))
    await close()
    await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`)
    await admin.end()
    redis.disconnect()
  }
  if (failures.length) {
    console.log(`scale check: ${failures.length} failed`)
    process.exit(1)
  }
  console.log('scale check: all passed')
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
