import { hmacHex, sameSignature } from './crypto.ts'
import { paisaToRupees, rupeesToPaisa } from './http.ts'
import { CallbackRejected, type GatewayDriver, GatewayUnavailable, type Transport } from './types.ts'

// gateway_3 = Fonepay web payment (Technical Specification Document, Fonepay Web Integration 2.0).
// The browser is redirected to {base}/api/merchantRequest with PID, MD, PRN, AMT, CRN, DT, R1, R2,
// RU and DV = hex HMAC-SHA512 of those values joined by commas. Fonepay returns to RU with PRN, PID,
// PS, RC, UID, BC, INI, P_AMT, R_AMT and DV over those. R_AMT is the amount we requested; P_AMT is
// what the customer paid, lower when Fonepay grants a discount. The payment is believed after
// {base}/api/merchantRequest/verificationMerchant (DV over PID,AMT,PRN,BID,UID) says success.

export interface FonepayConfig {
  baseUrl: string
  merchantCode: string
  secretKey: string
}

export const FONEPAY_REQUEST_FIELDS = ['PID', 'MD', 'PRN', 'AMT', 'CRN', 'DT', 'R1', 'R2', 'RU'] as const
export const FONEPAY_CALLBACK_FIELDS = ['PRN', 'PID', 'PS', 'RC', 'UID', 'BC', 'INI', 'P_AMT', 'R_AMT'] as const
export const FONEPAY_VERIFY_FIELDS = ['PID', 'AMT', 'PRN', 'BID', 'UID'] as const

export function fonepayDv(secret: string, fields: Record<string, string>, names: readonly string[]): string {
  return hmacHex('sha512', secret, names.map((n) => fields[n] ?? '').join(',')).toUpperCase()
}

/** MM/DD/YYYY of a venue-local date (YYYY-MM-DD). */
function fonepayDate(date: string): string {
  const [y, m, d] = date.split('-')
  return `${m}/${d}/${y}`
}

/** Reads a tag of Fonepay's XML (or JSON) verification answer. */
function field(body: string, name: string): string | null {
  const xml = new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)
  if (xml) return xml[1].trim()
  try {
    const json = JSON.parse(body)
    return json && json[name] !== undefined ? String(json[name]) : null
  } catch {
    return null
  }
}

/** `today` is the venue-local date (YYYY-MM-DD) of now: the request's DT. */
export function fonepayDriver(config: FonepayConfig, transport: Transport, today: () => string): GatewayDriver {
  return {
    name: 'gateway_3',
    // Fonepay documents no expiry for a web payment request; one hour is our choice.
    linkLifetimeSeconds: 3600,
    async initiate(input) {
      const fields: Record<string, string> = {
        PID: config.merchantCode,
        MD: 'P',
        PRN: input.reference,
        AMT: paisaToRupees(input.amount),
        CRN: 'NPR',
        DT: fonepayDate(today()),
        R1: input.productName.replace(/[^\w .-]/g, ' ').slice(0, 160),
        R2: 'N/A',
        RU: input.callbackUrl,
      }
      fields.DV = fonepayDv(config.secretKey, fields, FONEPAY_REQUEST_FIELDS)
      return { paymentUrl: `${config.baseUrl}/api/merchantRequest?${new URLSearchParams(fields)}` }
    },

    parseCallback(params) {
      if (!params.PRN || !params.DV) throw new CallbackRejected('missing PRN or DV')
      const requested = rupeesToPaisa(params.R_AMT)
      if (requested === null) throw new CallbackRejected('R_AMT is not an amount')
      const expected = fonepayDv(config.secretKey, params, FONEPAY_CALLBACK_FIELDS)
      return {
        reference: params.PRN,
        session: params.UID,
        outcome: params.PS === 'true' ? 'success' : 'failure',
        // The requested amount must be ours; the paid amount may be lower (a Fonepay discount).
        amount: requested,
        paidAmount: rupeesToPaisa(params.P_AMT),
        signed: sameSignature(expected, params.DV.toUpperCase()) && params.PID === config.merchantCode,
        raw: params,
      }
    },

    async verify(payment) {
      const fields: Record<string, string> = {
        PID: config.merchantCode,
        AMT: paisaToRupees(payment.amount),
        PRN: payment.reference,
        BID: '',
        UID: payment.session ?? '',
      }
      fields.DV = fonepayDv(config.secretKey, fields, FONEPAY_VERIFY_FIELDS)
      const res = await transport({
        method: 'GET',
        url: `${config.baseUrl}/api/merchantRequest/verificationMerchant?${new URLSearchParams(fields)}`,
      })
      if (res.status >= 500) throw new GatewayUnavailable(`Fonepay verification answered ${res.status}`)
      const success = field(res.body, 'success')
      const code = field(res.body, 'response_code')
      // <amount> is the requested amount of the transaction, <txnAmount> what was paid (lower after
      // a discount); an answer with only <txnAmount> states both.
      const paidAmount = rupeesToPaisa(field(res.body, 'txnAmount'))
      const amount = rupeesToPaisa(field(res.body, 'amount')) ?? paidAmount
      const transactionId = field(res.body, 'uniqueId')
      const base = { amount, paidAmount, transactionId, reason: code ?? undefined, raw: res.body }
      if (success === 'true' && code === 'successful') return { status: 'completed', ...base }
      if (code === 'pending') return { status: 'pending', ...base }
      if (success === null && code === null) throw new GatewayUnavailable('Fonepay verification answer unreadable')
      // Fonepay answers an unknown PRN/UID with success=false like a failed one; without a UID (no
      // callback seen) it cannot be told apart from a payment never made.
      if (!payment.session) return { status: 'not_found', ...base }
      return { status: 'failed', ...base }
    },
  }
}
