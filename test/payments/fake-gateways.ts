import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { App } from '../../src/app.ts'
import { esewaSignature } from '../../src/modules/payments/gateways/esewa.ts'
import { FONEPAY_CALLBACK_FIELDS, fonepayDv } from '../../src/modules/payments/gateways/fonepay.ts'
import type { TestUser } from '../helpers/factories.ts'

// Local stand-ins for eSewa, Khalti and Fonepay's server-to-server APIs, answering in each
// gateway's own shapes (docs/payments.md), so PAYMENT_DRIVER=live runs against them.

export const ESEWA_SECRET = 'esewa-test-secret'
export const FONEPAY_SECRET = 'fonepay-test-secret'
export const KHALTI_SECRET = 'khalti-test-secret'

export interface FakeState {
  /** The status word the status API answers (eSewa COMPLETE…, Khalti Completed…, Fonepay successful…). */
  status: string
  /** Paisa the status API reports (null: the amount asked about / initiated). */
  amount: number | null
  /** Fonepay <txnAmount> (paid after a discount), paisa; null: same as amount. */
  paid: number | null
  /** The payment is unknown to the gateway (Khalti 404, eSewa NOT_FOUND). */
  unknown: boolean
  /** Khalti initiate answers 400 with this body. */
  initiateError: Record<string, unknown> | null
  /** eSewa status API answers {"code":0,"error_message":…}. */
  esewaDown: boolean
  /** The HTTP status Khalti's refund API answers (200: refunded). */
  refundStatus: number
  /** Bodies of the refund requests received. */
  refunds: string[]
  delayMs: number
  calls: string[]
}

export const fake: FakeState = {
  status: 'COMPLETE',
  amount: null,
  paid: null,
  unknown: false,
  initiateError: null,
  esewaDown: false,
  refundStatus: 200,
  refunds: [],
  delayMs: 0,
  calls: [],
}

export function reset(status: string) {
  Object.assign(fake, {
    status,
    amount: null,
    paid: null,
    unknown: false,
    initiateError: null,
    esewaDown: false,
    refundStatus: 200,
    refunds: [],
    delayMs: 0,
    calls: [],
  })
}

async function readBody(req: IncomingMessage): Promise<string> {
  let s = ''
  for await (const chunk of req) s += chunk
  return s
}

/** Khalti initiated amounts by pidx, so a lookup reports what was initiated. */
const khaltiAmounts = new Map<string, number>()

export async function startFakeGateways(): Promise<{ server: Server; base: string; env: Record<string, string> }> {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    fake.calls.push(`${req.method} ${url.pathname}`)
    const body = await readBody(req)
    if (fake.delayMs) await new Promise((r) => setTimeout(r, fake.delayMs))
    if (res.destroyed) return
    const json = (status: number, v: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(v))
    }
    if (url.pathname === '/esewa-status/api/epay/transaction/status/') {
      if (fake.esewaDown) return json(200, { code: 0, error_message: 'Service is currently unavailable' })
      const requested = Math.round(Number(url.searchParams.get('total_amount')) * 100)
      return json(200, {
        product_code: url.searchParams.get('product_code'),
        transaction_uuid: url.searchParams.get('transaction_uuid'),
        total_amount: (fake.amount ?? requested) / 100,
        status: fake.unknown ? 'NOT_FOUND' : fake.status,
        ref_id: fake.status === 'COMPLETE' ? '0001TS9' : null,
      })
    }
    if (url.pathname === '/khalti/epayment/initiate/') {
      if (req.headers.authorization !== `Key ${KHALTI_SECRET}`) return json(401, { detail: 'Invalid token.' })
      if (fake.initiateError) return json(400, fake.initiateError)
      const b = JSON.parse(body)
      const pidx = `pidx-${b.purchase_order_id}`
      khaltiAmounts.set(pidx, Number(b.amount))
      return json(200, {
        pidx,
        payment_url: `https://pay.khalti.test/?pidx=${pidx}`,
        expires_at: new Date(Date.now() + 1_800_000).toISOString(),
        expires_in: 1800,
      })
    }
    if (url.pathname === '/khalti/epayment/lookup/') {
      if (req.headers.authorization !== `Key ${KHALTI_SECRET}`) return json(401, { detail: 'Invalid token.' })
      const b = JSON.parse(body)
      if (fake.unknown || !khaltiAmounts.has(b.pidx)) {
        return json(404, { detail: 'Not found.', error_key: 'validation_error' })
      }
      const code = fake.status === 'Expired' || fake.status === 'User canceled' ? 400 : 200
      return json(code, {
        pidx: b.pidx,
        total_amount: fake.amount ?? khaltiAmounts.get(b.pidx),
        status: fake.status,
        transaction_id: fake.status === 'Completed' ? 'GFq9PFS7b2iYvL8Lir9oXe' : null,
        fee: 0,
        refunded: false,
      })
    }
    if (/^\/khalti\/merchant-transaction\/[^/]+\/refund\/$/.test(url.pathname)) {
      if (req.headers.authorization !== `Key ${KHALTI_SECRET}`) return json(401, { detail: 'Invalid token.' })
      fake.refunds.push(body)
      if (fake.refundStatus === 200) return json(200, { detail: 'Transaction refund successful.' })
      return json(fake.refundStatus, { detail: 'Transaction already refunded.', error_key: 'validation_error' })
    }
    if (url.pathname === '/fonepay/api/merchantRequest/verificationMerchant') {
      const amt = Math.round(Number(url.searchParams.get('AMT')) * 100)
      const ok = fake.status === 'successful'
      const amount = ((fake.amount ?? amt) / 100).toFixed(2)
      const paid = ((fake.paid ?? fake.amount ?? amt) / 100).toFixed(2)
      res.writeHead(200, { 'content-type': 'application/xml' })
      return res.end(
        `<response><amount>${amount}</amount><message>x</message><response_code>${fake.status}</response_code><success>${ok}</success><txnAmount>${paid}</txnAmount><uniqueId>FP-1</uniqueId></response>`,
      )
    }
    json(404, { detail: 'Not found.' })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const env = {
    PAYMENT_DRIVER: 'live',
    ESEWA_BASE_URL: `${base}/esewa-form`,
    ESEWA_STATUS_URL: `${base}/esewa-status`,
    ESEWA_PRODUCT_CODE: 'EPAYTEST',
    ESEWA_SECRET_KEY: ESEWA_SECRET,
    KHALTI_BASE_URL: `${base}/khalti`,
    KHALTI_SECRET_KEY: KHALTI_SECRET,
    FONEPAY_BASE_URL: `${base}/fonepay`,
    FONEPAY_MERCHANT_CODE: 'NBQM',
    FONEPAY_SECRET_KEY: FONEPAY_SECRET,
  }
  return { server, base, env }
}

export async function stopFakeGateways(server: Server) {
  server.closeAllConnections()
  await new Promise((r) => server.close(r))
}

/**
 * eSewa's success redirect: base64 of the JSON text eSewa writes. `json` lets a test write a value
 * the way eSewa does (a number such as 1000.0, a string such as "1,200.0"); the signature is over
 * the text of each value.
 */
export function esewaData(
  fields: Record<string, string>,
  opts: { secret?: string; json?: (data: Record<string, string>) => string } = {},
) {
  const data: Record<string, string> = {
    transaction_code: '000AWEO',
    status: 'COMPLETE',
    product_code: 'EPAYTEST',
    signed_field_names: 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names',
    ...fields,
  }
  data.signature = esewaSignature(opts.secret ?? ESEWA_SECRET, data, data.signed_field_names)
  const text = opts.json ? opts.json(data) : JSON.stringify(data)
  return Buffer.from(text).toString('base64')
}

export const esewaCallback = (data: string) => `/api/payments/gateway_1/callback?data=${encodeURIComponent(data)}`

export function fonepayCallback(fields: Record<string, string>, secret = FONEPAY_SECRET) {
  const p: Record<string, string> = {
    PID: 'NBQM',
    PS: 'true',
    RC: 'successful',
    UID: 'FP-1',
    BC: 'NICENPKA',
    INI: '9841845631',
    ...fields,
  }
  p.DV = fonepayDv(secret, p, FONEPAY_CALLBACK_FIELDS)
  return `/api/payments/gateway_3/callback?${new URLSearchParams(p)}`
}

export function khaltiCallback(fields: Record<string, string>) {
  return `/api/payments/gateway_2/callback?${new URLSearchParams({ status: 'Completed', transaction_id: 'GFq9PFS7b2iYvL8Lir9oXe', mobile: '98XXXXX904', purchase_order_name: 'Wallet top-up', ...fields })}`
}

/** Starts a wallet top-up through `method` and returns the answer and the payment row. */
export async function topup(app: App, user: TestUser, method: string, amount = '500.00') {
  const res = await app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    headers: user.headers,
    payload: { amount, method },
  })
  if (res.statusCode !== 201) throw new Error(`topup answered ${res.statusCode}: ${res.body}`)
  const body = res.json()
  const payment = await app.ctx.db
    .selectFrom('payments')
    .selectAll()
    .where('payable_type', '=', 'topup')
    .where('payable_id', '=', body.data.id)
    .executeTakeFirstOrThrow()
  return { body, payment }
}
