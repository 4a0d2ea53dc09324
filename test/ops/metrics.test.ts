import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { parsePrometheus, sampleValue } from '../helpers/prometheus.ts'
import { simulate } from '../payments/helpers.ts'

// GET /metrics: Prometheus text that a strict parser accepts, with the series the issue lists.

async function scrape(app: App, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers })
  assert.equal(res.statusCode, 200, res.body)
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/)
  return parsePrometheus(res.body)
}

test('requests by route template and status, pool, jobs, bookings, conflicts and payments', async (t) => {
  const app = await build(t, {}, { clock: new ManualClock(FIXED_NOW) })
  const w = await world(app, { wallet: 500000 })
  const venue = await app.inject({ method: 'GET', url: `/api/venues/${w.venue.slug}` })
  assert.equal(venue.statusCode, 200, venue.body)
  assert.equal((await app.inject({ method: 'GET', url: '/api/venues/no-such-venue-123' })).statusCode, 404)
  await app.inject({ method: 'GET', url: '/no/such/path' })

  const created = await book(app, w.customer, fixedSlot(w.court.id, 2, '10:00', '11:00'))
  assert.equal(created.statusCode, 201, created.body)
  const clash = await book(app, w.manager, fixedSlot(w.court.id, 2, '10:00', '11:00'))
  assert.equal(clash.statusCode, 409)
  const paid = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_type: 'court', booking_id: created.json().data.id, method: 'wallet' },
  })
  assert.ok(paid.statusCode < 300, paid.body)
  const second = await book(
    app,
    w.customer,
    fixedSlot(w.court.id, 3, '10:00', '11:00', { payment_method: 'gateway_1' }),
  )
  const initiated = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_type: 'court', booking_id: second.json().data.id, method: 'gateway_1' },
  })
  assert.equal(initiated.statusCode, 201, initiated.body)
  const cb = await app.inject({ method: 'GET', url: await simulate(app, initiated.json().data.payment_url, 'success') })
  assert.equal(cb.statusCode, 200, cb.body)

  // Jobs: one that fails (no handler), one scheduled for later.
  await app.ctx.jobs.enqueue('ops.no-such-job', {}, { maxAttempts: 3 })
  // The job queue runs on the database's clock (src/lib/jobs.ts), not ctx.clock: "later" is an hour after the real now.
  await app.ctx.jobs.enqueue('push.notification', { notification_id: '0' }, { runAt: new Date(Date.now() + 3600_000) })
  await app.ctx.jobs.runDue()

  const m = await scrape(app)
  const h = 'http_request_duration_seconds'
  assert.equal(m.get(h)?.type, 'histogram')
  const route = '/api/venues/:venue'
  assert.equal(sampleValue(m, h, `${h}_count`, { method: 'GET', route, status: '200' }), 1)
  assert.equal(sampleValue(m, h, `${h}_count`, { method: 'GET', route, status: '404' }), 1)
  assert.equal(sampleValue(m, h, `${h}_count`, { route: 'unmatched', status: '404' }), 1)
  // Raw URLs never become labels.
  assert.ok(!m.get(h)!.samples.some((s) => /\d{3,}|no\/such/.test(s.labels.route ?? '')), 'no raw URLs as labels')

  for (const g of ['db_pool_in_use', 'db_pool_idle', 'db_pool_waiting']) {
    assert.equal(m.get(g)?.type, 'gauge', g)
    assert.ok((sampleValue(m, g, g) ?? -1) >= 0, g)
  }
  assert.ok((sampleValue(m, 'db_pool_idle', 'db_pool_idle') ?? 0) >= 1)
  assert.equal(sampleValue(m, 'jobs_pending', 'jobs_pending', { job: 'push.notification' }), 1)
  assert.equal(sampleValue(m, 'jobs_pending', 'jobs_pending', { job: 'ops.no-such-job' }), 1) // retries left
  assert.equal(sampleValue(m, 'jobs_failed_total', 'jobs_failed_total', { job: 'ops.no-such-job' }), 1)
  assert.equal(sampleValue(m, 'bookings_created_total', 'bookings_created_total', { kind: 'court' }), 2)
  assert.equal(sampleValue(m, 'booking_conflicts_total', 'booking_conflicts_total', { kind: 'court' }), 1)
  const pay = 'payments_settled_total'
  assert.equal(sampleValue(m, pay, pay, { gateway: 'wallet', outcome: 'completed' }), 1)
  assert.equal(sampleValue(m, pay, pay, { gateway: 'gateway_1', outcome: 'completed' }), 1)
  assert.equal(m.get('cache_hits_total')?.type, 'counter')
  assert.equal(m.get('cache_misses_total')?.type, 'counter')
  assert.equal(m.get('cache_entries')?.type, 'gauge')
  assert.equal(m.get('cache_bytes')?.type, 'gauge')
  assert.ok((sampleValue(m, 'cache_bytes', 'cache_bytes') ?? -1) >= 0)
})

test('cache hits and misses are counted', async (t) => {
  const app = await build(t, { CACHE_TTL_MS: '30000' }, { clock: new ManualClock(FIXED_NOW) })
  const w = await world(app)
  const url = `/api/courts/${w.court.id}/availability?date=${fixedSlot(w.court.id, 2).date}`
  // The set-up's own change notifications reach the listener asynchronously (on PostgreSQL, after
  // the first reads may have started), and a load they invalidate is served but not kept: ask until
  // the entry stays, within a bound.
  let hits = 0
  let misses = 0
  for (let i = 0; i < 20 && hits < 2; i++) {
    const res = await app.inject({ method: 'GET', url })
    assert.equal(res.statusCode, 200, res.body)
    const m = await scrape(app)
    misses = sampleValue(m, 'cache_misses_total', 'cache_misses_total') ?? 0
    hits = sampleValue(m, 'cache_hits_total', 'cache_hits_total') ?? 0
  }
  assert.ok(misses >= 1, `misses ${misses}`)
  assert.ok(hits >= 2, `hits ${hits}`)
})

test('METRICS_TOKEN protects /metrics', async (t) => {
  const app = await build(t, { METRICS_TOKEN: 's3cret-token' })
  for (const authorization of [undefined, 'Bearer wrong', 'Bearer s3cret-tokenX', 's3cret-token']) {
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} })
    assert.equal(res.statusCode, 401, String(authorization))
    assert.deepEqual(res.json(), { message: 'Unauthenticated.' })
  }
  await scrape(app, { authorization: 'Bearer s3cret-token' })
})

test('the parser is strict', () => {
  assert.throws(() => parsePrometheus('x 1\n'), /without # TYPE/)
  assert.throws(() => parsePrometheus('# TYPE x counter\nx{a="b} 1\n'), /unterminated|bad/)
  assert.throws(() => parsePrometheus('# TYPE x counter\nx one\n'), /bad value/)
  assert.throws(() => parsePrometheus('# TYPE x counter\nx 1\nx 2\n'), /duplicate/)
  assert.throws(
    () => parsePrometheus('# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n'),
    /cumulative/,
  )
  assert.equal(parsePrometheus('# TYPE x gauge\nx{a="q\\"\\n"} 1.5e3\n').get('x')?.samples[0].value, 1500)
})
