import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { WEBHOOK_EVENTS } from '../../src/modules/webhooks/events.ts'
import { fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { createWebhook, type Receiver, receiver, verified } from './helpers.ts'

// Issue 51: an unpaid phone booking that never came is marked no-show at the desk after its start,
// and the venue's endpoints hear booking.no_show (indoor_booking.no_show for a game). Webhook
// payload instants carry their offset. FIXED_NOW is 09:00 in Kathmandu.

const clock = new ManualClock(FIXED_NOW)
let app: App
const receivers: Receiver[] = []
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(async () => {
  for (const r of receivers) await r.close()
  await app.close()
})

const OFFSET_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:45$/

async function setStatus(path: string, headers: Record<string, string>, status: unknown) {
  return app.inject({ method: 'PATCH', url: path, headers, payload: { status } })
}

test('a pending phone booking marked no-show after its start sends booking.no_show; before its start 422 and nothing', async () => {
  clock.set(FIXED_NOW)
  const w = await world(app)
  const r = await receiver()
  receivers.push(r)
  const hook = await createWebhook(app, w.owner, w.venue.id, r.url, [...WEBHOOK_EVENTS])
  const desk = await app.inject({
    method: 'POST',
    url: `/api/venues/${w.venue.id}/bookings`,
    headers: w.staff.headers,
    payload: { ...fixedSlot(w.court.id, 0, '10:00', '11:00'), customer_name: 'Phone Caller', type: 'offline' },
  })
  assert.equal(desk.statusCode, 201, desk.body)
  const booking = desk.json().data
  assert.equal(booking.status, 'pending')

  // 09:00: not started yet.
  const early = await setStatus(`/api/bookings/${booking.id}/status`, w.staff.headers, 'no_show')
  assert.equal(early.statusCode, 422, early.body)
  assert.deepEqual(Object.keys(early.json().errors), ['status'])
  // A wrong type is 422, never coerced.
  const wrong = await setStatus(`/api/bookings/${booking.id}/status`, w.staff.headers, 5)
  assert.equal(wrong.statusCode, 422, wrong.body)
  // A customer may not mark it.
  const refused = await setStatus(`/api/bookings/${booking.id}/status`, w.customer.headers, 'no_show')
  assert.equal(refused.statusCode, 403, refused.body)

  clock.set(new Date(Date.parse(FIXED_NOW) + 80 * 60_000)) // 10:20, the booking started at 10:00
  const marked = await setStatus(`/api/bookings/${booking.id}/status`, w.staff.headers, 'no_show')
  assert.equal(marked.statusCode, 200, marked.body)
  assert.equal(marked.json().data.status, 'no_show')
  // Final: no second no-show, no cancel.
  const again = await setStatus(`/api/bookings/${booking.id}/status`, w.staff.headers, 'no_show')
  assert.equal(again.statusCode, 422, again.body)

  await app.ctx.jobs.runDue()
  await r.waitFor(2)
  const received = r.received.map((x) => verified(hook.secret, x))
  assert.deepEqual(received.map((x) => x.type).sort(), ['booking.created', 'booking.no_show'])
  const event = received.find((x) => x.type === 'booking.no_show')!
  assert.equal(event.data.id, booking.id)
  assert.equal(event.data.status, 'no_show')
  assert.equal(event.data.kind, 'court')
  assert.equal(event.data.customer_name, 'Phone Caller')
  assert.equal(event.data.balance_due, '1500.00')
  assert.match(String(event.data.created_at), OFFSET_INSTANT)
  assert.match(String(event.data.updated_at), OFFSET_INSTANT)
  assert.equal(event.data.cancelled_at, null)
})

test('an indoor booking marked no-show sends indoor_booking.no_show; an endpoint without that event hears nothing', async () => {
  clock.set(FIXED_NOW)
  const w = await world(app)
  const game = await createIndoorGame(app, w.venue.id)
  const all = await receiver()
  const other = await receiver()
  receivers.push(all, other)
  const hook = await createWebhook(app, w.owner, w.venue.id, all.url, ['indoor_booking.no_show'])
  await createWebhook(app, w.owner, w.venue.id, other.url, ['booking.no_show', 'indoor_booking.created'])
  const desk = await app.inject({
    method: 'POST',
    url: `/api/venues/${w.venue.id}/indoor-game-bookings`,
    headers: w.staff.headers,
    payload: {
      indoor_game_id: game.id,
      date: daysFromFixedNow(0),
      start_time: '11:00',
      end_time: '12:00',
      customer_name: 'Gamer',
    },
  })
  assert.equal(desk.statusCode, 201, desk.body)
  const id = desk.json().data.id
  await app.ctx.jobs.runDue()
  await other.waitFor(1)

  clock.set(new Date(Date.parse(FIXED_NOW) + 2 * 3600_000 + 5 * 60_000)) // 11:05
  const marked = await setStatus(`/api/indoor-game-bookings/${id}/status`, w.manager.headers, 'no_show')
  assert.equal(marked.statusCode, 200, marked.body)
  await app.ctx.jobs.runDue()
  await all.waitFor(1)
  const [event] = all.received.map((x) => verified(hook.secret, x))
  assert.equal(event.type, 'indoor_booking.no_show')
  assert.equal(event.data.kind, 'indoor')
  assert.equal(event.data.indoor_game_id, game.id)
  assert.equal(event.data.status, 'no_show')
  assert.match(String(event.data.created_at), OFFSET_INSTANT)
  // The court-only endpoint heard only the indoor creation.
  assert.deepEqual(
    other.received.map((x) => JSON.parse(x.body).type),
    ['indoor_booking.created'],
  )
})

test('webhook endpoints and deliveries answer their instants with the offset', async () => {
  clock.set(FIXED_NOW)
  const w = await world(app)
  const r = await receiver()
  receivers.push(r)
  const hook = await createWebhook(app, w.owner, w.venue.id, r.url, ['booking.no_show'])
  const res = await app.inject({ method: 'GET', url: `/api/venues/${w.venue.id}/webhooks`, headers: w.owner.headers })
  assert.equal(res.statusCode, 200, res.body)
  const mine = res.json().data.find((e: { id: number }) => e.id === hook.id)
  assert.match(mine.created_at, OFFSET_INSTANT)
})
