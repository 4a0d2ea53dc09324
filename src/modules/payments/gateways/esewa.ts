import { hmacBase64, sameSignature } from './crypto.ts'
import { paisaToRupees, parseJson, rupeesToPaisa } from './http.ts'
import {
  type CallbackClaim,
  CallbackRejected,
  type GatewayDriver,
  GatewayUnavailable,
  type InitiateInput,
  type Transport,
  type Verification,
} from './types.ts'

// gateway_1 = eSewa ePay v2 (developer.esewa.com.np/pages/Epay). The customer's browser POSTs a
// signed form to {form}/api/epay/main/v2/form; eSewa redirects back to success_url?data=<base64
// JSON> (signed with the same HMAC-SHA256 key) or to failure_url, which carries nothing signed.
// Only the status API {status}/api/epay/transaction/status/ decides what happened.

export interface EsewaConfig {
  /** Where the browser posts the form (UAT https://rc-epay.esewa.com.np). */
  baseUrl: string
  /** The status API (UAT https://rc.esewa.com.np). */
  statusUrl: string
  productCode: string
  secretKey: string
}

export const ESEWA_SIGNED_FIELDS = 'total_amount,transaction_uuid,product_code'
export const ESEWA_FORM_PATH = '/api/epay/main/v2/form'
export const ESEWA_STATUS_PATH = '/api/epay/transaction/status/'

/** HMAC-SHA256 (base64) of `name=value,name=value` over signed_field_names, values as given. */
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

/**
 * The top-level fields of a flat JSON object with each value as it is written: strings decoded,
 * numbers and literals as their source text. eSewa signs the text it sends ("total_amount":1000.0
 * is signed as "1000.0", which JSON.parse would turn into 1000), so the signature must be checked
 * over that text. Returns null when the text is not a flat JSON object.
 */
export function rawJsonFields(text: string): Record<string, string> | null {
  const re =
    /\s*("(?:[^"\\]|\\.)*")\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)\s*(,|\})/y
  const out: Record<string, string> = {}
  const start = /^\s*\{\s*/.exec(text)
  if (!start) return null
  re.lastIndex = start[0].length
  if (text.slice(re.lastIndex).trimEnd() === '}') return out
  for (;;) {
    const m = re.exec(text)
    if (!m) return null
    try {
      const value = m[2].startsWith('"') ? (JSON.parse(m[2]) as string) : m[2]
      out[JSON.parse(m[1]) as string] = value
    } catch {
      return null
    }
    if (m[3] === '}') return text.slice(re.lastIndex).trim() === '' ? out : null
  }
}

const STATUS: Record<string, Verification['status']> = {
  COMPLETE: 'completed',
  PENDING: 'pending',
  AMBIGUOUS: 'pending', // "at a halt": hold, never guess
  PARTIAL_REFUND: 'pending', // part of the money came back: a person decides
  NOT_FOUND: 'not_found', // session expired at eSewa, nothing paid
  CANCELED: 'failed',
  FULL_REFUND: 'failed',
}

export function esewaDriver(
  config: EsewaConfig,
  transport: Transport,
  /** Where payment_url sends the browser: this service's page that POSTs the form to eSewa. */
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
        // The failure redirect is our own URL with nothing signed: it names the payment to look
        // up, nothing more.
        if (params.status === 'failure' && params.transaction_uuid) {
          return { reference: params.transaction_uuid, outcome: 'failure', amount: null, signed: true, raw: params }
        }
        throw new CallbackRejected('missing data')
      }
      const text = Buffer.from(params.data, 'base64').toString('utf8')
      const fields = rawJsonFields(text)
      if (!fields) throw new CallbackRejected('data is not a base64 JSON object')
      const names = fields.signed_field_names
      if (!names || !fields.transaction_uuid || !fields.signature) throw new CallbackRejected('unsigned data')
      const amount = rupeesToPaisa(fields.total_amount)
      if (amount === null) throw new CallbackRejected('total_amount is not an amount')
      const status = fields.status
      const claim: CallbackClaim = {
        reference: fields.transaction_uuid,
        outcome: status === 'COMPLETE' ? 'success' : status === 'PENDING' ? 'pending' : 'failure',
        amount,
        // The signature must cover at least the amount, the id and our product code.
        signed:
          sameSignature(esewaSignature(config.secretKey, fields, names), fields.signature) &&
          ['total_amount', 'transaction_uuid', 'product_code'].every((f) => names.split(',').includes(f)) &&
          fields.product_code === config.productCode,
        raw: fields,
      }
      return claim
    },

    async verify(payment) {
      const query = new URLSearchParams({
        product_code: config.productCode,
        total_amount: paisaToRupees(payment.amount),
        transaction_uuid: payment.reference,
      })
      const res = await transport({ method: 'GET', url: `${config.statusUrl}${ESEWA_STATUS_PATH}?${query}` })
      if (res.status >= 500) throw new GatewayUnavailable(`eSewa status API answered ${res.status}`)
      const body = parseJson(res.body)
      // {"code":0,"error_message":"Service is currently unavailable"} and other non-answers.
      if (body.error_message !== undefined || body.status === undefined) {
        throw new GatewayUnavailable(`eSewa status API: ${String(body.error_message ?? 'no status')}`)
      }
      if (
        (body.transaction_uuid !== undefined && String(body.transaction_uuid) !== payment.reference) ||
        (body.product_code !== undefined && String(body.product_code) !== config.productCode)
      ) {
        throw new GatewayUnavailable('eSewa status API answered about another payment')
      }
      const word = String(body.status)
      const status = STATUS[word] ?? 'pending'
      const transactionId = body.ref_id ? String(body.ref_id) : null
      return { status, amount: rupeesToPaisa(body.total_amount), transactionId, reason: word, raw: body }
    },
  }
}
