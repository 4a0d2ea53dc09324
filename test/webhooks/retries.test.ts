import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { RETRY_DELAYS_MS } from '../../src/modules/webhooks/deliver.ts'
import { book, fixedSlot, notificationsOf, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { createWebhook, deliveriesOf, makeWebhookJobsDue, type Receiver, receiver, verified } from './helpers.ts'

// Retries with back-off, the same webhook-id on every attempt, and disabling after 24 hours of
// failures. The rules read ctx.clock (a ManualClock here); the queue's own run times are moved
// forward on the job rows instead of waiting.

let app: App
// A fixed start, and booking dates counted from its day (fixedSlot): never the real date.
const clock = new ManualClock(FIXED_NOW)
const receivers: Receiver[] = []
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(async () => {
  for (const r of receivers) await r.close()
  await app.close()
})

async function pendingJobRunAt() {
  const rows = await app.ctx.db
    .selectFrom('jobs')
    .select('run_at')
    .where('name', '=', 'webhooks.deliver')
    .where('done_at', 'is', null)
    .execute()
  return rows.map((r) => new Date(r.run_at).getTime())
}

test('a failed attempt is retried after 5 s, then 5 min, with the same webhook-id and body, until a 2xx', async () => {
  const statuses = [500, 503, 200]
  const r = await receiver((n) => statuses[n] ?? 200)
  receivers.push(r)
  const w = await world(app)
  const hook = await createWebhook(app, w.owner, w.venue.id, r.url, ['booking.created'])
  const res = await book(app, w.customer, fixedSlot(w.court.id, 3))
  assert.equal(res.statusCode, 201, res.body)

  await app.ctx.jobs.runDue()
  await r.waitFor(1)
  let [delivery] = await deliveriesOf(app, w.owner, w.venue.id, hook.id)
  assert.equal(delivery.status, 'pending')
  assert.equal(delivery.attempts, 1)
  assert.deepEqual(
    delivery.last_attempts.map((a) => [a.attempt, a.status_code, a.error]),
    [[1, 500, 'HTTP 500']],
  )
  assert.equal(delivery.next_attempt_at, app.ctx.zone.formatWithOffset(new Date(clock.now().getTime() + 5_000)))
  // The next attempt is a job due in 5 s (the queue's clock); running the queue now sends nothing.
  const [runAt] = await pendingJobRunAt()
  assert.ok(runAt - Date.now() > 3_000 && runAt - Date.now() <= 5_500, `due in ${runAt - Date.now()} ms`)
  await app.ctx.jobs.runDue()
  assert.equal(r.received.length, 1)
  const failing = (
    await app.inject({ method: 'GET', url: `/api/venues/${w.venue.id}/webhooks`, headers: w.owner.headers })
  ).json().data[0]
  assert.equal(failing.failing_since, app.ctx.zone.formatWithOffset(clock.now()))

  clock.advance(5_000)
  await makeWebhookJobsDue(app)
  await app.ctx.jobs.runDue()
  await r.waitFor(2)
  const [second] = await pendingJobRunAt()
  assert.ok(second - Date.now() > 290_000 && second - Date.now() <= 300_500, `due in ${second - Date.now()} ms`)

  clock.advance(300_000)
  await makeWebhookJobsDue(app)
  await app.ctx.jobs.runDue()
  await r.waitFor(3)
  assert.deepEqual(await pendingJobRunAt(), [])

  // Three requests, one message: the same id and body, each signed validly for its own timestamp.
  const ids = r.received.map((x) => x.headers['webhook-id'])
  assert.equal(new Set(ids).size, 1)
  assert.equal(new Set(r.received.map((x) => x.body)).size, 1)
  for (const x of r.received) assert.equal(verified(hook.secret, x).type, 'booking.created')
  ;[delivery] = await deliveriesOf(app, w.owner, w.venue.id, hook.id)
  assert.equal(delivery.status, 'succeeded')
  assert.equal(delivery.message_id, ids[0])
  assert.equal(delivery.attempts, 3)
  assert.deepEqual(
    delivery.last_attempts.map((a) => [a.attempt, a.status_code]),
    [
      [3, 200],
      [2, 503],
      [1, 500],
    ],
  )
  // A success ends the endpoint's failing run.
  const healthy = (
    await app.inject({ method: 'GET', url: `/api/venues/${w.venue.id}/webhooks`, headers: w.owner.headers })
  ).json().data[0]
  assert.equal(healthy.failing_since, null)
  assert.equal(healthy.status, 'active')
})

test('an endpoint failing for 24 hours is disabled and the venue owner is notified', async () => {
  const r = await receiver(() => 500)
  receivers.push(r)
  const w = await world(app)
  // booking.created only: the 24 hours below end the booking's hold, and runDue enqueues the hold
  // sweep once per 30 s of real time (its bucket), so crossing a bucket mid-test would cancel the
  // booking and send a booking.cancelled message too (10 attempts instead of 8, seen once).
  const hook = await createWebhook(app, w.owner, w.venue.id, r.url, ['booking.created'])
  const res = await book(app, w.customer, fixedSlot(w.court.id, 4))
  assert.equal(res.statusCode, 201, res.body)
  const start = clock.now().getTime()

  const list = async () =>
    (await app.inject({ method: 'GET', url: `/api/venues/${w.venue.id}/webhooks`, headers: w.owner.headers })).json()
      .data[0]
  for (let attempt = 1; attempt <= RETRY_DELAYS_MS.length + 1; attempt++) {
    await app.ctx.jobs.runDue()
    await r.waitFor(attempt)
    if (attempt <= RETRY_DELAYS_MS.length) {
      // Still failing for less than 24 hours: active.
      assert.equal((await list()).status, 'active', `after attempt ${attempt}`)
      clock.advance(RETRY_DELAYS_MS[attempt - 1])
      await makeWebhookJobsDue(app)
    }
  }
  assert.equal(clock.now().getTime() - start, 24 * 3_600_000)
  assert.equal(r.received.length, 8)
  assert.equal(new Set(r.received.map((x) => x.headers['webhook-id'])).size, 1)

  const disabled = await list()
  assert.equal(disabled.status, 'disabled')
  assert.equal(disabled.disabled_at, app.ctx.zone.formatWithOffset(clock.now()))
  assert.equal(disabled.failing_since, app.ctx.zone.formatWithOffset(new Date(start)))
  const [delivery] = await deliveriesOf(app, w.owner, w.venue.id, hook.id)
  assert.equal(delivery.status, 'failed')
  assert.equal(delivery.attempts, 8)
  assert.equal(delivery.next_attempt_at, null)
  assert.equal(delivery.last_attempts.length, 8)
  assert.deepEqual(
    await app.ctx.db
      .selectFrom('jobs')
      .select('id')
      .where('name', '=', 'webhooks.deliver')
      .where('done_at', 'is', null)
      .execute(),
    [],
  )

  const notes = (await notificationsOf(app, w.owner.id)).filter((n) => n.type === 'WebhookEndpointDisabled')
  assert.equal(notes.length, 1)
  assert.equal(notes[0].data.webhook_id, hook.id)
  assert.equal(notes[0].data.venue_id, w.venue.id)
  assert.equal(notes[0].data.url, r.url)
  assert.match(String(notes[0].data.message), /disabled: its deliveries failed for 24 hours/)

  // A disabled endpoint gets no new messages.
  const again = await book(app, w.customer, fixedSlot(w.court.id, 5))
  assert.equal(again.statusCode, 201)
  await app.ctx.jobs.runDue()
  assert.equal(r.received.length, 8)
  assert.equal((await deliveriesOf(app, w.owner, w.venue.id, hook.id)).length, 1)
})
