import assert from 'node:assert/strict'
import type { Server } from 'node:http'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { esewaSignature } from '../../src/modules/payments/gateways/esewa.ts'
import { fonepayDv } from '../../src/modules/payments/gateways/fonepay.ts'
import { gatewayHttp } from '../../src/modules/payments/gateways/http.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import {
  ESEWA_SECRET,
  esewaCallback,
  esewaData,
  FONEPAY_SECRET,
  fake,
  fonepayCallback,
  khaltiCallback,
  reset,
  startFakeGateways,
  stopFakeGateways,
  topup,
} from './fake-gateways.ts'
import { ledger } from './helpers.ts'

// PAYMENT_DRIVER=live against local fakes of each gateway's HTTP API (fake-gateways.ts).

let server: Server
let base: string
let app: App

before(async () => {
  const started = await startFakeGateways()
  server = started.server
  base = started.base
  app = await build(undefined, started.env)
})
after(async () => {
  await app.close()
  await stopFakeGateways(server)
})

const get = (url: string) => app.inject({ method: 'GET', url })
const paymentStatus = async (id: number) =>
  (await app.ctx.db.selectFrom('payments').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status

test('eSewa: payment_url posts the signed form to the form URL; the status API URL is separate; a confirmed callback credits once, even twice at once', async () => {
  reset('COMPLETE')
  const user = await createUser(app)
  const { body, payment } = await topup(app, user, 'gateway_1')
  const url = new URL(body.payment_url)
  assert.equal(url.pathname, '/api/payments/gateway_1/checkout')
  assert.equal(url.searchParams.get('transaction_uuid'), payment.reference)
  assert.equal(url.searchParams.get('total_amount'), '500.00')
  assert.equal(url.searchParams.get('signed_field_names'), 'total_amount,transaction_uuid,product_code')
  const fields = Object.fromEntries(url.searchParams)
  assert.equal(fields.signature, esewaSignature(ESEWA_SECRET, fields, 'total_amount,transaction_uuid,product_code'))
  const checkout = await get(url.pathname + url.search)
  assert.match(checkout.body, new RegExp(`<form method="POST" action="${base}/esewa-form/api/epay/main/v2/form"`))

  // eSewa writes the amount as a number with one decimal; the signature covers "500.0".
  const data = esewaData(
    { total_amount: '500.0', transaction_uuid: payment.reference! },
    { json: (d) => JSON.stringify(d).replace('"total_amount":"500.0"', '"total_amount":500.0') },
  )
  const [a, b] = await Promise.all([get(esewaCallback(data)), get(esewaCallback(data))])
  assert.equal(a.statusCode, 200, a.body)
  assert.equal(b.statusCode, 200, b.body)
  assert.equal(a.json().data.status, 'completed')
  assert.ok(fake.calls.includes('GET /esewa-status/api/epay/transaction/status/'))
  const l = await ledger(app, user.id)
  assert.equal(l.balance, 50000)
  assert.equal(l.sum, 50000)
  assert.equal(l.rows.filter((r) => r.status === 'completed').length, 1)
})

test('eSewa: amounts written "1,200.0" are signed as written and compared as numbers', async () => {
  reset('COMPLETE')
  const user = await createUser(app)
  const { payment } = await topup(app, user, 'gateway_1', '1200.00')
  const res = await get(esewaCallback(esewaData({ total_amount: '1,200.0', transaction_uuid: payment.reference! })))
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.status, 'completed')
  assert.equal((await ledger(app, user.id)).balance, 120000)
})

test('eSewa: the unsigned failure redirect fails nothing by itself; only the status API decides', async () => {
  const user = await createUser(app)
  const failureUrl = (ref: string) => `/api/payments/gateway_1/callback?status=failure&transaction_uuid=${ref}`
  for (const [word, expected, paymentAfter] of [
    ['NOT_FOUND', 'pending', 'initiated'],
    ['PENDING', 'pending', 'initiated'],
    ['AMBIGUOUS', 'pending', 'initiated'],
    ['CANCELED', 'failed', 'failed'],
    ['COMPLETE', 'completed', 'completed'],
  ] as const) {
    reset(word)
    const { payment } = await topup(app, user, 'gateway_1', '100.00')
    const res = await get(failureUrl(payment.reference!))
    assert.equal(res.statusCode, 200, `${word}: ${res.body}`)
    assert.equal(res.json().data.status, expected, word)
    assert.equal(await paymentStatus(payment.id), paymentAfter, word)
  }
  // Someone opening the failure URL of another's payment does not stop its real success.
  reset('NOT_FOUND')
  const { payment } = await topup(app, user, 'gateway_1', '100.00')
  assert.equal((await get(failureUrl(payment.reference!))).json().data.status, 'pending')
  reset('COMPLETE')
  const paid = await get(esewaCallback(esewaData({ total_amount: '100.0', transaction_uuid: payment.reference! })))
  assert.equal(paid.json().data.status, 'completed')
  assert.equal(await paymentStatus(payment.id), 'completed')
})

test('eSewa: while the gateway says PENDING nothing changes; a later confirmation settles it', async () => {
  reset('PENDING')
  const user = await createUser(app)
  const { payment } = await topup(app, user, 'gateway_1')
  const cb = esewaCallback(
    esewaData({ status: 'PENDING', total_amount: '500.0', transaction_uuid: payment.reference! }),
  )
  const pending = await get(cb)
  assert.equal(pending.statusCode, 200)
  assert.equal(pending.json().data.status, 'pending')
  assert.equal(pending.json().data.payment.status, 'initiated')
  assert.equal((await ledger(app, user.id)).balance, 0)
  reset('COMPLETE')
  const done = esewaCallback(esewaData({ total_amount: '500.0', transaction_uuid: payment.reference! }))
  assert.equal((await get(done)).json().data.status, 'completed')
  assert.equal((await ledger(app, user.id)).balance, 50000)
})

test('a gateway that does not answer in time, or answers "Service is currently unavailable": 502, nothing changes, a retry settles', async () => {
  reset('COMPLETE')
  const user = await createUser(app)
  const { payment } = await topup(app, user, 'gateway_1')
  const cb = esewaCallback(esewaData({ total_amount: '500.0', transaction_uuid: payment.reference! }))
  fake.esewaDown = true
  const down = await get(cb)
  assert.equal(down.statusCode, 502)
  assert.deepEqual(down.json(), { message: 'The payment gateway is not available. Please try again.' })
  fake.esewaDown = false
  const saved = gatewayHttp.timeoutMs
  gatewayHttp.timeoutMs = 200
  fake.delayMs = 1500
  try {
    assert.equal((await get(cb)).statusCode, 502)
    assert.equal((await ledger(app, user.id)).balance, 0)
    fake.delayMs = 0
    assert.equal((await get(cb)).statusCode, 200)
    assert.equal((await ledger(app, user.id)).balance, 50000)
  } finally {
    gatewayHttp.timeoutMs = saved
  }
})

test('Khalti: initiate with the secret key; a callback confirmed by lookup credits once, even twice at once', async () => {
  reset('Completed')
  const user = await createUser(app)
  const { body, payment } = await topup(app, user, 'gateway_2')
  assert.equal(body.payment_url, `https://pay.khalti.test/?pidx=pidx-${payment.reference}`)
  assert.ok(fake.calls.includes('POST /khalti/epayment/initiate/'))
  const cb = khaltiCallback({
    pidx: `pidx-${payment.reference}`,
    amount: '50000',
    total_amount: '50000',
    purchase_order_id: payment.reference!,
  })
  const [a, b] = await Promise.all([get(cb), get(cb)])
  assert.equal(a.json().data.status, 'completed')
  assert.equal(b.json().data.status, 'completed')
  const l = await ledger(app, user.id)
  assert.equal(l.balance, 50000)
  assert.equal(l.sum, 50000)
})

test("Khalti: a 400 from initiate is 422 with Khalti's message, not 502, and the payment is failed", async () => {
  reset('Completed')
  fake.initiateError = {
    amount: ['Amount should be greater than Rs. 10, that is 1000 paisa.'],
    error_key: 'validation_error',
  }
  const user = await createUser(app)
  const res = await app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    headers: user.headers,
    payload: { amount: '500.00', method: 'gateway_2' },
  })
  assert.equal(res.statusCode, 422, res.body)
  assert.deepEqual(res.json(), { message: 'Amount should be greater than Rs. 10, that is 1000 paisa.' })
  const rows = await app.ctx.db.selectFrom('payments').select('status').where('user_id', '=', user.id).execute()
  assert.deepEqual(
    rows.map((r) => r.status),
    ['failed'],
  )
})

test('Khalti: an Expired or User canceled lookup (HTTP 400) fails the payment; an unknown pidx leaves it initiated', async () => {
  const user = await createUser(app)
  for (const [word, claim] of [
    ['Expired', 'Pending'],
    ['User canceled', 'User canceled'],
  ]) {
    reset(word)
    const { payment } = await topup(app, user, 'gateway_2')
    const res = await get(
      khaltiCallback({ pidx: `pidx-${payment.reference}`, status: claim, purchase_order_id: payment.reference! }),
    )
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().data.status, 'failed', word)
    const tx = await app.ctx.db
      .selectFrom('wallet_transactions')
      .select('status')
      .where('payment_id', '=', payment.id)
      .executeTakeFirstOrThrow()
    assert.equal(tx.status, 'failed')
  }
  reset('Pending')
  fake.unknown = true
  const { payment } = await topup(app, user, 'gateway_2')
  const res = await get(
    khaltiCallback({
      pidx: `pidx-${payment.reference}`,
      status: 'User canceled',
      purchase_order_id: payment.reference!,
    }),
  )
  assert.equal(res.json().data.status, 'pending')
  assert.equal(await paymentStatus(payment.id), 'initiated')
})

test('Fonepay: redirect carries the HMAC-SHA512 DV; a discounted payment (P_AMT < R_AMT) is accepted and P_AMT recorded', async () => {
  reset('successful')
  const user = await createUser(app)
  const { body, payment } = await topup(app, user, 'gateway_3', '250.50')
  const url = new URL(body.payment_url)
  assert.equal(url.origin + url.pathname, `${base}/fonepay/api/merchantRequest`)
  const p = Object.fromEntries(url.searchParams)
  assert.equal(p.PID, 'NBQM')
  assert.equal(p.MD, 'P')
  assert.equal(p.PRN, payment.reference)
  assert.equal(p.AMT, '250.50')
  assert.equal(p.CRN, 'NPR')
  assert.match(p.DT, /^\d{2}\/\d{2}\/\d{4}$/)
  assert.equal(p.RU, 'http://localhost:8000/api/payments/gateway_3/callback')
  assert.equal(p.DV, fonepayDv(FONEPAY_SECRET, p, ['PID', 'MD', 'PRN', 'AMT', 'CRN', 'DT', 'R1', 'R2', 'RU']))

  fake.paid = 22545
  const cb = fonepayCallback({ PRN: payment.reference!, P_AMT: '225.45', R_AMT: '250.50' })
  const [a, b] = await Promise.all([get(cb), get(cb)])
  assert.equal(a.statusCode, 200, a.body)
  assert.equal(b.statusCode, 200, b.body)
  assert.equal(a.json().data.status, 'completed')
  assert.ok(fake.calls.includes('GET /fonepay/api/merchantRequest/verificationMerchant'))
  const l = await ledger(app, user.id)
  assert.equal(l.balance, 25050)
  assert.equal(l.sum, 25050)
  const row = await app.ctx.db
    .selectFrom('payments')
    .select('gateway_payload')
    .where('id', '=', payment.id)
    .executeTakeFirstOrThrow()
  const payload = typeof row.gateway_payload === 'string' ? JSON.parse(row.gateway_payload) : row.gateway_payload
  assert.equal(payload.paid_amount, 22545)
})

test('an unknown gateway is 404', async () => {
  assert.equal((await get('/api/payments/gateway_9/callback')).statusCode, 404)
})
