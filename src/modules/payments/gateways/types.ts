// What every payment gateway driver offers. A driver speaks one gateway's real protocol; in
// sandbox mode its HTTP calls go to the in-service sandbox (sandbox.ts) instead of the internet.

export type GatewayName = 'gateway_1' | 'gateway_2' | 'gateway_3'
export const GATEWAYS: readonly GatewayName[] = ['gateway_1', 'gateway_2', 'gateway_3']

export interface HttpRequest {
  method: 'GET' | 'POST'
  url: string
  headers?: Record<string, string>
  body?: string
}
export interface HttpResponse {
  status: number
  body: string
}
/** How a driver reaches its gateway's server-to-server APIs. */
export type Transport = (req: HttpRequest) => Promise<HttpResponse>

export interface InitiateInput {
  reference: string // our unique id of this payment at the gateway
  amount: number // paisa
  productName: string
  callbackUrl: string
}

export interface InitiateResult {
  paymentUrl: string
  /** The gateway's own session id when it issues one (Khalti's pidx). */
  session?: string
}

/** What a callback claims, before anything is believed. */
export interface CallbackClaim {
  reference: string
  outcome: 'success' | 'failure'
  /** Amount the callback states, in paisa (null when it states none). */
  amount: number | null
  /** The callback carries the gateway's valid signature (gateways without signatures: true). */
  signed: boolean
  session?: string
  raw: Record<string, unknown>
}

/** What the gateway's status API says about a payment. */
export interface Verification {
  status: 'completed' | 'pending' | 'failed'
  amount: number | null
  transactionId: string | null
  raw: unknown
}

export interface GatewayDriver {
  name: GatewayName
  /**
   * How long a payment link stays payable at the gateway. After this, an `initiated` payment the
   * status API still does not call completed is marked failed by reconciliation (reconcile.ts).
   */
  linkLifetimeSeconds: number
  initiate(input: InitiateInput): Promise<InitiateResult>
  /** Reads a callback; throws CallbackRejected when it is malformed. */
  parseCallback(params: Record<string, string>): CallbackClaim
  /** Asks the gateway's status API. Throws GatewayUnavailable on timeouts and errors. */
  verify(payment: { reference: string; amount: number; session: string | null }): Promise<Verification>
}

/** The gateway could not be reached or answered nonsense: nothing was changed, try again. */
export class GatewayUnavailable extends Error {}
/** A callback that is malformed or fails verification. */
export class CallbackRejected extends Error {}
