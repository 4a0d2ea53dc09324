import { hmacBase64, sameSignature } from './crypto.ts'
import { paisaToRupees, parseJson, rupeesToPaisa } from './http.ts'
import {
  type CallbackClaim,
  CallbackRejected,
  type GatewayDriver,
  GatewayUnavailable,
  type InitiateInput,
  type Transport,
} from './types.ts'

// gateway_1 = eSewa ePay v2. The customer's browser POSTs a signed form to
// {base}/api/epay/main/v2/form; eSewa redirects back to success_url?data=<base64 JSON> (signed with
// the same HMAC-SHA256 key) or to failure_url. The payment is believed only after the status API
// {base}/api/epay/transaction/status/ says COMPLETE for the same amount.

export interface EsewaConfig {
  baseUrl: string
  productCode: string
  secretKey: string
}

export const ESEWA_SIGNED_FIELDS = 'total_amount,transaction_uuid,product_code'

export function esewaSignature(secret: string, fields: Record<string, string>, signedFieldNames: string): string {
  const message = signedFieldNames
    .split(',')
    .map((name) => `${name}=${fields[name] ?? ''}`)
    .join(',')
  return hmacBase64('sha256', secret, message)
}

/** The signed form fields of a payment. */
export function esewaFormFields(config: EsewaConfig, input: InitiateInput): Record<string, string> {
  const amount = paisaToRupees(input.amount)
  const fields: Record<string, string> = {
    amount,
    tax_amount: '0',
    total_amount: amount,
    transaction_uuid: input.reference,
    product_code: config.productCode,
    product_service_charge: '0',
    product_delivery_charge: '0',
    success_url: input.callbackUrl,
    failure_url: `${input.callbackUrl}?${new URLSearchParams({ status: 'failure', transaction_uuid: input.reference })}`,
    signed_field_names: ESEWA_SIGNED_FIELDS,
  }
  fields.signature = esewaSignature(config.secretKey, fields, ESEWA_SIGNED_FIELDS)
  return fields
}

export const ESEWA_FORM_PATH = '/api/epay/main/v2/form'

export function esewaDriver(
  config: EsewaConfig,
  transport: Transport,
  /** Where the browser goes: a page that posts the form to eSewa (live) or the sandbox form itself. */
  checkoutUrl: string,
): GatewayDriver {
  return {
    name: 'gateway_1',
    // eSewa documents no expiry for the ePay v2 form; one hour is our choice (docs/payments.md).
    linkLifetimeSeconds: 3600,
    async initiate(input) {
      const fields = esewaFormFields(config, input)
      return { paymentUrl: `${checkoutUrl}?${new URLSearchParams(fields)}` }
    },

    parseCallback(params) {
      if (!params.data) {
        // The failure redirect carries no signed data; only the status API can be believed.
        if (params.status === 'failure' && params.transaction_uuid) {
          return { reference: params.transaction_uuid, outcome: 'failure', amount: null, signed: true, raw: params }
        }
        throw new CallbackRejected('missing data')
      }
      let data: Record<string, unknown>
      try {
        data = JSON.parse(Buffer.from(params.data, 'base64').toString('utf8'))
      } catch {
        throw new CallbackRejected('data is not base64 JSON')
      }
      if (!data || typeof data !== 'object') throw new CallbackRejected('data is not an object')
      const fields = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v ?? '')]))
      const names = fields.signed_field_names
      if (!names || !fields.transaction_uuid || !fields.signature) throw new CallbackRejected('unsigned data')
      const expected = esewaSignature(config.secretKey, fields, names)
      const claim: CallbackClaim = {
        reference: fields.transaction_uuid,
        outcome: fields.status === 'COMPLETE' ? 'success' : 'failure',
        amount: rupeesToPaisa(fields.total_amount),
        // The signature must cover at least the amount, the id and our product code.
        signed:
          sameSignature(expected, fields.signature) &&
          ['total_amount', 'transaction_uuid', 'product_code'].every((f) => names.split(',').includes(f)) &&
          fields.product_code === config.productCode,
        raw: data,
      }
      return claim
    },

    async verify(payment) {
      const query = new URLSearchParams({
        product_code: config.productCode,
        total_amount: paisaToRupees(payment.amount),
        transaction_uuid: payment.reference,
      })
      const res = await transport({ method: 'GET', url: `${config.baseUrl}/api/epay/transaction/status/?${query}` })
      if (res.status >= 500) throw new GatewayUnavailable(`eSewa status API answered ${res.status}`)
      const body = parseJson(res.body)
      if (body.transaction_uuid !== undefined && body.transaction_uuid !== payment.reference) {
        return { status: 'failed', amount: null, transactionId: null, raw: body }
      }
      const status = String(body.status ?? '')
      const amount = rupeesToPaisa(body.total_amount)
      const transactionId = body.ref_id ? String(body.ref_id) : null
      if (status === 'COMPLETE') return { status: 'completed', amount, transactionId, raw: body }
      if (status === 'PENDING' || status === 'AMBIGUOUS' || status === '') {
        return { status: 'pending', amount, transactionId, raw: body }
      }
      return { status: 'failed', amount, transactionId, raw: body }
    },
  }
}
