import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { deliveriesOf, type Receiver, receiver } from './helpers.ts'

// WEBHOOK_ALLOW_PRIVATE=false (the production default): no delivery reaches a loopback, private or
// link-local address, whatever the URL looked like when it was registered.

let app: App
let r: Receiver
before(async () => {
  app = await build(undefined, { WEBHOOK_ALLOW_PRIVATE: 'false' }, { clock: new ManualClock(FIXED_NOW) })
  r = await receiver()
})
after(async () => {
  await r.close()
  await app.close()
})

test('registering a loopback, private or link-local URL is 422', async () => {
  const w = await world(app)
  for (const url of [
    r.url,
    'http://localhost:8080/hooks',
    'http://10.0.0.5/hooks',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]:9000/',
    'http://[fd00::1]/',
    'http://[::ffff:192.168.0.1]/',
  ]) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/venues/${w.venue.id}/webhooks`,
      headers: w.owner.headers,
      payload: { url, events: ['booking.created'] },
    })
    assert.equal(res.statusCode, 422, `${url}: ${res.body}`)
    assert.deepEqual(res.json().errors, { url: ['The url must point to a public address.'] })
  }
})

test('a host that resolves to a private address at send time is refused, and nothing is sent', async () => {
  const w = await world(app)
  const port = new URL(r.url).port
  // As if these passed registration (a name whose DNS answer changed since): stored directly.
  const ids: number[] = []
  for (const url of [
    `http://localhost:${port}/hooks`,
    `http://127.0.0.1:${port}/hooks`,
    `http://[::ffff:127.0.0.1]:${port}/`,
  ]) {
    const row = await app.ctx.db
      .insertInto('webhook_endpoints')
      .values({ venue_id: w.venue.id, url, events: ['booking.created'], secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0' })
      .returning('id')
      .executeTakeFirstOrThrow()
    ids.push(row.id)
  }
  const res = await book(app, w.customer, fixedSlot(w.court.id, 3))
  assert.equal(res.statusCode, 201, res.body)
  await app.ctx.jobs.runDue()
  await new Promise((resolve) => setTimeout(resolve, 200))
  assert.equal(r.received.length, 0)
  for (const id of ids) {
    const [delivery] = await deliveriesOf(app, w.owner, w.venue.id, id)
    assert.equal(delivery.status, 'pending')
    assert.equal(delivery.last_attempts.length, 1)
    assert.equal(delivery.last_attempts[0].status_code, null)
    assert.match(
      String(delivery.last_attempts[0].error),
      /^(localhost resolves to (127\.0\.0\.1|::1), which is|127\.0\.0\.1 is|::ffff:7f00:1 is) not a public address$/,
    )
  }
  const metrics = await app.inject({ method: 'GET', url: '/metrics' })
  assert.match(metrics.body, /webhook_delivery_attempts_total\{outcome="failed"\} 3/)
})
