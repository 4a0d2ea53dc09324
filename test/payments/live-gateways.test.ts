import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { esewaSignature } from '../../src/modules/payments/gateways/esewa.ts'
import { FONEPAY_CALLBACK_FIELDS, fonepayDv } from '../../src/modules/payments/gateways/fonepay.ts'
import { gatewayHttp } from '../../src/modules/payments/gateways/http.ts'
import { build } from '../helpers/app.ts'
import { createUser, type TestUser } from '../helpers/factories.ts'
import { ledger } from './helpers.ts'

// PAYMENT_DRIVER=live against a local fake of each gateway's HTTP API.

const ESEWA_SECRET = 'esewa-test-secret'
const FONEPAY_SECRET = 'fonepay-test-secret'
const KHALTI_SECRET = 'khalti-test-secret'

interface FakeState {
  status: string // what the status API says
  amount: number | null // paisa the status API reports (null: the requested amount)
  delayMs: number
  calls: string[]
}
const fake: FakeState = { status: 'COMPLETE', amount: null, delayMs: 0, calls: [] }

let server: Server
let base: string
let app: App

async function readBody(req: IncomingMessage): Promise<string> {
  let s = ''
  for await (const chunk of req) s += chunk
  return s
}

before(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    fake.calls.push(`${req.method} ${url.pathname}`)
    const body = await readBody(req)
    if (fake.delayMs) await new Promise((r) => setTimeout(r, fake.delayMs))
    if (res.destroyed) return
    const json = (status: number, v: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(v))
    }
    if (url.pathname === '/esewa/api/epay/transaction/status/') {
      const requested = Math.round(Number(url.searchParams.get('total_amount')) * 100)
      return json(200, {
        product_code: url.searchParams.get('product_code'),
        transaction_uuid: url.searchParams.get('transaction_uuid'),
        total_amount: (fake.amount ?? requested) / 100,
        status: fake.status,
        ref_id: 'ESEWA-REF-1',
      })
    }
    if (url.pathname === '/khalti/epayment/initiate/') {
      if (req.headers.authorization !== `Key ${KHALTI_SECRET}`) return json(401, { detail: 'Invalid token.' })
      const b = JSON.parse(body)
      return json(200, {
        pidx: `pidx-${b.purchase_order_id}`,
        payment_url: `https://pay.khalti.test/?pidx=pidx-${b.purchase_order_id}`,
      })
    }
    if (url.pathname === '/khalti/epayment/lookup/') {
      if (req.headers.authorization !== `Key ${KHALTI_SECRET}`) return json(401, { detail: 'Invalid token.' })
      const b = JSON.parse(body)
      return json(200, {
        pidx: b.pidx,
        total_amount: fake.amount ?? Number(b.pidx.split('|')[1] ?? 0),
        status: fake.status,
        transaction_id: 'KH-1',
        fee: 0,
        refunded: false,
      })
    }
    if (url.pathname === '/fonepay/api/merchantRequest/verificationMerchant') {
      const amt = url.searchParams.get('AMT')
      const ok = fake.status === 'successful'
      res.writeHead(200, { 'content-type': 'application/xml' })
      return res.end(
        `<response><amount>${amt}</amount><message>x</message><response_code>${fake.status}</response_code><success>${ok}</success><txnAmount>${fake.amount === null ? amt : (fake.amount / 100).toFixed(2)}</txnAmount><uniqueId>FP-1</uniqueId></response>`,
      )
    }
    json(404, { detail: 'Not found.' })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  app = await build(undefined, {
    PAYMENT_DRIVER: 'live',
    ESEWA_BASE_URL: `${base}/esewa`,
    ESEWA_PRODUCT_CODE: 'EPAYTEST',
    ESEWA_SECRET_KEY: ESEWA_SECRET,
    KHALTI_BASE_URL: `${base}/khalti`,
    KHALTI_SECRET_KEY: KHALTI_SECRET,
    FONEPAY_BASE_URL: `${base}/fonepay`,
    FONEPAY_MERCHANT_CODE: 'NBQM',
    FONEPAY_SECRET_KEY: FONEPAY_SECRET,
  })
})
after(async () => {
  await app.close()
  server.closeAllConnections()
  await new Promise((r) => server.close(r))
})

function reset(status: string) {
  fake.status = status
  fake.amount = null
  fake.delayMs = 0
  fake.calls = []
}

async function topup(user: TestUser, method: string, amount = '500.00') {
  const res = await app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    headers: user.headers,
    payload: { amount, method },
  })
  assert.equal(res.statusCode, 201, res.body)
  const body = res.json()
  const payment = await app.ctx.db
    .selectFrom('payments')
    .selectAll()
    .where('payable_type', '=', 'topup')
    .where('payable_id', '=', body.data.id)
    .executeTakeFirstOrThrow()
  return { body, payment }
}

function esewaCallback(fields: Record<string, string>, secret = ESEWA_SECRET) {
  const data: Record<string, string> = {
    transaction_code: '000AB1',
    status: 'COMPLETE',
    product_code: 'EPAYTEST',
    signed_field_names: 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names',
    ...fields,
  }
  data.signature = esewaSignature(secret, data, data.signed_field_names)
  return `/api/payments/gateway_1/callback?data=${encodeURIComponent(Buffer.from(JSON.stringify(data)).toString('base64'))}`
}

function fonepayCallback(fields: Record<string, string>, secret = FONEPAY_SECRET) {
  const p: Record<string, string> = {
    PID: 'NBQM',
    PS: 'true',
    RC: 'successful',
    UID: 'FP-1',
    BC: 'BANK',
    INI: '98',
    R_AMT: '0',
    ...fields,
  }
  p.DV = fonepayDv(secret, p, FONEPAY_CALLBACK_FIELDS)
  return `/api/payments/gateway_3/callback?${new URLSearchParams(p)}`
}

const get = (url: string) => app.inject({ method: 'GET', url })

test('eSewa: payment_url posts the signed form to eSewa; a signed, confirmed callback credits once, even twice at once', async () => {
  reset('COMPLETE')
  const user = await createUser(app)
  const { body, payment } = await topup(user, 'gateway_1')
  const url = new URL(body.payment_url)
  assert.equal(url.pathname, '/api/payments/gateway_1/checkout')
  assert.equal(url.searchParams.get('transaction_uuid'), payment.reference)
  assert.equal(url.searchParams.get('total_amount'), '500.00')
  assert.equal(url.searchParams.get('signed_field_names'), 'total_amount,transaction_uuid,product_code')
  const expected = esewaSignature(
    ESEWA_SECRET,
    Object.fromEntries(url.searchParams),
    'total_amount,transaction_uuid,product_code',
  )
  assert.equal(url.searchParams.get('signature'), expected)
  const checkout = await get(url.pathname + url.search)
  assert.match(checkout.body, new RegExp(`action="${base}/esewa/api/epay/main/v2/form"`))

  const cb = esewaCallback({ total_amount: '500.0', transaction_uuid: payment.reference! })
  const [a, b] = await Promise.all([get(cb), get(cb)])
  assert.equal(a.statusCode, 200, a.body)
  assert.equal(b.statusCode, 200, b.body)
  assert.ok(fake.calls.some((c) => c === 'GET /esewa/api/epay/transaction/status/'))
  const l = await ledger(app, user.id)
  assert.equal(l.balance, 50000)
  assert.equal(l.sum, 50000)
  assert.equal(l.rows.filter((r) => r.status === 'completed').length, 1)
})

test('eSewa: a wrong signature, a different amount, or a gateway that disagrees change nothing (422)', async () => {
  reset('COMPLETE')
  const user = await createUser(app)
  const { payment } = await topup(user, 'gateway_1')
  const forged = await get(
    esewaCallback({ total_amount: '500.0', transaction_uuid: payment.reference! }, 'wrong-secret'),
  )
  assert.equal(forged.statusCode, 422)
  assert.deepEqual(forged.json(), { message: 'The payment could not be verified.' })
  const cheaper = await get(esewaCallback({ total_amount: '5.0', transaction_uuid: payment.reference! }))
  assert.equal(cheaper.statusCode, 422)
  fake.amount = 500 // the status API reports 5.00
  const mismatch = await get(esewaCallback({ total_amount: '500.0', transaction_uuid: payment.reference! }))
  assert.equal(mismatch.statusCode, 422)
  reset('NOT_FOUND')
  const unknown = await get(esewaCallback({ total_amount: '500.0', transaction_uuid: payment.reference! }))
  assert.equal(unknown.statusCode, 422)
  const garbage = await get('/api/payments/gateway_1/callback?data=not-base64-json')
  assert.equal(garbage.statusCode, 422)
  const row = await app.ctx.db
    .selectFrom('payments')
    .select('status')
    .where('id', '=', payment.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.status, 'initiated')
  assert.equal((await ledger(app, user.id)).balance, 0)
})

test('eSewa: while the gateway says PENDING nothing changes; a later confirmation settles it', async () => {
  reset('PENDING')
  const user = await createUser(app)
  const { payment } = await topup(user, 'gateway_1')
  const cb = esewaCallback({ total_amount: '500.0', transaction_uuid: payment.reference! })
  const pending = await get(cb)
  assert.equal(pending.statusCode, 200)
  assert.equal(pending.json().data.status, 'pending')
  assert.equal(pending.json().data.payment.status, 'initiated')
  assert.equal((await ledger(app, user.id)).balance, 0)
  reset('COMPLETE')
  assert.equal((await get(cb)).json().data.status, 'completed')
  assert.equal((await ledger(app, user.id)).balance, 50000)
})

test('a gateway that does not answer in time: 502, nothing changes, a retry settles', async () => {
  reset('COMPLETE')
  const user = await createUser(app)
  const { payment } = await topup(user, 'gateway_1')
  const saved = gatewayHttp.timeoutMs
  gatewayHttp.timeoutMs = 200
  fake.delayMs = 1500
  try {
    const cb = esewaCallback({ total_amount: '500.0', transaction_uuid: payment.reference! })
    const slow = await get(cb)
    assert.equal(slow.statusCode, 502)
    assert.deepEqual(slow.json(), { message: 'The payment gateway is not available. Please try again.' })
    assert.equal((await ledger(app, user.id)).balance, 0)
    fake.delayMs = 0
    assert.equal((await get(cb)).statusCode, 200)
    assert.equal((await ledger(app, user.id)).balance, 50000)
  } finally {
    gatewayHttp.timeoutMs = saved
  }
})

test('Khalti: initiate with the secret key, callback confirmed by lookup (pidx and amount must match)', async () => {
  reset('Completed')
  const user = await createUser(app)
  const { body, payment } = await topup(user, 'gateway_2')
  assert.equal(body.payment_url, `https://pay.khalti.test/?pidx=pidx-${payment.reference}`)
  assert.ok(fake.calls.includes('POST /khalti/epayment/initiate/'))
  const pidx = `pidx-${payment.reference}`
  const q = (over: Record<string, string> = {}) =>
    `/api/payments/gateway_2/callback?${new URLSearchParams({ pidx, status: 'Completed', transaction_id: 'KH-1', amount: '50000', total_amount: '50000', purchase_order_id: payment.reference!, purchase_order_name: 'Wallet top-up', ...over })}`

  fake.amount = 50000
  assert.equal((await get(q({ pidx: 'someone-elses-pidx' }))).statusCode, 422)
  assert.equal((await get(q({ amount: '100', total_amount: '100' }))).statusCode, 422)
  fake.amount = 100
  assert.equal((await get(q())).statusCode, 422, 'lookup reports another amount')
  fake.amount = 50000
  fake.status = 'Pending'
  assert.equal((await get(q())).json().data.status, 'pending')
  assert.equal((await ledger(app, user.id)).balance, 0)
  fake.status = 'Completed'
  const [a, b] = await Promise.all([get(q()), get(q())])
  assert.equal(a.json().data.status, 'completed')
  assert.equal(b.json().data.status, 'completed')
  const l = await ledger(app, user.id)
  assert.equal(l.balance, 50000)
  assert.equal(l.sum, 50000)
})

test('Khalti: a user-cancelled payment confirmed by lookup fails the top-up', async () => {
  reset('User canceled')
  const user = await createUser(app)
  const { payment } = await topup(user, 'gateway_2')
  const res = await get(
    `/api/payments/gateway_2/callback?${new URLSearchParams({ pidx: `pidx-${payment.reference}`, status: 'User canceled', purchase_order_id: payment.reference! })}`,
  )
  assert.equal(res.json().data.status, 'failed')
  const tx = await app.ctx.db
    .selectFrom('wallet_transactions')
    .select('status')
    .where('payment_id', '=', payment.id)
    .executeTakeFirstOrThrow()
  assert.equal(tx.status, 'failed')
})

test('Fonepay: redirect carries the HMAC-SHA512 DV; the callback DV and the verification API are both checked', async () => {
  reset('successful')
  const user = await createUser(app)
  const { body, payment } = await topup(user, 'gateway_3', '250.50')
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

  const good = { PRN: payment.reference!, P_AMT: '250.50' }
  assert.equal((await get(fonepayCallback(good, 'bad-secret'))).statusCode, 422)
  assert.equal((await get(fonepayCallback({ ...good, P_AMT: '1.00' }))).statusCode, 422)
  fake.amount = 100
  assert.equal((await get(fonepayCallback(good))).statusCode, 422)
  fake.amount = null
  fake.status = 'pending'
  assert.equal((await get(fonepayCallback(good))).json().data.status, 'pending')
  fake.status = 'successful'
  const [a, b] = await Promise.all([get(fonepayCallback(good)), get(fonepayCallback(good))])
  assert.equal(a.statusCode, 200)
  assert.equal(b.statusCode, 200)
  assert.ok(fake.calls.includes('GET /fonepay/api/merchantRequest/verificationMerchant'))
  const l = await ledger(app, user.id)
  assert.equal(l.balance, 25050)
  assert.equal(l.sum, 25050)
})

test('an unknown gateway is 404; an unknown reference is 422', async () => {
  assert.equal((await get('/api/payments/gateway_9/callback')).statusCode, 404)
  assert.equal((await get(fonepayCallback({ PRN: 'CSNOPE', P_AMT: '1.00' }))).statusCode, 422)
})
