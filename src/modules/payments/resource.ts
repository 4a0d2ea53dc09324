import { formatMoney } from '../../lib/money.ts'
import { formatDateTime } from '../../lib/time.ts'
import type { PayableBooking } from '../bookings/payable.ts'
import type { PaymentRow } from './repository.ts'

/** The payment record on the wire. */
export function paymentResource(p: PaymentRow) {
  return {
    id: p.id,
    booking_type: p.payable_type,
    booking_id: p.payable_id,
    method: p.method,
    amount: formatMoney(p.amount),
    refunded_amount: formatMoney(p.refunded_amount),
    status: p.status,
    reference: p.reference,
    paid_at: formatDateTime(p.completed_at),
    created_at: formatDateTime(p.created_at),
  }
}

/** The payment state of a booking after a payment step. */
export function bookingSummary(b: PayableBooking) {
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
