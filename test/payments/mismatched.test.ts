import assert from 'node:assert/strict'
import type { Server } from 'node:http'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { fake, reset, startFakeGateways, stopFakeGateways } from './fake-gateways.ts'
import { HOUR, MINUTE, plus, recheckKit } from './recheck-helpers.ts'

// GET /api/admin/payments/mismatched: gateway payments failed here that the gateway's status API
// calls paid but that could not be completed (another amount), for the super admin only. The
// gateways are the local fakes of fake-gateways.ts (PAYMENT_DRIVER=live).

const clock = new ManualClock('2025-08-05T05:00:00Z')
let server: Server
let app: App
let kit: ReturnType<typeof recheckKit>
before(async () => {
  const started = await startFakeGateways()
  server = started.server
  app = await build(undefined, started.env, { clock })
  kit = recheckKit(app, clock, '2025-08-20')
})
after(async () => {
  await app.close()
  await stopFakeGateways(server)
})

const list = (headers: Record<string, string> | undefined, query = '') =>
  app.inject({ method: 'GET', url: `/api/admin/payments/mismatched${query}`, headers })

test('a failed payment the gateway later calls paid for another amount is listed for the super admin, also after the window', async () => {
  const admin = await createUser(app, { roles: ['super_admin'] })
  // Two payments fail at their link expiry: eSewa still pending, Fonepay unknown (no callback).
  const a = await kit.setup()
  const esewa = await kit.startGateway(a.user, a.booking.id, 'gateway_1')
  const b = await kit.setup()
  const fonepay = await kit.startGateway(b.user, b.booking.id, 'gateway_3')
  reset('PENDING')
  assert.equal((await kit.reconcileAtLinkExpiry(esewa.createdAt)).failed, 2)
  const failedAt = clock.now()
  assert.equal((await list(admin.headers)).json().meta.total, 0)

  // Fonepay now says paid, but 1000.00 where 1200.00 was asked; eSewa answers a word that is not "paid".
  reset('successful')
  fake.amount = 100000
  assert.deepEqual(await kit.recheckAt(plus(failedAt, 5 * MINUTE)), { checked: 2, completed: 0 })
  assert.equal((await kit.paymentRow(fonepay.id)).status, 'failed')
  assert.equal((await kit.paymentRow(esewa.id)).gateway_verdict, 'pending')

  const res = await list(admin.headers)
  assert.equal(res.statusCode, 200, res.body)
  const body = res.json()
  assert.equal(body.meta.total, 1)
  assert.equal(body.meta.current_page, 1)
  assert.match(body.links.first, /\/api\/admin\/payments\/mismatched\?page=1$/)
  const item = body.data[0]
  assert.equal(item.id, fonepay.id)
  assert.equal(item.method, 'gateway_3')
  assert.equal(item.status, 'failed')
  assert.equal(item.amount, '1200.00')
  assert.equal(item.gateway_amount, '1000.00')
  assert.equal(item.gateway_transaction_id, 'FP-1')
  assert.equal(item.booking_type, 'court')
  assert.equal(item.booking_id, b.booking.id)
  assert.equal(item.user.id, b.user.id)
  assert.equal(item.user.email, b.user.email)
  assert.equal(item.rechecking, true)
  assert.equal(item.checked_at, app.ctx.zone.format(plus(failedAt, 5 * MINUTE)))
  assert.equal(item.recheck_until, app.ctx.zone.format(plus(fonepay.createdAt, 72 * HOUR)))
  assert.match(item.reference, /^CS/)

  // The window ends while the gateway still says paid (for the other amount): still listed, no longer asked.
  const end = plus(fonepay.createdAt, 72 * HOUR)
  fake.calls.length = 0
  assert.equal((await kit.recheckAt(end)).checked, 0)
  assert.deepEqual(fake.calls, [])
  const later = (await list(admin.headers)).json()
  assert.equal(later.meta.total, 1)
  assert.equal(later.data[0].rechecking, false)
  // Paginated like the other admin lists.
  const page2 = (await list(admin.headers, '?page=2&per_page=1')).json()
  assert.deepEqual(page2.data, [])
  assert.equal(page2.meta.per_page, 1)
  assert.equal(page2.meta.total, 1)
})

test('a re-check that then finds the right amount completes the payment and it leaves the list', async () => {
  const admin = await createUser(app, { roles: ['super_admin'] })
  const s = await kit.setup()
  const p = await kit.startGateway(s.user, s.booking.id, 'gateway_3')
  reset('pending')
  await kit.reconcileAtLinkExpiry(p.createdAt)
  const failedAt = clock.now()
  reset('successful')
  fake.amount = 50000
  await kit.recheckAt(plus(failedAt, 5 * MINUTE))
  const ids = () => list(admin.headers).then((r) => r.json().data.map((d: { id: number }) => d.id))
  assert.ok((await ids()).includes(p.id))

  reset('successful') // the gateway corrects itself: the amount asked
  assert.deepEqual(await kit.recheckAt(plus(failedAt, 15 * MINUTE)), { checked: 1, completed: 1 })
  assert.equal((await kit.paymentRow(p.id)).status, 'completed')
  assert.ok(!(await ids()).includes(p.id))
})

test('only a super admin may read the list: 401 without a token, 403 for customers, owners and staff', async () => {
  assert.equal((await list(undefined)).statusCode, 401)
  for (const roles of [['customer'], ['venue_owner'], ['manager'], ['staff']] as const) {
    const user = await createUser(app, { roles: [...roles] })
    assert.equal((await list(user.headers)).statusCode, 403, roles[0])
  }
  const admin = await createUser(app, { roles: ['super_admin'] })
  assert.equal((await list(admin.headers)).statusCode, 200)
})
