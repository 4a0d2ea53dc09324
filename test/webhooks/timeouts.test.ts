import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { createWebhook, deliveriesOf, type Receiver, receiver } from './helpers.ts'

// A receiver that never answers: the attempt ends at WEBHOOK_TIMEOUT_MS and is retried, and
// booking requests made meanwhile are not held by it (the request is made by the job queue, after
// the booking's transaction).

let app: App
let r: Receiver
before(async () => {
  // One customer books many unpaid slots here: the unpaid cap (docs/bookings.md) is not under test.
  app = await build(
    undefined,
    { WEBHOOK_TIMEOUT_MS: '3000', JOBS_POLL_MS: '20', MAX_UNPAID_BOOKINGS: '100' },
    { clock: new ManualClock(FIXED_NOW) },
  )
  r = await receiver(() => 'hang')
})
after(async () => {
  await app.ctx.jobs.stop()
  await r.close()
  await app.close()
})

test('a receiver that never answers fails the attempt after WEBHOOK_TIMEOUT_MS; bookings meanwhile answer at once', async () => {
  const w = await world(app)
  const hook = await createWebhook(app, w.owner, w.venue.id, r.url, ['booking.created'])
  app.ctx.jobs.start()
  const first = await book(app, w.customer, fixedSlot(w.court.id, 3, '08:00', '09:00'))
  assert.equal(first.statusCode, 201)
  await r.waitFor(1)
  // While the delivery hangs, more bookings are made: each answers well within the receiver's timeout.
  const started = Date.now()
  for (const hour of [10, 11, 12]) {
    const t0 = Date.now()
    const res = await book(app, w.customer, fixedSlot(w.court.id, 3, `${hour}:00`, `${hour + 1}:00`))
    assert.equal(res.statusCode, 201, res.body)
    assert.ok(Date.now() - t0 < 2000, `booking took ${Date.now() - t0} ms`)
  }
  assert.ok(Date.now() - started < 3000, 'the bookings did not wait for the hanging delivery')
  // The hanging attempt ends at the timeout.
  const deadline = Date.now() + 10_000
  let attempt: { status_code: number | null; error: string | null; duration_ms: number } | undefined
  while (!attempt && Date.now() < deadline) {
    const all = await deliveriesOf(app, w.owner, w.venue.id, hook.id)
    attempt = all.find((d) => d.id === Math.min(...all.map((x) => x.id)))?.last_attempts[0]
    if (!attempt) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  assert.ok(attempt, 'the attempt was recorded')
  assert.equal(attempt.status_code, null)
  assert.equal(attempt.error, 'no answer within 3000 ms')
  assert.ok(attempt.duration_ms >= 2900 && attempt.duration_ms < 8000, `${attempt.duration_ms} ms`)
})
