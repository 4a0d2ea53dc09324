import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, createVenue, FIXED_NOW } from '../helpers/factories.ts'
import { createWebhook, deliveriesOf, type Receiver, receiver, verified } from './helpers.ts'

// Resending a delivery from the console: the same message once more, as one more attempt.

let app: App
const receivers: Receiver[] = []
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(async () => {
  for (const r of receivers) await r.close()
  await app.close()
})

test('a failed delivery is sent again with the same webhook-id; a pending one is 422', async () => {
  const w = await world(app)
  // The first attempt is refused (500), every later one accepted.
  const r = await receiver((n) => (n === 0 ? 500 : 204))
  receivers.push(r)
  const hook = await createWebhook(app, w.owner, w.venue.id, r.url, ['booking.created'])
  const created = await book(app, w.customer, fixedSlot(w.court.id, 3))
  assert.equal(created.statusCode, 201, created.body)
  await app.ctx.jobs.runDue()
  await r.waitFor(1)
  let [delivery] = await deliveriesOf(app, w.owner, w.venue.id, hook.id)
  assert.equal(delivery.status, 'pending')
  assert.equal(delivery.attempts, 1)

  const url = `/api/venues/${w.venue.id}/webhooks/${hook.id}/deliveries/${delivery.id}/resend`
  const pending = await app.inject({ method: 'POST', url, headers: w.owner.headers })
  assert.equal(pending.statusCode, 422)
  assert.equal(pending.json().message, 'This delivery is already waiting for its next attempt.')

  // Given up on (as after its last attempt): resend makes it pending and the queue sends it now.
  await app.ctx.db.updateTable('webhook_deliveries').set({ status: 'failed', next_attempt_at: null }).execute()
  // The job queue keeps the database's time (src/lib/jobs.ts), not the app clock's.
  await app.ctx.db.updateTable('jobs').set({ done_at: new Date() }).where('name', '=', 'webhooks.deliver').execute()
  const resent = await app.inject({ method: 'POST', url, headers: w.manager.headers })
  assert.equal(resent.statusCode, 202, resent.body)
  assert.equal(resent.json().message, 'The delivery will be sent again.')
  assert.equal(resent.json().data.status, 'pending')
  assert.equal(resent.json().data.id, delivery.id)
  await app.ctx.jobs.runDue()
  await r.waitFor(2)
  assert.equal(r.received[1].headers['webhook-id'], r.received[0].headers['webhook-id'])
  assert.equal(verified(hook.secret, r.received[1]).type, 'booking.created')
  ;[delivery] = await deliveriesOf(app, w.owner, w.venue.id, hook.id)
  assert.equal(delivery.status, 'succeeded')
  assert.equal(delivery.attempts, 2)
  assert.deepEqual(
    delivery.last_attempts.map((a) => a.status_code),
    [204, 500],
  )

  // A succeeded delivery can be sent once more too.
  const third = await app.inject({ method: 'POST', url, headers: w.owner.headers })
  assert.equal(third.statusCode, 202)
  await app.ctx.jobs.runDue()
  await r.waitFor(3)
  ;[delivery] = await deliveriesOf(app, w.owner, w.venue.id, hook.id)
  assert.equal(delivery.attempts, 3)
})

test('resend: staff, other owners and customers 403; unknown delivery 404; disabled endpoint 422', async () => {
  const w = await world(app)
  const r = await receiver()
  receivers.push(r)
  const hook = await createWebhook(app, w.owner, w.venue.id, r.url, ['booking.created'])
  assert.equal((await book(app, w.customer, fixedSlot(w.court.id, 4))).statusCode, 201)
  await app.ctx.jobs.runDue()
  await r.waitFor(1)
  const [delivery] = await deliveriesOf(app, w.owner, w.venue.id, hook.id)
  const url = `/api/venues/${w.venue.id}/webhooks/${hook.id}/deliveries/${delivery.id}/resend`
  const stranger = await createUser(app, { roles: ['venue_owner'] })
  await createVenue(app, stranger.id)
  for (const who of [w.staff, stranger, w.customer]) {
    assert.equal((await app.inject({ method: 'POST', url, headers: who.headers })).statusCode, 403)
  }
  assert.equal((await app.inject({ method: 'POST', url })).statusCode, 401)
  const missing = `/api/venues/${w.venue.id}/webhooks/${hook.id}/deliveries/999999/resend`
  assert.equal((await app.inject({ method: 'POST', url: missing, headers: w.owner.headers })).statusCode, 404)
  await app.ctx.db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: app.ctx.clock.now() })
    .where('id', '=', hook.id)
    .execute()
  const disabled = await app.inject({ method: 'POST', url, headers: w.owner.headers })
  assert.equal(disabled.statusCode, 422)
})
