import { localNow } from '../../../lib/time.ts'
import { hmacHex, sameSignature } from './crypto.ts'
import { paisaToRupees, rupeesToPaisa } from './http.ts'
import { CallbackRejected, type GatewayDriver, GatewayUnavailable, type Transport } from './types.ts'

// gateway_3 = Fonepay web payment. The browser is redirected to {base}/api/merchantRequest with
// PID, MD, PRN, AMT, CRN, DT, R1, R2, RU and DV = hex HMAC-SHA512 of those values joined by commas.
// Fonepay returns to RU with PRN, PID, PS, RC, UID, BC, INI, P_AMT, R_AMT and DV over those; the
// payment is believed after {base}/api/merchantRequest/verificationMerchant says success.

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

/** MM/DD/YYYY of today (venue time). */
function fonepayDate(): string {
  const [y, m, d] = localNow().date.split('-')
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

export function fonepayDriver(config: FonepayConfig, transport: Transport): GatewayDriver {
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
        DT: fonepayDate(),
        R1: input.productName.replace(/[^\w .-]/g, ' ').slice(0, 160),
        R2: 'N/A',
        RU: input.callbackUrl,
      }
      fields.DV = fonepayDv(config.secretKey, fields, FONEPAY_REQUEST_FIELDS)
      return { paymentUrl: `${config.baseUrl}/api/merchantRequest?${new URLSearchParams(fields)}` }
    },

    parseCallback(params) {
      if (!params.PRN || !params.DV) throw new CallbackRejected('missing PRN or DV')
      const expected = fonepayDv(config.secretKey, params, FONEPAY_CALLBACK_FIELDS)
      return {
        reference: params.PRN,
        session: params.UID,
        outcome: params.PS === 'true' ? 'success' : 'failure',
        amount: rupeesToPaisa(params.P_AMT),
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
      const amount = rupeesToPaisa(field(res.body, 'txnAmount'))
      const transactionId = field(res.body, 'uniqueId')
      if (success === 'true' && code === 'successful')
        return { status: 'completed', amount, transactionId, raw: res.body }
      if (code === 'pending') return { status: 'pending', amount, transactionId, raw: res.body }
      if (success === null && code === null) throw new GatewayUnavailable('Fonepay verification answer unreadable')
      return { status: 'failed', amount, transactionId, raw: res.body }
    },
  }
}
