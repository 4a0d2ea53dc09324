import assert from 'node:assert/strict'
import type { Server } from 'node:http'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { fake, reset, startFakeGateways, stopFakeGateways } from './fake-gateways.ts'
import { HOUR, MINUTE, plus, recheckKit } from './recheck-helpers.ts'

// The re-check's schedule, counted at the gateways' network edge (PAYMENT_DRIVER=live against the
// local fakes of fake-gateways.ts): a failed payment is asked 5 min after it failed, then after 10,
// 20, 40 … minutes (at most 6 h apart), never before its time, and never once 72 h have passed
// since it was created, even when the gateway would now say it is paid.

const ESEWA_STATUS = 'GET /esewa-status/api/epay/transaction/status/'
const FONEPAY_VERIFY = 'GET /fonepay/api/merchantRequest/verificationMerchant'

const clock = new ManualClock('2025-06-02T03:30:00Z')
let server: Server
let env: Record<string, string>
let app: App
let kit: ReturnType<typeof recheckKit>
before(async () => {
  const started = await startFakeGateways()
  server = started.server
  env = started.env
  app = await build(undefined, env, { clock })
  kit = recheckKit(app, clock, '2025-09-01')
})
after(async () => {
  await app.close()
  await stopFakeGateways(server)
})

test('eSewa: back-off 5, 10, 20 … minutes, at most 6 h, for 72 h after creation; nothing is asked after that', async () => {
  reset('PENDING')
  const { user, booking } = await kit.setup()
  const p = await kit.startGateway(user, booking.id, 'gateway_1')
  assert.equal((await kit.reconcileAtLinkExpiry(p.createdAt)).failed, 1)
  const failedAt = clock.now()
  const windowEnd = plus(p.createdAt, 72 * HOUR)

  const gaps: number[] = []
  let last = failedAt
  for (;;) {
    const row = await kit.paymentRow(p.id)
    assert.equal(row.status, 'failed')
    const next = row.reconcile_at ? new Date(row.reconcile_at) : plus(last, 5 * MINUTE)
    if (next >= windowEnd) break
    fake.calls.length = 0
    assert.equal((await kit.recheckAt(plus(next, -1000))).checked, 0, 'not before its time')
    assert.deepEqual(fake.calls, [])
    assert.deepEqual(await kit.recheckAt(next), { checked: 1, completed: 0 })
    assert.deepEqual(fake.calls, [ESEWA_STATUS])
    gaps.push((next.getTime() - last.getTime()) / MINUTE)
    last = next
  }
  assert.deepEqual(gaps.slice(0, 8), [5, 10, 20, 40, 80, 160, 320, 360])
  assert.ok(
    gaps.slice(8).every((g) => g === 360),
    `at most 6 h apart: ${gaps.join(', ')}`,
  )
  // The last check fell within the window and the next would not: 17 checks in all.
  assert.equal(gaps.length, 17)
  assert.ok(windowEnd.getTime() - last.getTime() <= 6 * HOUR)
  const row = await kit.paymentRow(p.id)
  assert.equal(row.reconcile_attempts, gaps.length)
  assert.equal(row.gateway_verdict, 'pending')

  // The customer pays after the window: nobody asks any more.
  reset('COMPLETE')
  for (const at of [windowEnd, plus(windowEnd, 6 * HOUR), plus(windowEnd, 30 * 24 * HOUR)]) {
    assert.equal((await kit.recheckAt(at)).checked, 0)
  }
  assert.deepEqual(fake.calls, [])
  assert.equal((await kit.paymentRow(p.id)).status, 'failed')
})

test('Fonepay: paid on the old link after it failed; the re-check asks by PRN and confirms the booking', async () => {
  reset('pending')
  const { user, booking } = await kit.setup()
  const p = await kit.startGateway(user, booking.id, 'gateway_3')
  assert.equal((await kit.reconcileAtLinkExpiry(p.createdAt)).failed, 1)
  const failedAt = clock.now()
  // The booking still holds its slot (the hold sweep has not run): the payment confirms it.
  reset('successful')
  assert.deepEqual(await kit.recheckAt(plus(failedAt, 5 * MINUTE)), { checked: 1, completed: 1 })
  assert.deepEqual(fake.calls, [FONEPAY_VERIFY])
  const row = await kit.paymentRow(p.id)
  assert.equal(row.status, 'completed')
  const b = await app.ctx.db
    .selectFrom('bookings')
    .select(['status', 'paid_amount'])
    .where('id', '=', booking.id)
    .executeTakeFirstOrThrow()
  assert.equal(b.status, 'confirmed')
  assert.equal(b.paid_amount, 120000)
})

test('PAYMENT_RECHECK_HOURS sets the window; 0 turns re-checks off', async () => {
  for (const hours of ['2', '0']) {
    const own = new ManualClock(clock.now())
    const other = await build(undefined, { ...env, PAYMENT_RECHECK_HOURS: hours }, { clock: own })
    try {
      await windowOf(other, own, hours)
    } finally {
      await other.close()
    }
  }
})

/** One failed eSewa payment on `other`: which of its first four re-checks are made. */
async function windowOf(other: App, own: ManualClock, hours: string) {
  const otherKit = recheckKit(other, own, '2025-09-01')
  reset('PENDING')
  const { user, booking } = await otherKit.setup()
  const p = await otherKit.startGateway(user, booking.id, 'gateway_1')
  await otherKit.reconcileAtLinkExpiry(p.createdAt) // fails it 1 h after creation
  const failedAt = own.now()
  fake.calls.length = 0
  const asked = []
  for (const at of [5, 15, 35, 75].map((m) => plus(failedAt, m * MINUTE))) {
    asked.push((await otherKit.recheckAt(at)).checked)
  }
  // 2 h: the checks up to 2 h after creation (1 h 05, 1 h 15, 1 h 35), not the one at 2 h 15.
  assert.deepEqual(asked, hours === '2' ? [1, 1, 1, 0] : [0, 0, 0, 0], `PAYMENT_RECHECK_HOURS=${hours}`)
  assert.equal(fake.calls.length, hours === '2' ? 3 : 0)
}
