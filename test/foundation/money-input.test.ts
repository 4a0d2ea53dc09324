import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { toPaisa } from '../../src/lib/money.ts'
import { isMoneyNumber } from '../../src/lib/schemas.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW, type TestUser } from '../helpers/factories.ts'

// Money with more than two decimals is a 422 on its field wherever money is input (issue 30): one
// definition, MoneyInput (src/lib/schemas.ts), read by every route. Before, a wallet top-up of
// 10.005 was silently rounded to 10.01 (and a charge or price of 1.005 to 1.01).

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const INVALID = 'The given data was invalid.'
const numberMessage = (field: string) => `The ${field.replace(/_/g, ' ')} field must have at most 2 decimal places.`
const textMessage = (field: string) =>
  `The ${field.replace(/_/g, ' ')} field must be an amount of at most 10000000.00 with at most 2 decimal places.`

function call(method: 'POST' | 'PUT', url: string, user: TestUser, payload: object) {
  return app.inject({ method, url, headers: user.headers, payload })
}

test('a wallet top-up of 10.005 is 422 on amount, never rounded to 10.01, and starts nothing', async () => {
  const user = await createUser(app)
  for (const [amount, message] of [
    [10.005, numberMessage('amount')],
    ['10.005', textMessage('amount')],
    [100.001, numberMessage('amount')],
    [10.0000001, numberMessage('amount')],
  ] as const) {
    const res = await call('POST', '/api/wallet/topup', user, { amount, method: 'gateway_1' })
    assert.equal(res.statusCode, 422, `${amount}: ${res.body}`)
    assert.deepEqual(res.json(), { message: INVALID, errors: { amount: [message] } })
  }
  const rows = await app.ctx.db.selectFrom('wallet_transactions').select('id').where('user_id', '=', user.id).execute()
  assert.deepEqual(rows, [])
  const payments = await app.ctx.db.selectFrom('payments').select('id').where('user_id', '=', user.id).execute()
  assert.deepEqual(payments, [])
  // Two decimals, a trailing zero and whole amounts are as before.
  for (const amount of [10.01, '10.01', 10.1, '10.10', 10, '10']) {
    const res = await call('POST', '/api/wallet/topup', user, { amount, method: 'gateway_1' })
    assert.equal(res.statusCode, 201, `${amount}: ${res.body}`)
    assert.equal(res.json().data.amount, typeof amount === 'number' ? amount.toFixed(2) : Number(amount).toFixed(2))
  }
})

test('every money input refuses more than two decimals with a 422 naming its field', async () => {
  const w = await world(app)
  const booking = (await book(app, w.customer, fixedSlot(w.court.id, 3))).json().data
  const paid = await call('POST', `/api/bookings/${booking.id}/payments`, w.staff, { amount: '500.00' })
  assert.equal(paid.statusCode, 201, paid.body)
  const payment = paid.json().data.payments[0].id
  const admin = await createUser(app, { roles: ['super_admin'] })

  // [who, method, url, field]: each route's body carries only the amount, so the answer names it.
  const cases: [TestUser, 'POST' | 'PUT', string, string][] = [
    [w.staff, 'POST', `/api/bookings/${booking.id}/charges`, 'amount'],
    [w.staff, 'POST', `/api/bookings/${booking.id}/payments`, 'amount'],
    [w.owner, 'POST', `/api/payments/${payment}/refund`, 'amount'],
    [w.owner, 'POST', `/api/venues/${w.venue.id}/coupons`, 'value'],
    [w.owner, 'POST', `/api/venues/${w.venue.id}/coupons`, 'max_discount'],
    [w.owner, 'POST', `/api/venues/${w.venue.id}/coupons`, 'min_amount'],
    [w.owner, 'POST', `/api/venues/${w.venue.id}/courts`, 'price_per_hour'],
    [w.owner, 'PUT', `/api/courts/${w.court.id}`, 'price_per_hour'],
    [w.owner, 'POST', `/api/courts/${w.court.id}/pricing`, 'price_per_hour'],
    [w.owner, 'POST', `/api/venues/${w.venue.id}/indoor-games`, 'price_per_hour'],
    [w.owner, 'POST', '/api/tournaments', 'registration_fee'],
    [admin, 'POST', '/api/tournaments', 'prize_pool'],
  ]
  for (const [who, method, url, field] of cases) {
    for (const [value, message] of [
      [1500.005, numberMessage(field)],
      ['1500.005', textMessage(field)],
      [0.001, numberMessage(field)],
    ] as const) {
      const res = await call(method, url, who, { [field]: value })
      assert.equal(res.statusCode, 422, `${method} ${url} ${field}=${value}: ${res.body}`)
      assert.equal(res.json().message, INVALID)
      assert.deepEqual(res.json().errors[field], [message], `${method} ${url} ${field}=${value}: ${res.body}`)
    }
  }
  // Nothing was charged, paid or refunded by any of them.
  const after = await call('POST', `/api/bookings/${booking.id}/payments`, w.staff, { amount: '0.01' })
  assert.equal(after.json().data.paid_amount, '500.01')
  assert.equal(after.json().data.extras_total, null)
})

test('the OpenAPI document says two decimals: a number multipleOf 0.01, or the text pattern', async () => {
  const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json()
  const body = doc.paths['/api/wallet/topup'].post.requestBody.content['application/json'].schema
  const amount = (body.$ref ? doc.components.schemas[body.$ref.split('/').pop()] : body).properties.amount
  const [number, text] = amount.anyOf
  assert.deepEqual(
    { type: number.type, multipleOf: number.multipleOf, format: number.format },
    { type: 'number', multipleOf: 0.01, format: undefined },
  )
  assert.equal(text.type, 'string')
  assert.ok(!new RegExp(text.pattern).test('10.005'))
  assert.ok(new RegExp(text.pattern).test('10.05'))
})

test('the money converter never rounds; the number check is exact', () => {
  assert.equal(toPaisa('250'), 25000)
  assert.equal(toPaisa(' 250.5 '), 25050)
  assert.equal(toPaisa(10.01), 1001)
  assert.equal(toPaisa(9999999.99), 999999999)
  assert.equal(toPaisa('-5.10'), -510)
  for (const bad of [10.005, '10.005', 0.1 + 0.2, 1e21, Number.NaN, '1e3', '', '1.2.3']) {
    assert.throws(() => toPaisa(bad), String(bad))
  }
  for (const good of [0, 0.01, 0.1, 10.01, 1234567.89, 9999999.99, 10_000_000])
    assert.ok(isMoneyNumber(good), String(good))
  for (const bad of [0.001, 10.005, 10.0000001, 9999999.999, Number.POSITIVE_INFINITY, Number.NaN]) {
    assert.ok(!isMoneyNumber(bad), String(bad))
  }
})
