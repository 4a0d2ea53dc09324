import { randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { asLocale, type Locale, type MessageKey, requestLocale, t } from '../../lib/i18n/index.ts'
import type { RouteApp } from '../../lib/route.ts'
import { sameSignature } from './gateways/crypto.ts'
import { ESEWA_SIGNED_FIELDS, esewaSignature } from './gateways/esewa.ts'
import {
  FONEPAY_CALLBACK_FIELDS,
  FONEPAY_REQUEST_FIELDS,
  FONEPAY_VERIFY_FIELDS,
  fonepayDv,
} from './gateways/fonepay.ts'
import { paisaToRupees, rupeesToPaisa } from './gateways/http.ts'
import { SANDBOX_PREFIX } from './gateways/index.ts'
import { payerLocale } from './queries.ts'
import { choiceHtml, doubleText, esewaAmountText, htmlPage, type Outcome } from './sandbox-pages.ts'

// The in-service sandbox (PAYMENT_DRIVER=sandbox, the default): a stand-in for eSewa, Khalti and
// Fonepay that speaks their protocols with the configured keys, so the whole payment flow works on
// a fresh clone. Opening a payment_url shows a page with Pay and Cancel; adding
// `simulate=success|failure` completes it at once and redirects (302) to the merchant's callback
// exactly as the gateway would. It is as awkward as the real ones (docs/payments.md): eSewa's form
// is POST only and its `data` writes amounts as eSewa does ("1,200.0"); Khalti's links expire
// (`simulate=expire` expires one now) and its Expired / User canceled lookups answer 400; Fonepay
// grants a 10% discount on every payment (P_AMT < R_AMT; `discount=0` on the pay URL turns it off).
// `simulate=lost` completes a payment at the gateway but never goes back to the merchant (a closed
// browser), so only the status API knows: reconciliation's test case. Its routes are hidden from
// the API document; gateway-side state lives in memory (a development stand-in, not a ledger).

/**
 * How long a Khalti sandbox link lives: Khalti's documented 60 minutes, the same lifetime the Khalti
 * driver waits out before reconciliation fails an unpaid payment (its sample answer's 1800 is older).
 */
const KHALTI_LINK_SECONDS = 3600

interface SandboxTxn {
  amount: number // paisa
  paid?: number // paisa the customer paid (Fonepay discount)
  refunded?: number // paisa refunded through the refund API (Khalti)
  expiresAt?: number // ms (Khalti)
  status: string
  transactionId: string | null
  extra: Record<string, string>
}

// What the fake gateways read, typed by the route schemas: a query or form of text fields, a JSON body of anything.
const textQuery = { hide: true, querystring: Type.Record(Type.String(), Type.String()) }
const textForm = { hide: true, body: Type.Optional(Type.Record(Type.String(), Type.String())) }
const jsonBody = { hide: true, body: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }
const code = () => randomBytes(5).toString('hex').toUpperCase()

export async function sandboxRoutes(app: RouteApp) {
  const { config } = app.ctx
  const { esewa, khalti, fonepay } = config.gateways
  const esewaTxns = new Map<string, SandboxTxn>()
  const khaltiTxns = new Map<string, SandboxTxn>()
  const fonepayTxns = new Map<string, SandboxTxn>()
  const base = `${config.appUrl}${SANDBOX_PREFIX}`
  const prefix = SANDBOX_PREFIX.replace(/^\/api/, '')

  // --- gateway_1: eSewa ePay v2 ---------------------------------------------------------------

  // eSewa takes the form as a browser POST only (the checkout page submits it).
  app.post(`${prefix}/gateway_1/api/epay/main/v2/form`, { schema: textForm }, async (req, reply) => {
    const f = req.body ?? {}
    const names = f.signed_field_names ?? ''
    if (
      f.product_code !== esewa.productCode ||
      !f.signature ||
      !sameSignature(esewaSignature(esewa.secretKey, f, names), f.signature) ||
      names !== ESEWA_SIGNED_FIELDS
    ) {
      return page(reply, 400, 'eSewa', 'sandbox.bad_signature', await langOf(req, f.transaction_uuid))
    }
    const amount = rupeesToPaisa(f.total_amount) ?? 0
    const known = esewaTxns.get(f.transaction_uuid)
    if (!known) esewaTxns.set(f.transaction_uuid, { amount, status: 'PENDING', transactionId: null, extra: {} })
    const simulate = f.simulate as Outcome | undefined
    if (simulate !== 'success' && simulate !== 'failure' && simulate !== 'lost') {
      return choicePage(reply, 'eSewa', amount, f, await langOf(req, f.transaction_uuid), 'POST')
    }
    const txn = esewaTxns.get(f.transaction_uuid)!
    if (simulate === 'lost') {
      if (txn.status === 'PENDING') Object.assign(txn, { status: 'COMPLETE', transactionId: code() })
      return lostPage(reply, 'eSewa', await langOf(req, f.transaction_uuid))
    }
    if (simulate === 'failure') {
      if (txn.status === 'PENDING') txn.status = 'CANCELED'
      return reply.redirect(f.failure_url, 302)
    }
    if (txn.status === 'PENDING') {
      txn.status = 'COMPLETE'
      txn.transactionId = code()
    }
    const data: Record<string, string> = {
      transaction_code: txn.transactionId ?? code(),
      status: txn.status,
      total_amount: esewaAmountText(txn.amount),
      transaction_uuid: f.transaction_uuid,
      product_code: f.product_code,
      signed_field_names: 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names',
    }
    data.signature = esewaSignature(esewa.secretKey, data, data.signed_field_names)
    const target = new URL(f.success_url)
    target.searchParams.set('data', Buffer.from(JSON.stringify(data)).toString('base64'))
    return reply.redirect(target.toString(), 302)
  })

  app.get(`${prefix}/gateway_1/api/epay/transaction/status/`, { schema: textQuery }, async (req) => {
    const q = req.query
    const txn = esewaTxns.get(q.transaction_uuid ?? '')
    const matches = txn && q.product_code === esewa.productCode && rupeesToPaisa(q.total_amount) === txn.amount
    return {
      product_code: q.product_code,
      transaction_uuid: q.transaction_uuid,
      total_amount: Number(String(q.total_amount ?? '').replace(/,/g, '')),
      status: matches ? txn.status : 'NOT_FOUND',
      ref_id: matches ? txn.transactionId : null,
    }
  })

  // --- gateway_2: Khalti ePayment -------------------------------------------------------------

  const khaltiAuthorized = (auth: string | undefined) => auth === `Key ${khalti.secretKey}`

  app.post(`${prefix}/gateway_2/epayment/initiate/`, { schema: jsonBody }, async (req, reply) => {
    if (!khaltiAuthorized(req.headers.authorization)) return reply.code(401).send({ detail: 'Invalid token.' })
    const b = req.body ?? {}
    const invalid: Record<string, string[]> = {}
    for (const f of ['return_url', 'website_url', 'purchase_order_id', 'purchase_order_name']) {
      if (!b[f]) invalid[f] = ['This field may not be blank.']
    }
    if (!Number.isInteger(Number(b.amount))) invalid.amount = ['A valid integer is required.']
    else if (Number(b.amount) < 1000) invalid.amount = ['Amount should be greater than Rs. 10, that is 1000 paisa.']
    if (Object.keys(invalid).length) return reply.code(400).send({ ...invalid, error_key: 'validation_error' })
    const pidx = randomBytes(11).toString('base64url')
    khaltiTxns.set(pidx, {
      amount: Number(b.amount),
      expiresAt: app.ctx.clock.now().getTime() + KHALTI_LINK_SECONDS * 1000,
      status: 'Initiated',
      transactionId: null,
      extra: {
        return_url: String(b.return_url),
        purchase_order_id: String(b.purchase_order_id),
        purchase_order_name: String(b.purchase_order_name ?? ''),
      },
    })
    return {
      pidx,
      payment_url: `${base}/gateway_2/pay?pidx=${pidx}`,
      expires_at: new Date(app.ctx.clock.now().getTime() + KHALTI_LINK_SECONDS * 1000).toISOString(),
      expires_in: KHALTI_LINK_SECONDS,
    }
  })

  app.get(`${prefix}/gateway_2/pay`, { schema: textQuery }, async (req, reply) => {
    const q = req.query
    const txn = khaltiTxns.get(q.pidx ?? '')
    if (!txn) return page(reply, 404, 'Khalti', 'sandbox.unknown', await langOf(req))
    const lang = await langOf(req, txn.extra.purchase_order_id)
    if (q.simulate === 'expire' && txn.status === 'Initiated') txn.expiresAt = app.ctx.clock.now().getTime() - 1
    expireKhalti(txn, app.ctx.clock.now())
    // An expired link shows Khalti's error page and never returns to the merchant.
    if (txn.status === 'Expired') return page(reply, 400, 'Khalti', 'sandbox.expired', lang)
    if (q.simulate === 'lost') {
      if (txn.status === 'Initiated') Object.assign(txn, { status: 'Completed', transactionId: code() })
      return lostPage(reply, 'Khalti', lang)
    }
    if (q.simulate !== 'success' && q.simulate !== 'failure') return choicePage(reply, 'Khalti', txn.amount, q, lang)
    if (txn.status === 'Initiated') {
      txn.status = q.simulate === 'success' ? 'Completed' : 'User canceled'
      if (txn.status === 'Completed') txn.transactionId = code()
    }
    const back = new URL(txn.extra.return_url)
    const paid = txn.status === 'Completed'
    const params: Record<string, string> = {
      pidx: q.pidx,
      ...(paid ? { txnId: txn.transactionId ?? '' } : {}),
      transaction_id: txn.transactionId ?? '',
      tidx: txn.transactionId ?? '',
      amount: String(txn.amount),
      total_amount: String(txn.amount),
      mobile: paid ? '98XXXXX001' : '',
      status: txn.status,
      purchase_order_id: txn.extra.purchase_order_id,
      purchase_order_name: txn.extra.purchase_order_name,
    }
    for (const [k, v] of Object.entries(params)) back.searchParams.set(k, v)
    return reply.redirect(back.toString(), 302)
  })

  // Khalti's refund API: full (empty body) or partial ({amount}); only a Completed transaction, and
  // never more than is left. A full refund turns the lookup's status to Refunded.
  const refundSchema = { ...jsonBody, params: Type.Object({ id: Type.String() }) }
  app.post(`${prefix}/gateway_2/merchant-transaction/:id/refund/`, { schema: refundSchema }, async (req, reply) => {
    if (!khaltiAuthorized(req.headers.authorization)) return reply.code(401).send({ detail: 'Invalid token.' })
    const id = req.params.id
    const txn = [...khaltiTxns.values()].find((t) => t.transactionId === id)
    if (!txn) return reply.code(404).send({ detail: 'Not found.', error_key: 'validation_error' })
    if (txn.status !== 'Completed' && txn.status !== 'Partially Refunded') {
      return reply.code(400).send({ detail: 'Transaction cannot be refunded.', error_key: 'validation_error' })
    }
    const left = txn.amount - (txn.refunded ?? 0)
    const amount = req.body?.amount === undefined ? left : Number(req.body.amount)
    if (!Number.isInteger(amount) || amount <= 0 || amount > left) {
      return reply.code(400).send({ amount: ['Invalid refund amount.'], error_key: 'validation_error' })
    }
    txn.refunded = (txn.refunded ?? 0) + amount
    txn.status = txn.refunded >= txn.amount ? 'Refunded' : 'Partially Refunded'
    return { detail: 'Transaction refund successful.' }
  })

  app.post(`${prefix}/gateway_2/epayment/lookup/`, { schema: jsonBody }, async (req, reply) => {
    if (!khaltiAuthorized(req.headers.authorization)) return reply.code(401).send({ detail: 'Invalid token.' })
    const pidx = String(req.body?.pidx ?? '')
    const txn = khaltiTxns.get(pidx)
    if (!txn) return reply.code(404).send({ detail: 'Not found.', error_key: 'validation_error' })
    expireKhalti(txn, app.ctx.clock.now())
    // Khalti answers Expired and User canceled with HTTP 400 (its "Payment Status Code" table).
    return reply.code(txn.status === 'Expired' || txn.status === 'User canceled' ? 400 : 200).send({
      pidx,
      total_amount: txn.amount,
      status: txn.status,
      transaction_id: txn.transactionId,
      fee: 0,
      refunded: false,
    })
  })

  // --- gateway_3: Fonepay ---------------------------------------------------------------------

  app.get(`${prefix}/gateway_3/api/merchantRequest`, { schema: textQuery }, async (req, reply) => {
    const q = req.query
    if (
      q.PID !== fonepay.merchantCode ||
      !q.DV ||
      !sameSignature(fonepayDv(fonepay.secretKey, q, FONEPAY_REQUEST_FIELDS), q.DV.toUpperCase())
    ) {
      return page(reply, 400, 'Fonepay', 'sandbox.bad_dv', await langOf(req, q.PRN))
    }
    const amount = rupeesToPaisa(q.AMT) ?? 0
    if (!fonepayTxns.has(q.PRN)) fonepayTxns.set(q.PRN, { amount, status: 'pending', transactionId: null, extra: {} })
    const txn = fonepayTxns.get(q.PRN)!
    const lang = await langOf(req, q.PRN)
    if (q.simulate === 'lost') {
      if (txn.status === 'pending') {
        const paid = q.discount !== '0' ? txn.amount - Math.round(txn.amount / 10) : txn.amount
        Object.assign(txn, { status: 'successful', transactionId: code(), paid })
      }
      return lostPage(reply, 'Fonepay', lang)
    }
    if (q.simulate !== 'success' && q.simulate !== 'failure') return choicePage(reply, 'Fonepay', amount, q, lang)
    if (txn.status === 'pending') {
      txn.status = q.simulate === 'success' ? 'successful' : 'failed'
      txn.transactionId = code()
      // A Fonepay promotion: the customer pays 10% less; the merchant's requested amount stands.
      txn.paid =
        txn.status === 'successful' && q.discount !== '0' ? txn.amount - Math.round(txn.amount / 10) : txn.amount
    }
    const ok = txn.status === 'successful'
    const back: Record<string, string> = {
      PRN: q.PRN,
      PID: q.PID,
      PS: String(ok),
      RC: ok ? 'successful' : 'cancel',
      UID: txn.transactionId ?? '',
      BC: ok ? 'SANDBOXBANK' : 'N/A',
      INI: ok ? '98XXXXX001' : 'N/A',
      P_AMT: doubleText(txn.paid ?? txn.amount),
      R_AMT: q.AMT,
    }
    back.DV = fonepayDv(fonepay.secretKey, back, FONEPAY_CALLBACK_FIELDS)
    const url = new URL(q.RU)
    for (const [k, v] of Object.entries(back)) url.searchParams.set(k, v)
    return reply.redirect(url.toString(), 302)
  })

  app.get(`${prefix}/gateway_3/api/merchantRequest/verificationMerchant`, { schema: textQuery }, async (req, reply) => {
    const q = req.query
    reply.type('application/xml')
    const txn = fonepayTxns.get(q.PRN ?? '')
    const signed = q.DV && sameSignature(fonepayDv(fonepay.secretKey, q, FONEPAY_VERIFY_FIELDS), q.DV.toUpperCase())
    if (!signed || !txn || q.PID !== fonepay.merchantCode) {
      return '<response><success>false</success><response_code>failed</response_code><message>Invalid request</message></response>'
    }
    // Without a callback the merchant has no UID (Fonepay's trace id) and asks by PRN alone.
    const ok =
      txn.status === 'successful' && rupeesToPaisa(q.AMT) === txn.amount && (!q.UID || q.UID === txn.transactionId)
    return `<response><amount>${paisaToRupees(txn.amount)}</amount><bankCode>SANDBOXBANK</bankCode><initiator>98XXXXX001</initiator><message>${ok ? 'Payment verified' : 'Payment not verified'}</message><response_code>${ok ? 'successful' : txn.status}</response_code><statusCode>${ok ? 0 : 1}</statusCode><success>${ok}</success><txnAmount>${paisaToRupees(txn.paid ?? txn.amount)}</txnAmount><uniqueId>${txn.transactionId ?? ''}</uniqueId></response>`
  })
}

function page(reply: FastifyReply, status: number, gateway: string, message: MessageKey, locale: Locale) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(htmlPage(t(locale, 'sandbox.title', { gateway }), `<p>${t(locale, message)}</p>`, locale))
}

/** The Pay / Cancel page: two forms back to this same URL (by the gateway's method) with `simulate` set. */
function choicePage(
  reply: FastifyReply,
  gateway: string,
  amount: number,
  params: Record<string, string>,
  locale: Locale,
  method: 'GET' | 'POST' = 'GET',
) {
  return reply
    .code(200)
    .type('text/html; charset=utf-8')
    .send(htmlPage(t(locale, 'sandbox.title', { gateway }), choiceHtml(amount, params, method, locale), locale))
}

/**
 * The language of a sandbox page: the payer's own (the customer of the payment with merchant
 * reference `reference`), else the browser's Accept-Language (docs/languages.md).
 */
async function langOf(req: FastifyRequest, reference?: string): Promise<Locale> {
  const stored = reference ? asLocale(await payerLocale(req.server.ctx.db, reference)) : null
  return stored ?? requestLocale(req)
}

/** A Khalti link past its expiry that was never paid is Expired. */
function expireKhalti(txn: SandboxTxn, now: Date) {
  if (txn.status === 'Initiated' && txn.expiresAt !== undefined && now.getTime() > txn.expiresAt) txn.status = 'Expired'
}

/** After `simulate=lost`: paid at the gateway, and the merchant was never told. */
function lostPage(reply: FastifyReply, gateway: string, locale: Locale) {
  return page(reply, 200, gateway, 'sandbox.complete', locale)
}
