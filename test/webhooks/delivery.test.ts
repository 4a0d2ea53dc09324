import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { changeStatus, lockBooking } from '../../src/modules/booking-core/index.ts'
import { WEBHOOK_EVENTS } from '../../src/modules/webhooks/events.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { createWebhook, deliveriesOf, type Receiver, receiver, verified } from './helpers.ts'

let app: App
const receivers: Receiver[] = []
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(async () => {
  for (const r of receivers) await r.close()
  await app.close()
})

async function localReceiver(answer?: Receiver['answer']) {
  const r = await receiver(answer)
  receivers.push(r)
  return r
}

const events = [...WEBHOOK_EVENTS]

function typesOf(secret: string, r: Receiver) {
  return r.received.map((x) => verified(secret, x).type)
}

test('every change of a booking and its payments reaches the subscribed endpoints, signed per Standard Webhooks', async () => {
  const w = await world(app, { wallet: 1_000_000 })
  const all = await localReceiver()
  const refundsOnly = await localReceiver()
  const elsewhere = await localReceiver()
  const hook = await createWebhook(app, w.owner, w.venue.id, all.url, events)
  const refundHook = await createWebhook(app, w.owner, w.venue.id, refundsOnly.url, ['payment.refunded'])
  const other = await world(app)
  await createWebhook(app, other.owner, other.venue.id, elsewhere.url, events)

  // Created: the message is in the outbox with the booking; nothing is sent until the queue runs.
  const created = await book(app, w.customer, fixedSlot(w.court.id, 3, '10:00', '11:00'))
  assert.equal(created.statusCode, 201, created.body)
  const booking = created.json().data
  assert.equal(all.received.length, 0)
  await app.ctx.jobs.runDue()
  await all.waitFor(1)
  const first = verified(hook.secret, all.received[0])
  assert.equal(first.type, 'booking.created')
  assert.match(first.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  assert.equal(first.data.id, booking.id)
  assert.equal(first.data.kind, 'court')
  assert.equal(first.data.booking_number, booking.booking_number)
  assert.equal(first.data.venue_id, w.venue.id)
  assert.equal(first.data.court_id, w.court.id)
  assert.equal(first.data.user_id, w.customer.id)
  assert.equal(first.data.status, 'pending')
  assert.equal(first.data.date, daysFromFixedNow(3))
  assert.equal(first.data.start_time, '10:00')
  assert.equal(first.data.end_time, '11:00')
  assert.equal(first.data.total_amount, '1500.00')
  assert.equal(first.data.paid_amount, '0.00')
  const headers = all.received[0].headers
  assert.equal(headers['content-type'], 'application/json')
  assert.match(String(headers['webhook-id']), /^msg_[A-Za-z0-9_-]{22}$/)
  assert.match(String(headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/)
  // webhook-timestamp is the wire's time (the receiver checks it against its own clock), not a rule's: the system clock.
  assert.ok(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000) < 60)

  // Paid from the wallet: payment.completed and booking.confirmed.
  const paid = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_id: booking.id, method: 'wallet' },
  })
  assert.equal(paid.statusCode, 200, paid.body)
  // A manual partial refund by the owner: payment.refunded (partially_refunded).
  const manual = await app.inject({
    method: 'POST',
    url: `/api/payments/${paid.json().data.payment.id}/refund`,
    headers: w.owner.headers,
    payload: { amount: '300.00' },
  })
  assert.equal(manual.statusCode, 200, manual.body)
  // Cancelled by the customer inside the free window: booking.cancelled and payment.refunded.
  const cancelled = await app.inject({
    method: 'PATCH',
    url: `/api/bookings/${booking.id}/cancel`,
    headers: w.customer.headers,
    payload: { reason: 'Rain' },
  })
  assert.equal(cancelled.statusCode, 200, cancelled.body)
  await app.ctx.jobs.runDue()
  await all.waitFor(6)
  await refundsOnly.waitFor(2)
  const received = all.received.map((r) => verified(hook.secret, r))
  assert.deepEqual(received.map((r) => r.type).sort(), [
    'booking.cancelled',
    'booking.confirmed',
    'booking.created',
    'payment.completed',
    'payment.refunded',
    'payment.refunded',
  ])
  const payment = received.find((r) => r.type === 'payment.completed')!.data
  assert.equal(payment.method, 'wallet')
  assert.equal(payment.amount, '1500.00')
  assert.equal(payment.booking_id, booking.id)
  assert.equal(payment.booking_type, 'court')
  assert.equal(payment.venue_id, w.venue.id)
  assert.equal(received.find((r) => r.type === 'booking.confirmed')!.data.status, 'confirmed')
  const cancel = received.find((r) => r.type === 'booking.cancelled')!.data
  assert.equal(cancel.status, 'cancelled')
  assert.equal(cancel.cancel_reason, 'Rain')
  const refunds = received.filter((r) => r.type === 'payment.refunded').map((r) => r.data)
  assert.deepEqual(refunds.map((r) => [r.refunded_amount, r.status]).sort(), [
    ['1500.00', 'refunded'],
    ['300.00', 'partially_refunded'],
  ])
  // Each message has its own id; the refunds-only endpoint got only its event, signed with its own secret.
  assert.equal(new Set(all.received.map((r) => r.headers['webhook-id'])).size, 6)
  assert.deepEqual(typesOf(refundHook.secret, refundsOnly), ['payment.refunded', 'payment.refunded'])
  assert.throws(() => verified(hook.secret, refundsOnly.received[0]))
  // Another venue's endpoint heard nothing.
  assert.equal(elsewhere.received.length, 0)

  // The deliveries route: newest first, one 2xx attempt each.
  const deliveries = await deliveriesOf(app, w.owner, w.venue.id, hook.id)
  assert.equal(deliveries.length, 6)
  for (const d of deliveries) {
    assert.equal(d.status, 'succeeded')
    assert.equal(d.attempts, 1)
    assert.equal(d.next_attempt_at, null)
    assert.equal(d.last_attempts.length, 1)
    assert.equal(d.last_attempts[0].status_code, 204)
    assert.equal(d.last_attempts[0].error, null)
    assert.ok(d.last_attempts[0].duration_ms >= 0)
  }
  assert.deepEqual(
    deliveries.map((d) => d.message_id).sort(),
    all.received.map((r) => String(r.headers['webhook-id'])).sort(),
  )
})

test('desk bookings, desk payments, completion and indoor bookings emit their events; a refused refund emits nothing', async () => {
  const w = await world(app)
  const all = await localReceiver()
  const hook = await createWebhook(app, w.owner, w.venue.id, all.url, events)
  const desk = await app.inject({
    method: 'POST',
    url: `/api/venues/${w.venue.id}/bookings`,
    headers: w.staff.headers,
    payload: { ...fixedSlot(w.court.id, 1, '06:00', '07:00'), customer_name: 'Walk In', type: 'walkin' },
  })
  assert.equal(desk.statusCode, 201, desk.body)
  const id = desk.json().data.id
  const pay = await app.inject({
    method: 'POST',
    url: `/api/bookings/${id}/payments`,
    headers: w.staff.headers,
    payload: { amount: '1500.00', method: 'cash' },
  })
  assert.equal(pay.statusCode, 201, pay.body)
  for (const status of ['playing', 'completed']) {
    const res = await app.inject({
      method: 'PATCH',
      url: `/api/bookings/${id}/status`,
      headers: w.staff.headers,
      payload: { status },
    })
    assert.equal(res.statusCode, 200, res.body)
  }
  const payment = await app.ctx.db
    .selectFrom('payments')
    .select('id')
    .where('payable_type', '=', 'court')
    .where('payable_id', '=', id)
    .executeTakeFirstOrThrow()
  const refund = await app.inject({
    method: 'POST',
    url: `/api/payments/${payment.id}/refund`,
    headers: w.owner.headers,
    payload: { amount: '2000.00' },
  })
  // More than was paid: refused, and so no event.
  assert.equal(refund.statusCode, 422, refund.body)
  const game = await createIndoorGame(app, w.venue.id)
  const indoor = await app.inject({
    method: 'POST',
    url: '/api/indoor-game-bookings',
    headers: w.customer.headers,
    payload: { indoor_game_id: game.id, date: daysFromFixedNow(2), start_time: '12:00', end_time: '13:00' },
  })
  assert.equal(indoor.statusCode, 201, indoor.body)
  await app.ctx.jobs.runDue()
  await all.waitFor(5)
  const received = all.received.map((r) => verified(hook.secret, r))
  assert.deepEqual(received.map((r) => r.type).sort(), [
    'booking.completed',
    'booking.confirmed',
    'booking.created',
    'indoor_booking.created',
    'payment.completed',
  ])
  const created = received.find((r) => r.type === 'booking.created')!.data
  assert.equal(created.type, 'walkin')
  assert.equal(created.customer_name, 'Walk In')
  assert.equal(created.user_id, null)
  assert.equal(received.find((r) => r.type === 'booking.completed')!.data.status, 'completed')
  const indoorData = received.find((r) => r.type === 'indoor_booking.created')!.data
  assert.equal(indoorData.kind, 'indoor')
  assert.equal(indoorData.indoor_game_id, game.id)
  assert.equal(indoorData.id, indoor.json().data.id)
})

test('a rolled-back change sends nothing; a venue without endpoints writes nothing', async () => {
  const w = await world(app)
  const all = await localReceiver()
  await createWebhook(app, w.owner, w.venue.id, all.url, events)
  const created = await book(app, w.customer, fixedSlot(w.court.id, 4))
  assert.equal(created.statusCode, 201, created.body)
  const id = created.json().data.id
  const messages = async () =>
    Number(
      (
        await app.ctx.db
          .selectFrom('webhook_messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('venue_id', '=', w.venue.id)
          .executeTakeFirstOrThrow()
      ).n,
    )
  const jobs = async () =>
    Number(
      (
        await app.ctx.db
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('name', '=', 'webhooks.deliver')
          .executeTakeFirstOrThrow()
      ).n,
    )
  assert.equal(await messages(), 1)
  const jobsBefore = await jobs()
  // The venue cancels it inside a transaction that then fails: the booking.cancelled message goes too.
  await assert.rejects(
    app.ctx.db.transaction().execute(async (trx) => {
      const booking = (await lockBooking(trx, 'court', id))!
      await changeStatus(app.ctx, trx, booking, 'cancelled', 'Rolled back')
      const inside = await trx
        .selectFrom('webhook_messages')
        .select('type')
        .where('venue_id', '=', w.venue.id)
        .execute()
      assert.deepEqual(inside.map((m) => m.type).sort(), ['booking.cancelled', 'booking.created'])
      throw new Error('roll back')
    }),
    /roll back/,
  )
  assert.equal(await messages(), 1)
  assert.equal(await jobs(), jobsBefore)
  await app.ctx.jobs.runDue()
  await all.waitFor(1)
  await new Promise((r) => setTimeout(r, 200))
  assert.deepEqual(
    all.received.map((r) => JSON.parse(r.body).type),
    ['booking.created'],
  )

  // No endpoint at the venue: no message, no delivery, no job.
  const quiet = await world(app)
  const before = await jobs()
  const res = await book(app, quiet.customer, fixedSlot(quiet.court.id, 4))
  assert.equal(res.statusCode, 201)
  const rows = await app.ctx.db
    .selectFrom('webhook_messages')
    .select('id')
    .where('venue_id', '=', quiet.venue.id)
    .execute()
  assert.deepEqual(rows, [])
  assert.equal(await jobs(), before)
})

test('an endpoint subscribed to other events, or deleted, gets nothing', async () => {
  const w = await world(app)
  const r = await localReceiver()
  const gone = await localReceiver()
  await createWebhook(app, w.owner, w.venue.id, r.url, ['booking.cancelled'])
  const deleted = await createWebhook(app, w.owner, w.venue.id, gone.url, events)
  const res = await book(app, w.customer, fixedSlot(w.court.id, 5))
  assert.equal(res.statusCode, 201)
  // Deleted after the change committed: its pending delivery is dropped.
  const del = await app.inject({
    method: 'DELETE',
    url: `/api/venues/${w.venue.id}/webhooks/${deleted.id}`,
    headers: w.owner.headers,
  })
  assert.equal(del.statusCode, 200)
  await app.ctx.jobs.runDue()
  await new Promise((resolve) => setTimeout(resolve, 200))
  assert.equal(r.received.length, 0)
  assert.equal(gone.received.length, 0)
})
