import { formatMoney } from '../../lib/money.ts'
import type { Zone } from '../../lib/zone.ts'
import { type GatewayMethod, type LockedBooking, toPaymentRecord } from '../booking-core/index.ts'
import type { PaymentRow } from './repository.ts'

/** The payment on the wire: a booking's payment record plus what it pays for. */
export function paymentResource(p: PaymentRow, zone: Zone) {
  return { ...toPaymentRecord(p, zone), booking_type: p.payable_type, booking_id: p.payable_id }
}

/** The payment state of a booking after a payment step. */
export function bookingSummary(
  b: Pick<LockedBooking, 'id' | 'kind' | 'booking_number' | 'total_amount' | 'paid_amount'> & { status: string },
) {
  const due = Math.max(b.total_amount - b.paid_amount, 0)
  return {
    id: b.id,
    booking_type: b.kind,
    booking_number: b.booking_number,
    status: b.status,
    total_amount: formatMoney(b.total_amount),
    paid_amount: formatMoney(b.paid_amount),
    balance_due: formatMoney(due),
    is_paid: due === 0,
  }
}

/** A mismatched payment as read (queries.ts mismatchedPage): the payment and its customer. */
export type MismatchedRow = PaymentRow & { user_name: string | null; user_email: string | null }

/** A mismatched payment on the wire (MismatchedPaymentSchema); `recheckHours` is PAYMENT_RECHECK_HOURS. */
export function mismatchedResource(r: MismatchedRow, zone: Zone, recheckHours: number, now: Date) {
  const until = new Date(new Date(r.created_at).getTime() + recheckHours * 3_600_000)
  return {
    id: r.id,
    method: r.method as GatewayMethod,
    reference: r.reference ?? '',
    gateway_transaction_id: r.gateway_transaction_id,
    booking_type: r.payable_type as 'court' | 'indoor' | 'topup',
    booking_id: r.payable_id,
    amount: formatMoney(r.amount),
    gateway_amount: r.gateway_amount === null ? null : formatMoney(r.gateway_amount),
    status: 'failed' as const,
    user: r.user_id === null ? null : { id: r.user_id, name: r.user_name ?? '', email: r.user_email ?? null },
    created_at: zone.format(r.created_at),
    failed_at: zone.format(r.updated_at),
    checked_at: zone.format(r.gateway_checked_at ?? r.updated_at),
    recheck_until: zone.format(until),
    rechecking: now < until,
  }
}
