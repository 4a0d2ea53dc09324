import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, createUser, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { expireLapsedHolds, letHoldsRunOut, sendDueReminders } from '../helpers/sweeps.ts'
import { book, fixedSlot, notificationsOf, world } from './helpers.ts'

let app: App
const clock = new ManualClock(FIXED_NOW)
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

/** A minute ago on the app's clock. */
const past = () => new Date(clock.now().getTime() - 60_000)

let seq = 0
async function indoorBooking(
  venueId: number,
  gameId: number,
  ownerId: number,
  userId: number,
  fields: { status: string; date: string; start: string; end: string; hold?: Date | null; method?: string },
) {
  return app.ctx.db
    .insertInto('indoor_game_bookings')
    .values({
      booking_number: `IG-JOB-${process.pid}-${++seq}`,
      tenant_id: ownerId,
      user_id: userId,
      indoor_game_id: gameId,
      venue_id: venueId,
      status: fields.status,
      date: fields.date,
      start_time: fields.start,
      end_time: fields.end,
      base_amount: 30000,
      total_amount: 30000,
      customer_name: 'Indoor Customer',
      hold_expires_at: fields.hold ?? null,
      payment_method: fields.method ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

test('hold expiry cancels unpaid holds of both kinds, releases coupons, notifies and frees the slot', async () => {
  const w = await world(app)
  const code = `JOB${w.venue.id}`
  await app.ctx.db
    .insertInto('coupons')
    .values({ venue_id: w.venue.id, code, type: 'fixed', value: 10000, usage_limit: 1, is_active: true })
    .execute()
  const held = (await book(app, w.customer, fixedSlot(w.court.id, 3, '10:00', '11:00', { coupon_code: code }))).json()
    .data
  const other = await createUser(app)
  // A live hold blocks the slot.
  assert.equal((await book(app, other, fixedSlot(w.court.id, 3, '10:00', '11:00'))).statusCode, 409)
  letHoldsRunOut(app, clock)
  // Booked after the time passed: its hold is still live.
  const fresh = (await book(app, w.customer, fixedSlot(w.court.id, 3, '12:00', '13:00'))).json().data
  const game = await createIndoorGame(app, w.venue.id)
  const indoor = await indoorBooking(w.venue.id, game.id, w.owner.id, w.customer.id, {
    status: 'pending',
    date: daysFromFixedNow(3),
    start: '10:00',
    end: '11:00',
    hold: past(),
  })

  assert.equal(await expireLapsedHolds(app), 2)
  for (const [table, id] of [
    ['bookings', held.id],
    ['indoor_game_bookings', indoor.id],
  ] as const) {
    const row = await app.ctx.db
      .selectFrom(table)
      .select(['status', 'cancel_reason', 'cancelled_at', 'hold_expires_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    assert.equal(row.status, 'cancelled', table)
    assert.equal(row.cancel_reason, 'Payment not received')
    assert.ok(row.cancelled_at)
    assert.equal(row.hold_expires_at, null)
  }
  const untouched = await app.ctx.db
    .selectFrom('bookings')
    .select('status')
    .where('id', '=', fresh.id)
    .executeTakeFirstOrThrow()
  assert.equal(untouched.status, 'pending')
  const coupon = await app.ctx.db
    .selectFrom('coupons')
    .select('used_count')
    .where('code', '=', code)
    .executeTakeFirstOrThrow()
  assert.equal(coupon.used_count, 0)
  const notes = (await notificationsOf(app, w.customer.id)).filter((n) => n.type === 'BookingCancelled')
  assert.deepEqual(notes.map((n) => n.data.booking_id).sort(), [held.id, indoor.id].sort())
  assert.ok(notes.every((n) => typeof n.data.message === 'string'))
  // The slot is free again; a second run finds nothing.
  assert.equal((await book(app, other, fixedSlot(w.court.id, 3, '10:00', '11:00'))).statusCode, 201)
  assert.equal(await expireLapsedHolds(app), 0)
})

test('an expired hold never blocks a new booking, even before the job runs', async () => {
  const w = await world(app)
  const held = (await book(app, w.customer, fixedSlot(w.court.id, 4, '15:00', '17:00'))).json().data
  letHoldsRunOut(app, clock)
  const other = await createUser(app)
  const res = await book(app, other, fixedSlot(w.court.id, 4, '16:00', '17:00'))
  assert.equal(res.statusCode, 201, res.body)
  const old = await app.ctx.db
    .selectFrom('bookings')
    .select(['status', 'cancel_reason'])
    .where('id', '=', held.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(old, { status: 'cancelled', cancel_reason: 'Payment not received' })
  const notes = await notificationsOf(app, w.customer.id)
  assert.deepEqual(
    notes.map((n) => n.type),
    ['BookingCancelled'],
  )
})

test('the hold-expiry job runs through the job queue (registered at start)', async () => {
  const w = await world(app)
  const held = (await book(app, w.customer, fixedSlot(w.court.id, 5, '09:00', '10:00'))).json().data
  letHoldsRunOut(app, clock)
  // The queue schedules and claims on the system and database clocks (src/lib/jobs.ts); the sweep
  // it runs reads the app's clock.
  await app.ctx.jobs.runDue()
  const row = await app.ctx.db
    .selectFrom('bookings')
    .select('status')
    .where('id', '=', held.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.status, 'cancelled')
})

test('BookingReminder: once per booking about 24 h ahead, even when the job runs twice at once', async () => {
  const w = await world(app)
  const game = await createIndoorGame(app, w.venue.id)
  const soon = app.ctx.zone.format(new Date(app.ctx.clock.now().getTime() + 12 * 3_600_000))
  const date = soon.slice(0, 10)
  const hour = soon.slice(11, 13)
  const start = `${hour}:00`
  const end = `${hour}:30`
  const insertCourt = (status: string, d: string, method: string | null = null) =>
    app.ctx.db
      .insertInto('bookings')
      .values({
        booking_number: `BK-JOB-${process.pid}-${++seq}`,
        user_id: w.customer.id,
        court_id: w.court.id,
        venue_id: w.venue.id,
        status,
        date: d,
        start_time: status === 'pending' && method === null ? `${hour}:30` : start,
        end_time: status === 'pending' && method === null ? `${String(Number(hour) + 1).padStart(2, '0')}:00` : end,
        base_amount: 150000,
        total_amount: 150000,
        customer_name: 'Customer',
        payment_method: method,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  const due = await insertCourt('confirmed', date)
  const later = await insertCourt('confirmed', daysFromFixedNow(3))
  const unpaid = await insertCourt('pending', date)
  const indoorDue = await indoorBooking(w.venue.id, game.id, w.owner.id, w.customer.id, {
    status: 'pending',
    date,
    start,
    end,
    method: 'cash',
  })

  const [a, b] = await Promise.all([sendDueReminders(app), sendDueReminders(app)])
  assert.equal(a + b, 2)
  assert.equal(await sendDueReminders(app), 0)
  const reminders = (await notificationsOf(app, w.customer.id)).filter((n) => n.type === 'BookingReminder')
  assert.equal(reminders.length, 2)
  const byType = new Map(reminders.map((r) => [r.data.booking_type, r.data]))
  assert.equal(byType.get('court')?.booking_id, due.id)
  assert.equal(byType.get('indoor')?.booking_id, indoorDue.id)
  assert.equal(byType.get('court')?.date, date)
  assert.equal(byType.get('court')?.start_time, start)
  assert.match(String(byType.get('court')?.message), new RegExp(w.venue.name))
  const sent = await app.ctx.db
    .selectFrom('bookings')
    .select(['id', 'reminder_sent_at'])
    .where('id', 'in', [due.id, later.id, unpaid.id])
    .orderBy('id')
    .execute()
  assert.ok(sent[0].reminder_sent_at)
  assert.equal(sent[1].reminder_sent_at, null)
  assert.equal(sent[2].reminder_sent_at, null)
})
