import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Invalid, NotFound, Unprocessable } from '../../lib/errors.ts'
import { formatMoney, formatRupees, toPaisa } from '../../lib/money.ts'
import {
  assertPositiveAmount,
  type BookingKind,
  isCounterGateway,
  lockBooking,
  returnPayment,
} from '../booking-core/index.ts'
import { notify } from '../notifications/index.ts'
import { type GatewayName, GatewayRefused, type Gateways, GatewayUnavailable } from './gateways/index.ts'
import { assertCanRefund } from './policy.ts'
import * as repo from './repository.ts'
import type { RefundBody } from './schemas.ts'
import { GatewayDown } from './service.ts'

export const COUNTER_GATEWAY_REFUND =
  'Gateway money taken at the desk is refunded through its gateway, never as cash or to a wallet.'

/**
 * Where a refund goes: gateway money taken at the desk always back through its gateway (a gateway
 * refund due); otherwise the way the money came unless the venue chooses the wallet for desk money
 * (from its own balance). Online money never becomes a cash-back at a desk that never held it.
 */
function refundDestination(
  payment: { recorded_by: number | null; method: string; gateway_transaction_id: string | null },
  to: 'wallet' | 'desk' | 'source' | undefined,
) {
  const desk = payment.recorded_by !== null
  if (isCounterGateway(payment)) {
    if (to === 'wallet' || to === 'desk') throw new Invalid('to', COUNTER_GATEWAY_REFUND)
    return 'gateway'
  }
  if (to === undefined) return desk ? 'desk' : 'wallet'
  if (to === 'desk' && !desk) throw new Invalid('to', 'Online money is refunded to the wallet, not at the desk.')
  if (to === 'source' && (desk || payment.method !== 'gateway_2' || !payment.gateway_transaction_id)) {
    throw new Invalid('to', 'Only a Khalti payment made online can be refunded to its source.')
  }
  return to
}

/** Where a refund went, as BookingRefunded tells the customer. */
const REFUNDED_TO: Record<ReturnType<typeof refundDestination>, string> = {
  wallet: 'to your wallet',
  desk: 'at the venue’s desk',
  source: 'to the Khalti account you paid from',
  gateway: 'through the gateway you paid with',
}

/** Khalti said no to a refund to source (a definite refusal): the refund is made again to the wallet. */
class SourceRefused extends Error {}

/**
 * Asks the gateway to refund `amount` of the payment to where it came from, as the last step of the
 * refund's transaction (everything else is written first, so what can fail after the gateway has
 * paid is only the commit). A definite refusal (Khalti 400/404) rolls the transaction back and the
 * refund is made to the wallet instead; a gateway that cannot be asked, or answers 5xx or not at
 * all, may have refunded: nothing is recorded and the answer is 502, so nothing is paid twice.
 */
async function refundAtSource(
  ctx: AppContext,
  gateways: Gateways,
  payment: {
    id: number
    method: string
    amount: number
    refunded_amount: number
    gateway_transaction_id: string | null
  },
  amount: number,
): Promise<void> {
  const driver = gateways.driver(payment.method as GatewayName)
  if (!driver.refund) throw new SourceRefused('this gateway has no refund API')
  try {
    await driver.refund({
      transactionId: payment.gateway_transaction_id!,
      amount,
      full: amount === payment.amount - payment.refunded_amount && payment.refunded_amount === 0,
    })
  } catch (err) {
    if (err instanceof GatewayRefused) {
      ctx.log.warn({ payment: payment.id, err: err.message }, 'refund to source refused; refunding to the wallet')
      throw new SourceRefused(err.message)
    }
    if (err instanceof GatewayUnavailable) {
      ctx.log.error({ payment: payment.id, err: err.message }, 'refund to source: no answer; nothing recorded')
      throw new GatewayDown()
    }
    throw err
  }
}

/**
 * A manual refund of one booking payment, in full or in part, the way the money came: an online
 * payment to the customer's wallet, a desk payment at the venue's desk (never wallet money).
 */
export async function refundPayment(
  ctx: AppContext,
  gateways: Gateways,
  user: AuthUser,
  paymentId: number,
  input: Static<typeof RefundBody>,
) {
  try {
    return await refundOnce(ctx, gateways, user, paymentId, input)
  } catch (err) {
    if (!(err instanceof SourceRefused)) throw err
    return refundOnce(ctx, gateways, user, paymentId, { ...input, to: 'wallet' })
  }
}

async function refundOnce(
  ctx: AppContext,
  gateways: Gateways,
  user: AuthUser,
  paymentId: number,
  input: Static<typeof RefundBody>,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const found = await repo.findPayment(trx, paymentId)
    if (!found || found.payable_type === 'topup') throw new NotFound()
    const kind = found.payable_type as BookingKind
    // The booking first, then its payment: the order cancelling takes them in (booking, then its
    // payments), so a refund racing a cancel waits instead of deadlocking.
    const booking = await lockBooking(trx, kind, found.payable_id)
    if (!booking) throw new NotFound()
    const payment = (await repo.findPayment(trx, paymentId, true))!
    await assertCanRefund(trx, user, booking.venue_id)
    if (!['completed', 'partially_refunded'].includes(payment.status)) {
      throw new Unprocessable('Only a completed payment can be refunded.')
    }
    const refundable = payment.amount - payment.refunded_amount
    const amount = input.amount === undefined ? refundable : toPaisa(input.amount)
    assertPositiveAmount(amount)
    if (amount > refundable) {
      throw new Invalid('amount', `The amount must not be greater than the refundable ${formatMoney(refundable)}.`)
    }
    // Online money goes back to the wallet; desk money is handed back at the desk (no wallet needed).
    const customer = payment.user_id ?? booking.user_id
    if (customer === null && payment.recorded_by === null) {
      throw new Unprocessable('This payment has no customer wallet to refund to.')
    }
    const to = refundDestination(payment, input.to)
    if (to === 'wallet' && customer === null)
      throw new Invalid('to', 'This payment has no customer wallet to refund to.')
    const description = input.reason?.trim() || `Refund for booking ${booking.booking_number}`
    await returnPayment(ctx, trx, kind, booking, payment, customer, amount, {
      description,
      applied: true,
      to,
      by: user.id,
    })
    if (customer !== null) {
      await notify(
        ctx,
        customer,
        'BookingRefunded',
        {
          message: `${formatRupees(amount)} of your payment for booking ${booking.booking_number} was refunded ${REFUNDED_TO[to]}.`,
          booking_id: booking.id,
          booking_type: kind,
          booking_number: booking.booking_number,
          venue_id: booking.venue_id,
          payment_id: payment.id,
          refund_amount: formatMoney(amount),
          refunded_to: to,
        },
        trx,
      )
    }
    if (to === 'source') await refundAtSource(ctx, gateways, payment, amount)
    return { payment: (await repo.findPayment(trx, payment.id))!, to }
  })
}
