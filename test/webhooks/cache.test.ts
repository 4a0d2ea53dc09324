import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { createWebhook, type Receiver, receiver } from './helpers.ts'

// With the read cache on (production): a plain court booking asks the cache whether its venue has a
// subscribed endpoint. Creating, disabling or deleting an endpoint announces the venue's tag, so the
// next booking sees the change.

let app: App
let r: Receiver
before(async () => {
  // One customer books many unpaid slots here: the unpaid cap (docs/bookings.md) is not under test.
  app = await build(
    undefined,
    { CACHE_TTL_MS: '30000', MAX_UNPAID_BOOKINGS: '100' },
    { clock: new ManualClock(FIXED_NOW) },
  )
  r = await receiver()
})
after(async () => {
  await r.close()
  await app.close()
})

async function messagesAt(venueId: number) {
  const rows = await app.ctx.db.selectFrom('webhook_messages').select('type').where('venue_id', '=', venueId).execute()
  return rows.length
}

async function untilDropped(key: string) {
  const deadline = Date.now() + 5000
  while (app.ctx.cache.get(key) !== undefined && Date.now() < deadline) await sleep(20)
  assert.equal(app.ctx.cache.get(key), undefined, `${key} was dropped`)
}

test('a new endpoint hears the next plain booking; a deleted one stops', async () => {
  assert.ok(app.ctx.cache.live, 'the app listens on the cache channel')
  const w = await world(app)
  const key = `webhook-events:${w.venue.id}`
  assert.equal((await book(app, w.customer, fixedSlot(w.court.id, 3, '08:00', '09:00'))).statusCode, 201)
  assert.deepEqual(app.ctx.cache.get(key), [])
  assert.equal(await messagesAt(w.venue.id), 0)

  const hook = await createWebhook(app, w.owner, w.venue.id, r.url, ['booking.created'])
  await untilDropped(key)
  assert.equal((await book(app, w.customer, fixedSlot(w.court.id, 3, '09:00', '10:00'))).statusCode, 201)
  assert.deepEqual(app.ctx.cache.get(key), ['booking.created'])
  assert.equal(await messagesAt(w.venue.id), 1)
  assert.equal((await book(app, w.customer, fixedSlot(w.court.id, 3, '10:00', '11:00'))).statusCode, 201)
  assert.equal(await messagesAt(w.venue.id), 2)

  const del = await app.inject({
    method: 'DELETE',
    url: `/api/venues/${w.venue.id}/webhooks/${hook.id}`,
    headers: w.owner.headers,
  })
  assert.equal(del.statusCode, 200)
  await untilDropped(key)
  assert.equal((await book(app, w.customer, fixedSlot(w.court.id, 3, '11:00', '12:00'))).statusCode, 201)
  assert.equal(await messagesAt(w.venue.id), 2)
})
