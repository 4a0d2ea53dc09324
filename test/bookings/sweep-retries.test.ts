import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import type { AppContext } from '../../src/lib/context.ts'
import { SWEEP_RETRY_BASE_SECONDS } from '../../src/lib/sweeps.ts'
import { holdSweep } from '../../src/modules/booking-core/expiry.ts'
import { reminderSweep } from '../../src/modules/booking-core/index.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createIndoorGame, createUser, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { expireLapsedHolds, letHoldsRunOut, sendDueReminders } from '../helpers/sweeps.ts'
import { ledger } from '../payments/helpers.ts'
import { book, fixedSlot, world } from './helpers.ts'

// One booking a sweep cannot process (here: a trigger that refuses that row only, as a broken
// constraint or a bad row would) is logged once, retried with back-off, and never keeps the sweep
// from expiring or reminding the others.

// The bookings, their holds and reminders are on the app's ManualClock; the retry back-off is not:
// sweep_retries.retry_at is bookkeeping on the database's now() (src/lib/sweeps.ts), so dueNow and
// secondsAhead below ask the database's clock.
let app: App
const clock = new ManualClock(FIXED_NOW)
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

/** The app's context with a logger that keeps what is logged at error and info level. */
function recording() {
  const errors: Array<{ obj: Record<string, unknown>; msg?: string }> = []
  const infos: Array<{ obj: Record<string, unknown>; msg?: string }> = []
  const log = {
    ...app.ctx.log,
    error: (obj: Record<string, unknown>, msg?: string) => errors.push({ obj, msg }),
    info: (obj: Record<string, unknown>, msg?: string) => infos.push({ obj, msg }),
    debug: () => undefined,
  }
  // Only the three methods the sweeps call are replaced; the rest is the app's own logger.
  const ctx = { ...app.ctx, log: log as unknown as AppContext['log'] }
  return { ctx, errors, infos }
}

/** A trigger on `table` that makes `id` fail on the update `when` describes (created by the test). */
async function poison(table: 'bookings' | 'indoor_game_bookings', id: number, when: string) {
  const fn = `test_poison_${table}_${id}`
  await sql
    .raw(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.id = ${Number(id)} AND ${when} THEN RAISE EXCEPTION 'row % refuses this change', NEW.id; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER ${fn} BEFORE UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fn}();`)
    .execute(app.ctx.db)
  return async () => {
    await sql.raw(`DROP TRIGGER ${fn} ON ${table}; DROP FUNCTION ${fn}();`).execute(app.ctx.db)
  }
}

async function retryRow(sweep: string, id: number) {
  return app.ctx.db
    .selectFrom('sweep_retries')
    .select(['attempts', 'retry_at', 'last_error'])
    .where('sweep', '=', sweep)
    .where('row_id', '=', id)
    .executeTakeFirst()
}

/** Makes a retry due on the database's clock, which sweep_retries uses. */
async function dueNow(sweep: string, id: number) {
  await app.ctx.db
    .updateTable('sweep_retries')
    .set({ retry_at: sql<Date>`now() - interval '1 second'` })
    .where('sweep', '=', sweep)
    .where('row_id', '=', id)
    .execute()
}

const statusOf = async (table: 'bookings' | 'indoor_game_bookings', id: number) =>
  (await app.ctx.db.selectFrom(table).select('status').where('id', '=', id).executeTakeFirstOrThrow()).status

/** How far a retry's retry_at is ahead of the database's clock, in seconds. */
async function secondsAhead(sweep: string, id: number) {
  const { s } = await app.ctx.db
    .selectFrom('sweep_retries')
    .select(sql<string>`extract(epoch from retry_at - now())`.as('s'))
    .where('sweep', '=', sweep)
    .where('row_id', '=', id)
    .executeTakeFirstOrThrow()
  return Number(s)
}

const plusHour = (start: string) => `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:00`

let seq = 0
async function expiredIndoorHold(venueId: number, ownerId: number, gameId: number, userId: number, start: string) {
  return app.ctx.db
    .insertInto('indoor_game_bookings')
    .values({
      booking_number: `IG-SWEEP-${process.pid}-${++seq}`,
      tenant_id: ownerId,
      user_id: userId,
      indoor_game_id: gameId,
      venue_id: venueId,
      status: 'pending',
      date: daysFromFixedNow(3),
      start_time: start,
      end_time: plusHour(start),
      base_amount: 30000,
      total_amount: 30000,
      customer_name: 'Indoor Customer',
      hold_expires_at: new Date(clock.now().getTime() - 60_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

test('hold sweep: a booking that cannot be expired is logged once, backed off, retried, and blocks no other', async () => {
  const w = await world(app, { wallet: 500000 })
  const ids: number[] = []
  for (const start of ['08:00', '10:00', '12:00']) {
    const res = await book(app, w.customer, fixedSlot(w.court.id, 3, start, plusHour(start)))
    assert.equal(res.statusCode, 201, res.body)
    ids.push(res.json().data.id)
  }
  letHoldsRunOut(app, clock)
  const game = await createIndoorGame(app, w.venue.id)
  const indoor = await expiredIndoorHold(w.venue.id, w.owner.id, game.id, w.customer.id, '10:00')
  const poisoned = ids[1]
  const cure = await poison('bookings', poisoned, "NEW.status = 'cancelled'")
  const { ctx, errors, infos } = recording()

  // Every other hold expires; the poisoned one stays pending and is recorded for a retry.
  assert.equal(await expireLapsedHolds(app, ctx), 3)
  assert.equal(await statusOf('bookings', ids[0]), 'cancelled')
  assert.equal(await statusOf('bookings', ids[2]), 'cancelled')
  assert.equal(await statusOf('indoor_game_bookings', indoor.id), 'cancelled')
  assert.equal(await statusOf('bookings', poisoned), 'pending')
  const first = await retryRow(holdSweep('court'), poisoned)
  assert.ok(first)
  assert.equal(first.attempts, 1)
  assert.match(String(first.last_error), new RegExp(`row ${poisoned} refuses this change`))
  const wait1 = await secondsAhead(holdSweep('court'), poisoned)
  assert.ok(wait1 > SWEEP_RETRY_BASE_SECONDS - 15 && wait1 <= SWEEP_RETRY_BASE_SECONDS, `first back-off ${wait1}s`)
  assert.equal(errors.length, 1)
  assert.equal(errors[0].obj.row_id, poisoned)
  assert.equal(errors[0].obj.sweep, holdSweep('court'))
  // The freed slots take new bookings at once.
  const other = await createUser(app)
  assert.equal((await book(app, other, fixedSlot(w.court.id, 3, '08:00', '09:00'))).statusCode, 201)

  // Inside the back-off the booking is not tried again (and nothing more is logged).
  assert.equal(await expireLapsedHolds(app, ctx), 0)
  assert.equal((await retryRow(holdSweep('court'), poisoned))?.attempts, 1)

  // Once due, it is retried; a second failure doubles the wait and is not logged as an error again.
  await dueNow(holdSweep('court'), poisoned)
  assert.equal(await expireLapsedHolds(app, ctx), 0)
  const second = await retryRow(holdSweep('court'), poisoned)
  assert.equal(second?.attempts, 2)
  const wait2 = await secondsAhead(holdSweep('court'), poisoned)
  assert.ok(wait2 > 2 * SWEEP_RETRY_BASE_SECONDS - 15 && wait2 <= 2 * SWEEP_RETRY_BASE_SECONDS, `back-off ${wait2}s`)
  assert.equal(errors.length, 1)

  // When the cause is gone, the next retry expires it and clears its retry state.
  await cure()
  await dueNow(holdSweep('court'), poisoned)
  assert.equal(await expireLapsedHolds(app, ctx), 1)
  assert.equal(await statusOf('bookings', poisoned), 'cancelled')
  assert.equal(await retryRow(holdSweep('court'), poisoned), undefined)
  assert.equal(infos.filter((i) => i.obj.row_id === poisoned).length, 1)
  const l = await ledger(app, w.customer.id)
  assert.equal(l.balance, l.sum)
})

test('booking a slot next to a booking that cannot be expired still works (savepoint per expired hold)', async () => {
  const w = await world(app)
  const game = await createIndoorGame(app, w.venue.id)
  const stuck = await expiredIndoorHold(w.venue.id, w.owner.id, game.id, w.customer.id, '14:00')
  const cure = await poison('indoor_game_bookings', stuck.id, "NEW.status = 'cancelled'")
  const other = await createUser(app)
  const body = (start: string, end: string) => ({
    indoor_game_id: game.id,
    date: daysFromFixedNow(3),
    start_time: start,
    end_time: end,
  })
  const post = (payload: object) =>
    app.inject({ method: 'POST', url: '/api/indoor-game-bookings', headers: other.headers, payload })
  // Indoor creation expires the game's due holds of that date first; the stuck one is skipped.
  const next = await post(body('16:00', '17:00'))
  assert.equal(next.statusCode, 201, next.body)
  // Its own slot stays taken while it cannot be expired: 409, not 500.
  assert.equal((await post(body('14:00', '15:00'))).statusCode, 409)
  assert.equal(await statusOf('indoor_game_bookings', stuck.id), 'pending')

  // Court creation, which expires holds only when the slot is refused, behaves the same.
  const held = (await book(app, w.customer, fixedSlot(w.court.id, 4, '10:00', '11:00'))).json().data
  letHoldsRunOut(app, clock)
  const cureCourt = await poison('bookings', held.id, "NEW.status = 'cancelled'")
  assert.equal((await book(app, other, fixedSlot(w.court.id, 4, '10:00', '11:00'))).statusCode, 409)
  await cureCourt()
  assert.equal((await book(app, other, fixedSlot(w.court.id, 4, '10:00', '11:00'))).statusCode, 201)
  await cure()
  assert.equal((await post(body('14:00', '15:00'))).statusCode, 201)
})

test('reminders: a booking whose reminder fails is retried later; the others are reminded at once', async () => {
  const w = await world(app)
  const court2 = await createCourt(app, w.venue.id)
  const soon = app.ctx.zone.format(new Date(app.ctx.clock.now().getTime() + 12 * 3_600_000))
  const hour = soon.slice(11, 13)
  const insert = (courtId: number) =>
    app.ctx.db
      .insertInto('bookings')
      .values({
        booking_number: `BK-SWEEP-${process.pid}-${++seq}`,
        user_id: w.customer.id,
        court_id: courtId,
        venue_id: w.venue.id,
        status: 'confirmed',
        date: soon.slice(0, 10),
        start_time: `${hour}:00`,
        end_time: `${hour}:30`,
        base_amount: 150000,
        total_amount: 150000,
        customer_name: 'Customer',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  const ok = await insert(w.court.id)
  const bad = await insert(court2.id)
  const cure = await poison('bookings', bad.id, 'NEW.reminder_sent_at IS NOT NULL AND OLD.reminder_sent_at IS NULL')
  const { ctx, errors } = recording()

  assert.equal(await sendDueReminders(app, ctx), 1)
  const reminded = await app.ctx.db
    .selectFrom('notifications')
    .select('data')
    .where('user_id', '=', w.customer.id)
    .where('type', 'like', '%BookingReminder')
    .execute()
  const data = reminded.map((r) => (typeof r.data === 'string' ? JSON.parse(r.data) : r.data))
  assert.deepEqual(
    data.map((d) => d.booking_id),
    [ok.id],
  )
  assert.equal((await retryRow(reminderSweep('court'), bad.id))?.attempts, 1)
  assert.equal(errors.length, 1)
  assert.equal(errors[0].obj.row_id, bad.id)
  // In back-off: not tried, not logged again.
  assert.equal(await sendDueReminders(app, ctx), 0)
  assert.equal(errors.length, 1)

  await cure()
  await dueNow(reminderSweep('court'), bad.id)
  assert.equal(await sendDueReminders(app, ctx), 1)
  assert.equal(await retryRow(reminderSweep('court'), bad.id), undefined)
  assert.equal(await sendDueReminders(app, ctx), 0)
})
