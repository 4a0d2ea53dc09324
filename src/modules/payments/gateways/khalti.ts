import { parseJson } from './http.ts'
import { CallbackRejected, type GatewayDriver, GatewayUnavailable, type Transport } from './types.ts'

// gateway_2 = Khalti ePayment. The server POSTs {base}/epayment/initiate/ with
// `Authorization: Key <secret>` and gets {pidx, payment_url}. Khalti sends the customer back to
// return_url?pidx=…&status=…&purchase_order_id=…; the callback is unsigned, so the lookup API
// ({base}/epayment/lookup/ with the pidx we stored) is the only proof. Amounts are in paisa.

export interface KhaltiConfig {
  baseUrl: string
  secretKey: string
}

export function khaltiDriver(config: KhaltiConfig, transport: Transport, websiteUrl: string): GatewayDriver {
  const headers = { authorization: `Key ${config.secretKey}`, 'content-type': 'application/json' }
  return {
    name: 'gateway_2',
    // Khalti: "payment link expires in 60 minutes" (ePayment docs).
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
      if (res.status !== 200) throw new GatewayUnavailable(`Khalti initiate answered ${res.status}`)
      const body = parseJson(res.body)
      if (typeof body.pidx !== 'string' || typeof body.payment_url !== 'string') {
        throw new GatewayUnavailable('Khalti initiate answered without pidx/payment_url')
      }
      return { paymentUrl: body.payment_url, session: body.pidx }
    },

    parseCallback(params) {
      if (!params.pidx || !params.purchase_order_id) throw new CallbackRejected('missing pidx or purchase_order_id')
      const amount = params.total_amount ?? params.amount
      return {
        reference: params.purchase_order_id,
        session: params.pidx,
        outcome: params.status === 'Completed' ? 'success' : 'failure',
        amount: amount !== undefined && /^\d+$/.test(amount) ? Number(amount) : null,
        signed: true,
        raw: params,
      }
    },

    async verify(payment) {
      if (!payment.session) return { status: 'failed', amount: null, transactionId: null, raw: null }
      const res = await transport({
        method: 'POST',
        url: `${config.baseUrl}/epayment/lookup/`,
        headers,
        body: JSON.stringify({ pidx: payment.session }),
      })
      if (res.status >= 500 || res.status === 401 || res.status === 403) {
        throw new GatewayUnavailable(`Khalti lookup answered ${res.status}`)
      }
      const body = parseJson(res.body)
      if (res.status === 404 || body.pidx !== payment.session) {
        return { status: 'failed', amount: null, transactionId: null, raw: body }
      }
      const amount = typeof body.total_amount === 'number' ? body.total_amount : null
      const transactionId = body.transaction_id ? String(body.transaction_id) : null
      const status = String(body.status ?? '')
      if (status === 'Completed') return { status: 'completed', amount, transactionId, raw: body }
      if (status === 'Pending' || status === 'Initiated') return { status: 'pending', amount, transactionId, raw: body }
      return { status: 'failed', amount, transactionId, raw: body }
    },
  }
}
