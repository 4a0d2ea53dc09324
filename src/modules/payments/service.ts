import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { AppError, Unprocessable } from '../../lib/errors.ts'
import {
  type BookingKind,
  lockBooking,
  lockCustomerHolds,
  movePayment,
  newPayment,
  receivePayment,
  setPaymentIntent,
} from '../booking-core/index.ts'
import { failTopup } from '../wallet/index.ts'
import {
  CallbackRejected,
  type GatewayName,
  GatewayRefused,
  type Gateways,
  GatewayUnavailable,
} from './gateways/index.ts'
import { assertCanPay } from './policy.ts'
import * as repo from './repository.ts'
import { bookingSummary, paymentResource } from './resource.ts'
import type { InitiateBody } from './schemas.ts'
import { NOT_VERIFIED, outcomeOf, type SettleResult, settleWithGateway } from './settle.ts'

export { NOT_VERIFIED }

export const GATEWAY_DOWN = 'The payment gateway is not available. Please try again.'

/** 502: the gateway could not be reached; nothing changed. */
export class GatewayDown extends AppError {
  constructor() {
    super(502, GATEWAY_DOWN)
  }
}

export async function initiatePayment(
  ctx: AppContext,
  gateways: Gateways,
  user: AuthUser,
  input: Static<typeof InitiateBody>,
) {
  const kind = input.booking_type ?? 'court'
  if (input.method === 'wallet') {
    const paid = await payByWallet(ctx, user, kind, input.booking_id)
    ctx.metrics.payments.inc({ gateway: 'wallet', outcome: 'completed' })
    return paid
  }
  if (input.method === 'cash') {
    const booking = await ctx.db.transaction().execute(async (trx) => {
      // The customer's lock before the booking's: the intent may hold a lapsed hold again (setPaymentIntent).
      await lockCustomerHolds(trx, user.id)
      const booking = await lockBooking(trx, kind, input.booking_id)
      assertCanPay(booking, user)
      await setPaymentIntent(ctx, trx, kind, booking.id, 'cash', 'method')
      return booking
    })
    return {
      kind: 'cash' as const,
      message: 'Pay in cash at the venue. The booking stays pending until the venue records the payment.',
      booking: bookingSummary(booking),
    }
  }
  return payByGateway(ctx, gateways, user, kind, input.booking_id, input.method, input.return_url)
}

/** Wallet: the balance due debited and received (receivePayment), all in one transaction. */
async function payByWallet(ctx: AppContext, user: AuthUser, kind: BookingKind, bookingId: number) {
  return ctx.db.transaction().execute(async (trx) => {
    const booking = await lockBooking(trx, kind, bookingId)
    assertCanPay(booking, user)
    const due = booking.total_amount - booking.paid_amount
    const received = await receivePayment(ctx, trx, booking, { way: 'wallet', userId: user.id, amount: due })
    return {
      kind: 'wallet' as const,
      message: 'Payment successful.',
      payment: paymentResource(received.payment, ctx.zone),
      booking: bookingSummary(received.booking),
    }
  })
}

async function payByGateway(
  ctx: AppContext,
  gateways: Gateways,
  user: AuthUser,
  kind: BookingKind,
  bookingId: number,
  method: GatewayName,
  returnUrl: string | undefined,
) {
  const { payment, booking } = await ctx.db.transaction().execute(async (trx) => {
    // The customer's lock before the booking's: the intent may hold a lapsed hold again (setPaymentIntent).
    await lockCustomerHolds(trx, user.id)
    const booking = await lockBooking(trx, kind, bookingId)
    assertCanPay(booking, user)
    const payment = await newPayment(ctx, trx, {
      user_id: user.id,
      payable_type: kind,
      payable_id: booking.id,
      method,
      amount: booking.total_amount - booking.paid_amount,
      status: 'initiated',
      return_url: returnUrl ?? null,
    })
    await setPaymentIntent(ctx, trx, kind, booking.id, method, 'method')
    return { payment, booking }
  })
  const paymentUrl = await startAtGateway(ctx, gateways, payment, `Booking ${booking.booking_number}`)
  return { kind: 'gateway' as const, payment: paymentResource(payment, ctx.zone), paymentUrl }
}

/** A gateway payment row for a wallet top-up (the wallet feature starts top-ups through this). */
export async function createTopupPayment(
  ctx: AppContext,
  trx: Executor,
  input: { userId: number; transactionId: number; method: GatewayName; amount: number; returnUrl: string | null },
) {
  return newPayment(ctx, trx, {
    user_id: input.userId,
    payable_type: 'topup',
    payable_id: input.transactionId,
    method: input.method,
    amount: input.amount,
    status: 'initiated',
    return_url: input.returnUrl,
  })
}

/** Opens the payment at its gateway (network, outside any transaction); returns payment_url. */
export async function startAtGateway(
  ctx: AppContext,
  gateways: Gateways,
  payment: repo.PaymentRow,
  productName: string,
): Promise<string> {
  const name = payment.method as GatewayName
  try {
    const started = await gateways.driver(name).initiate({
      reference: payment.reference!,
      amount: payment.amount,
      productName,
      callbackUrl: gateways.callbackUrl(name),
    })
    await repo.setGatewaySession(ctx.db, payment.id, started.session, ctx.clock.now())
    return started.paymentUrl
  } catch (err) {
    if (!(err instanceof GatewayUnavailable) && !(err instanceof GatewayRefused)) throw err
    await ctx.db.transaction().execute(async (trx) => {
      const now = ctx.clock.now()
      // Refused at initiate: no status check, so it is never asked about again.
      await movePayment(trx, payment.id, { event: 'fail', set: repo.failedColumns({ error: err.message }, now) }, now)
      if (payment.payable_type === 'topup') await failTopup(trx, payment.payable_id)
    })
    // The gateway's own reason ("Amount should be greater than Rs. 10…") is the customer's to read.
    if (err instanceof GatewayRefused) throw new Unprocessable(err.message)
    throw new GatewayDown()
  }
}

export type CallbackResult = SettleResult

/**
 * A gateway's callback. The callback names a payment; the gateway's status API decides what
 * happened to it. Anything forged or mismatched is 422 and changes nothing: an unknown reference, a
 * bad signature, another attempt's session, a stated amount that is not the payment's, or a claim
 * of success (or, on a settled payment, of the opposite outcome) that the gateway or our record
 * does not bear out. A failure redirect never fails a payment by itself: only a final "failed"
 * from the status API does; "pending" and "not found" leave it initiated until its link expired.
 * Settling goes through settleWithGateway, the path the status checks and reconciliation share;
 * the payment's status moves only through movePayment's conditional UPDATE, so a replayed or concurrent
 * callback changes nothing twice.
 */
export async function settleCallback(
  ctx: AppContext,
  gateways: Gateways,
  name: GatewayName,
  params: Record<string, string>,
): Promise<CallbackResult> {
  const driver = gateways.driver(name)
  let claim: ReturnType<typeof driver.parseCallback>
  try {
    claim = driver.parseCallback(params)
  } catch (err) {
    if (err instanceof CallbackRejected) throw new Unprocessable(NOT_VERIFIED)
    throw err
  }
  const payment = await repo.findByReference(ctx.db, name, claim.reference)
  if (!payment || !claim.signed) throw new Unprocessable(NOT_VERIFIED)
  const session = repo.sessionOf(payment)
  if (session && claim.session && session !== claim.session) throw new Unprocessable(NOT_VERIFIED)
  if (claim.amount !== null && claim.amount !== payment.amount) throw new Unprocessable(NOT_VERIFIED)
  if (payment.status !== 'initiated') {
    const settled = outcomeOf(payment)
    if (claim.outcome === 'failure' && settled === 'completed') throw new Unprocessable(NOT_VERIFIED)
    // A success claimed for a failed payment is a late success: settleWithGateway asks the gateway
    // and completes it only when the gateway confirms, else 422. Anything else changes nothing.
    if (!(claim.outcome === 'success' && settled === 'failed')) return { status: settled, payment }
  }
  try {
    return await settleWithGateway(ctx, gateways, payment, claim, ctx.clock.now())
  } catch (err) {
    if (err instanceof GatewayUnavailable) throw new GatewayDown()
    throw err
  }
}
