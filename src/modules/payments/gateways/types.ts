// What every payment gateway driver offers. A driver speaks one gateway's real protocol; in
// sandbox mode its HTTP calls go to the in-service sandbox (sandbox-routes.ts) instead of the internet.

import { GATEWAY_METHODS, type GatewayMethod } from '../../booking-core/index.ts'

export type GatewayName = GatewayMethod
export const GATEWAYS: readonly GatewayName[] = GATEWAY_METHODS

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

/**
 * What a callback claims, before anything is believed. A callback only names a payment and what
 * the customer saw; the gateway's status API decides what happened to it.
 */
export interface CallbackClaim {
  reference: string
  outcome: 'success' | 'failure' | 'pending'
  /** Amount the payment was requested for, as the callback states it, in paisa (null: not stated). */
  amount: number | null
  /** Amount the customer actually paid when the gateway says (Fonepay's P_AMT after a discount). */
  paidAmount?: number | null
  /**
   * False when the callback fails its gateway's signature check. Callbacks a gateway never signs
   * (Khalti's redirect, eSewa's failure redirect) are true: nothing in them is believed anyway.
   */
  signed: boolean
  /** The gateway's own id of this attempt, as the callback states it (Khalti pidx, Fonepay UID). */
  session?: string
  raw: Record<string, unknown>
}

/**
 * What the gateway's status API says about a payment (the one "look up this payment at the
 * gateway" call; callbacks and reconciliation both use it):
 * - completed: the gateway holds the money; `amount` is the amount it confirms, in paisa;
 * - pending: started, not finished (or a state that needs a person: ambiguous, partly refunded);
 * - not_found: the gateway does not know this payment (never opened, or its session died unpaid);
 * - failed: final and unpaid: cancelled, expired, refunded (`reason` is the gateway's word).
 */
export interface Verification {
  status: 'completed' | 'pending' | 'not_found' | 'failed'
  amount: number | null
  /** The amount the customer paid when the gateway reports one that differs (Fonepay discount). */
  paidAmount?: number | null
  transactionId: string | null
  reason?: string
  raw: unknown
}

export interface GatewayDriver {
  name: GatewayName
  /**
   * The gateway's session id comes from initiate and is stored (Khalti's pidx): a callback's
   * unsigned session is then never used to look a payment up, only compared.
   */
  sessionFromInitiate?: boolean
  /**
   * How long a payment link stays payable at the gateway. After this, an `initiated` payment the
   * status API still does not call completed is marked failed by the settle path (settle.ts).
   */
  linkLifetimeSeconds: number
  initiate(input: InitiateInput): Promise<InitiateResult>
  /** Reads a callback; throws CallbackRejected when it is malformed. */
  parseCallback(params: Record<string, string>): CallbackClaim
  /**
   * Looks this payment up at the gateway's status API. Throws GatewayUnavailable on timeouts,
   * errors and answers that are about another payment or unreadable.
   */
  verify(payment: { reference: string; amount: number; session: string | null }): Promise<Verification>
  /**
   * Refunds a completed payment to its source (the customer's Khalti wallet or bank), in full or in
   * part (`amount` paisa; `full` when it is everything left). Only gateways with a refund API have
   * it. Throws GatewayRefused when the gateway says no, GatewayUnavailable when it cannot be asked.
   */
  refund?(payment: { transactionId: string; amount: number; full: boolean }): Promise<void>
}

/** The gateway could not be reached or answered nonsense: nothing was changed, try again. */
export class GatewayUnavailable extends Error {}
/** The gateway refused to start a payment for a reason the customer can act on (Khalti 400). */
export class GatewayRefused extends Error {}
/** A callback that is malformed or fails verification. */
export class CallbackRejected extends Error {}
