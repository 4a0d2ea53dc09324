import { formatMoney } from '../../lib/money.ts'
import type { Zone } from '../../lib/zone.ts'
import { type LockedBooking, toPaymentRecord } from '../booking-core/index.ts'
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
