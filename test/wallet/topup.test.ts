import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { ledger, simulate } from '../payments/helpers.ts'

let app: App
before(async () => {
  // A top-up returns to the mobile app's deep link (RETURN_URL_ALLOWLIST).
  app = await build(undefined, { RETURN_URL_ALLOWLIST: 'courtside://' })
})
after(() => app.close())

for (const method of ['gateway_1', 'gateway_2', 'gateway_3'] as const) {
  test(`a ${method} top-up credits the wallet only when the gateway confirms`, async () => {
    const user = await createUser(app)
    const res = await app.inject({
      method: 'POST',
      url: '/api/wallet/topup',
      headers: user.headers,
      payload: { amount: '500.00', method },
    })
    assert.equal(res.statusCode, 201, res.body)
    const body = res.json()
    assert.equal(body.status, 'pending')
    assert.equal(body.data.type, 'topup')
    assert.equal(body.data.status, 'pending')
    assert.equal(body.data.amount, '500.00')
    assert.equal(body.data.balance_after, null)
    assert.match(body.payment_url, /^http:\/\/localhost:8000\/api\/payments\/(sandbox\/|gateway_1\/checkout\?)/)
    assert.equal((await ledger(app, user.id)).balance, 0)

    // The sandbox page has Pay and Cancel (eSewa's once our checkout page has POSTed the form).
    const paymentUrl = new URL(body.payment_url)
    let page = await app.inject({ method: 'GET', url: paymentUrl.pathname + paymentUrl.search })
    if (method === 'gateway_1') {
      const action = /<form method="POST" action="http:\/\/localhost:8000([^"]+)"/.exec(page.body)
      assert.ok(action, page.body)
      page = await app.inject({
        method: 'POST',
        url: action[1],
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: paymentUrl.searchParams.toString(),
      })
    }
    assert.equal(page.statusCode, 200)
    assert.match(page.body, /Pay/)
    assert.match(page.body, /Cancel/)

    const callback = await simulate(app, body.payment_url, 'success')
    assert.ok(callback.startsWith(`/api/payments/${method}/callback?`), callback)
    const cb = await app.inject({ method: 'GET', url: callback })
    assert.equal(cb.statusCode, 200, cb.body)
    assert.equal(cb.json().data.status, 'completed')
    assert.equal(cb.json().data.payment.status, 'completed')
    assert.equal(cb.json().data.payment.amount, '500.00')

    // A replay changes nothing.
    const again = await app.inject({ method: 'GET', url: callback })
    assert.equal(again.statusCode, 200)
    const wallet = await app.inject({ method: 'GET', url: '/api/wallet', headers: user.headers })
    assert.equal(wallet.json().balance, '500.00')
    const tx = wallet.json().transactions.data[0]
    assert.equal(tx.id, body.data.id)
    assert.equal(tx.status, 'completed')
    assert.equal(tx.balance_after, '500.00')
    const l = await ledger(app, user.id)
    assert.equal(l.balance, 50000)
    assert.equal(l.sum, 50000)
  })
}

test('a cancelled top-up fails and the balance stays', async () => {
  const user = await createUser(app)
  const res = await app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    headers: user.headers,
    payload: { amount: 100, method: 'gateway_2', return_url: 'courtside://wallet' },
  })
  const callback = await simulate(app, res.json().payment_url, 'failure')
  const cb = await app.inject({ method: 'GET', url: callback })
  assert.equal(cb.statusCode, 302)
  const loc = new URL(cb.headers.location as string)
  assert.equal(loc.protocol, 'courtside:')
  assert.equal(loc.searchParams.get('status'), 'failed')
  assert.ok(Number(loc.searchParams.get('payment_id')) > 0)
  const wallet = (await app.inject({ method: 'GET', url: '/api/wallet', headers: user.headers })).json()
  assert.equal(wallet.balance, '0.00')
  assert.equal(wallet.transactions.data[0].status, 'failed')
})

test('top-up validation: amount 10.00 to 100000.00, a known gateway, a token', async () => {
  const user = await createUser(app)
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ method: 'gateway_1' }, 'amount', 'The amount field is required.'],
    [{ amount: '9.99', method: 'gateway_1' }, 'amount', 'The amount field must be between 10 and 100000.'],
    [{ amount: 100000.01, method: 'gateway_1' }, 'amount', 'The amount field must be between 10 and 100000.'],
    [{ amount: 50, method: 'wallet' }, 'method', 'The selected method is invalid.'],
    [{ amount: 50 }, 'method', 'The method field is required.'],
  ]
  for (const [payload, field, message] of cases) {
    const res = await app.inject({ method: 'POST', url: '/api/wallet/topup', headers: user.headers, payload })
    assert.equal(res.statusCode, 422, JSON.stringify(payload))
    assert.equal(res.json().message, 'The given data was invalid.')
    assert.deepEqual(res.json().errors[field], [message], JSON.stringify(res.json()))
  }
  const guest = await app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    payload: { amount: 50, method: 'gateway_1' },
  })
  assert.equal(guest.statusCode, 401)
  assert.equal((await app.inject({ method: 'GET', url: '/api/wallet' })).statusCode, 401)
})

test('GET /wallet paginates the ledger Laravel-style inside transactions', async () => {
  const user = await createUser(app, { wallet: 10000 })
  const res = await app.inject({ method: 'GET', url: '/api/wallet?per_page=1', headers: user.headers })
  assert.equal(res.statusCode, 200)
  const body = res.json()
  assert.equal(body.balance, '100.00')
  assert.equal(body.transactions.data.length, 1)
  assert.deepEqual(Object.keys(body.transactions.data[0]).sort(), [
    'amount',
    'balance_after',
    'completed_at',
    'created_at',
    'description',
    'id',
    'reference_id',
    'reference_type',
    'status',
    'type',
  ])
  assert.equal(body.transactions.meta.total, 1)
  assert.equal(body.transactions.links.next, null)
})

test('payment, wallet and coupon routes are in /docs/json; the sandbox is not', async () => {
  const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json()
  const paths = Object.keys(doc.paths)
  for (const p of [
    '/api/payments/initiate',
    '/api/payments/{gateway}/callback',
    '/api/payments/{payment}/refund',
    '/api/wallet',
    '/api/wallet/topup',
    '/api/venues/{venue}/coupons',
    '/api/coupons/{coupon}',
    '/api/coupons/validate',
    '/api/admin/coupons',
  ]) {
    assert.ok(paths.includes(p), p)
  }
  assert.ok(doc.paths['/api/payments/{gateway}/callback'].get)
  assert.ok(doc.paths['/api/payments/{gateway}/callback'].post)
  assert.ok(!paths.some((p) => p.includes('sandbox') || p.includes('checkout')))
})
