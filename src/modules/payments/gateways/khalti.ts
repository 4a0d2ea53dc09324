import { parseJson } from './http.ts'
import {
  CallbackRejected,
  type GatewayDriver,
  GatewayRefused,
  GatewayUnavailable,
  type Transport,
  type Verification,
} from './types.ts'

// gateway_2 = Khalti ePayment (docs.khalti.com/khalti-epayment). The server POSTs
// {base}/epayment/initiate/ with `Authorization: Key <secret>` and gets {pidx, payment_url}.
// Khalti sends the customer back to return_url?pidx=…&status=…&purchase_order_id=…; that redirect
// is unsigned, so the lookup API ({base}/epayment/lookup/ with the pidx we stored) is the only
// proof. Amounts are in paisa. Expired and User canceled lookups answer HTTP 400 with a body.
// Refunds (docs.khalti.com/api/refund): POST {api}/merchant-transaction/{transaction_id}/refund/
// with the same key, where {api} is the base URL without its /v2 (https://khalti.com/api); an empty
// body refunds in full, {"amount": paisa} in part; 200 {"detail": "Transaction refund successful."}.

export interface KhaltiConfig {
  baseUrl: string
  secretKey: string
}

const LOOKUP: Record<string, Verification['status']> = {
  Completed: 'completed',
  Pending: 'pending',
  Initiated: 'pending',
  Expired: 'failed',
  'User canceled': 'failed',
  Refunded: 'failed',
  // "For status other than these, hold the transaction and contact Khalti": anything else is pending.
}

/** Khalti's own words from a 400 body: `detail`, else the field errors ({amount: ["…"]}). */
export function khaltiMessage(body: Record<string, unknown>): string | null {
  if (typeof body.detail === 'string' && body.detail) return body.detail
  const messages: string[] = []
  for (const [key, value] of Object.entries(body)) {
    if (key === 'error_key' || key === 'status_code') continue
    for (const m of Array.isArray(value) ? value : [value]) if (typeof m === 'string' && m) messages.push(m)
  }
  return messages.length ? messages.join(' ') : null
}

function readBody(text: string): Record<string, unknown> | null {
  try {
    return parseJson(text)
  } catch {
    return null
  }
}

/** Where the refund API lives: the ePayment base without its version (…/api/v2 → …/api). */
export function khaltiRefundUrl(baseUrl: string, transactionId: string): string {
  const api = baseUrl.replace(/\/+$/, '').replace(/\/v2$/, '')
  return `${api}/merchant-transaction/${encodeURIComponent(transactionId)}/refund/`
}

export function khaltiDriver(config: KhaltiConfig, transport: Transport, websiteUrl: string): GatewayDriver {
  const headers = { authorization: `Key ${config.secretKey}`, 'content-type': 'application/json' }
  return {
    async refund(payment) {
      const res = await transport({
        method: 'POST',
        url: khaltiRefundUrl(config.baseUrl, payment.transactionId),
        headers,
        body: JSON.stringify(payment.full ? {} : { amount: payment.amount }),
      })
      if (res.status === 200) return
      if (res.status === 400 || res.status === 404) {
        throw new GatewayRefused(khaltiMessage(readBody(res.body) ?? {}) ?? `Khalti refused the refund (${res.status})`)
      }
      throw new GatewayUnavailable(`Khalti refund answered ${res.status}`)
    },
    name: 'gateway_2',
    sessionFromInitiate: true,
    // Khalti: "payment link expires in 60 minutes" (ePayment docs); the sandbox uses the same.
    linkLifetimeSeconds: 3600,
    async initiate(input) {
      const res = await transport({
        method: 'POST',
        url: `${config.baseUrl}/epayment/initiate/`,
        headers,
        body: JSON.stringify({
          return_url: input.callbackUrl,
          website_url: websiteUrl,
          amount: input.amount,
          purchase_order_id: input.reference,
          purchase_order_name: input.productName,
        }),
      })
      // 400 is Khalti refusing this payment (an amount under Rs 10, say): the customer can act on
      // it. 401/403 are our keys, anything else is Khalti being down: neither is the customer's.
      if (res.status === 400) {
        const message = khaltiMessage(readBody(res.body) ?? {})
        if (message) throw new GatewayRefused(message)
      }
      if (res.status !== 200) throw new GatewayUnavailable(`Khalti initiate answered ${res.status}`)
      const body = parseJson(res.body)
      if (typeof body.pidx !== 'string' || typeof body.payment_url !== 'string') {
        throw new GatewayUnavailable('Khalti initiate answered without pidx/payment_url')
      }
      return { paymentUrl: body.payment_url, session: body.pidx }
    },

    parseCallback(params) {
      if (!params.pidx || !params.purchase_order_id) throw new CallbackRejected('missing pidx or purchase_order_id')
      const stated = [params.total_amount, params.amount].filter((a) => a !== undefined && a !== '')
      if (stated.some((a) => !/^\d+$/.test(a)) || new Set(stated).size > 1) {
        throw new CallbackRejected('amount and total_amount disagree')
      }
      const status = params.status
      return {
        reference: params.purchase_order_id,
        session: params.pidx,
        outcome:
          status === 'Completed' ? 'success' : status === 'Pending' || status === 'Initiated' ? 'pending' : 'failure',
        amount: stated.length ? Number(stated[0]) : null,
        signed: true,
        raw: params,
      }
    },

    async verify(payment) {
      if (!payment.session) return { status: 'not_found', amount: null, transactionId: null, raw: null }
      const res = await transport({
        method: 'POST',
        url: `${config.baseUrl}/epayment/lookup/`,
        headers,
        body: JSON.stringify({ pidx: payment.session }),
      })
      if (res.status >= 500 || res.status === 401 || res.status === 403 || res.status === 429) {
        throw new GatewayUnavailable(`Khalti lookup answered ${res.status}`)
      }
      const body = parseJson(res.body)
      if (body.status === undefined) {
        // {"detail": "Not found.", "error_key": "validation_error"}: Khalti has no such pidx.
        if (res.status === 404 || body.detail === 'Not found.') {
          return { status: 'not_found', amount: null, transactionId: null, raw: body }
        }
        throw new GatewayUnavailable(`Khalti lookup answered ${res.status} without a status`)
      }
      if (body.pidx !== payment.session) throw new GatewayUnavailable('Khalti lookup answered about another pidx')
      const amount = typeof body.total_amount === 'number' ? body.total_amount : null
      const transactionId = body.transaction_id ? String(body.transaction_id) : null
      const word = String(body.status)
      return { status: LOOKUP[word] ?? 'pending', amount, transactionId, reason: word, raw: body }
    },
  }
}
