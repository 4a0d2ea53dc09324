import assert from 'node:assert/strict'
import { test } from 'node:test'
import { daysFromNow } from '../helpers/factories.ts'
import { processDatabase, seedBookableVenue, startServer } from '../ops/process.ts'
import { receiver, verified } from './helpers.ts'

// The outbox survives the process: the real server commits a booking (and with it the webhook
// message), is killed with SIGKILL before any delivery, and a new server on the same database
// delivers the event with the message's webhook-id. On PGlite (a data directory) and on PostgreSQL.

test('kill -9 between the commit and the delivery: the restarted server delivers the event, same webhook-id', async (t) => {
  const db = await processDatabase()
  t.after(() => db.drop())
  const r = await receiver()
  t.after(() => r.close())
  await seedBookableVenue(db, 'kill')

  // First life: no job loop, so nothing can be delivered before the kill.
  const first = await startServer({ ...db.env, JOBS_ENABLED: 'false' })
  const api = (port: number) => async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    // biome-ignore lint/suspicious/noExplicitAny: JSON answers of several routes, read field by field below
    return { status: res.status, body: (await res.json()) as Record<string, any> }
  }
  let call = api(first.port)
  const login = async (email: string) =>
    (await call('POST', '/auth/login', undefined, { email, password: 'password123' })).body.token as string
  const owner = await login('owner@kill.test')
  const customer = await login('customer@kill.test')
  const hook = await call('POST', '/venues/kill-arena/webhooks', owner, { url: r.url, events: ['booking.created'] })
  assert.equal(hook.status, 201, JSON.stringify(hook.body))
  const courts = await call('GET', '/venues/kill-arena/courts')
  const courtId = (courts.body.data as Array<{ id: number }>)[0].id
  const booked = await call('POST', '/bookings', customer, {
    court_id: courtId,
    // Left on the system clock: a spawned src/server.ts always runs on systemClock, so only a real future date is bookable.
    date: daysFromNow(3),
    start_time: '18:00',
    end_time: '19:00',
  })
  assert.equal(booked.status, 201, JSON.stringify(booked.body))
  // Committed: the 201 is sent after the transaction. Now the process dies without a chance to clean up.
  first.child.kill('SIGKILL')
  const death = await first.exited
  assert.equal(death.code, null)
  assert.equal(r.received.length, 0)

  const [message] = await db.query<{ id: string; type: string }>('SELECT id, type FROM webhook_messages')
  assert.equal(message.type, 'booking.created')

  // Second life on the same database, with the job loop: the event arrives, signed, with the same id.
  const second = await startServer({ ...db.env, JOBS_ENABLED: 'true', JOBS_POLL_MS: '50' })
  t.after(async () => {
    second.child.kill('SIGKILL')
    await second.exited
  })
  await r.waitFor(1, 20_000)
  assert.equal(r.received[0].headers['webhook-id'], message.id)
  const event = verified(hook.body.data.secret, r.received[0])
  assert.equal(event.type, 'booking.created')
  assert.equal(event.data.id, booked.body.data.id)
  assert.equal(event.data.booking_number, booked.body.data.booking_number)
  call = api(second.port)
  // The receiver has the request; the job records the attempt once it has read the answer.
  type Delivery = { message_id: string; status: string; attempts: number }
  let delivery: Delivery | undefined
  for (let i = 0; i < 100; i++) {
    const deliveries = await call('GET', `/venues/kill-arena/webhooks/${hook.body.data.id}/deliveries`, owner)
    assert.equal(deliveries.status, 200)
    delivery = (deliveries.body.data as Delivery[])[0]
    if (delivery?.status !== 'pending') break
    await new Promise((r) => setTimeout(r, 100))
  }
  assert.ok(delivery)
  assert.equal(delivery.message_id, message.id)
  assert.equal(delivery.status, 'succeeded')
  assert.equal(delivery.attempts, 1)
})
