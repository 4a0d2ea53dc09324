import type { Executor } from '../../lib/db.ts'
import { formatMoney } from '../../lib/money.ts'
import { formatDateTime } from '../../lib/time.ts'
import { type BookingKind, bookingTable, type LockedBooking } from '../booking-core/index.ts'
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

/** A payment with what it pays for: the booking's payment state, or the wallet top-up row. */
export async function paymentDetail(db: Executor, p: PaymentRow) {
  if (p.payable_type === 'topup') {
    const t = await db
      .selectFrom('wallet_transactions')
      .select(['id', 'status', 'amount', 'balance_after', 'created_at'])
      .where('id', '=', p.payable_id)
      .executeTakeFirst()
    const topup = t
      ? {
          id: t.id,
          status: t.status,
          amount: formatMoney(t.amount),
          balance_after: t.balance_after === null ? null : formatMoney(t.balance_after),
          created_at: formatDateTime(t.created_at),
        }
      : null
    return { ...paymentResource(p), booking: null, topup }
  }
  const kind = p.payable_type as BookingKind
  const b = await db
    .selectFrom(bookingTable(kind))
    .select(['id', 'booking_number', 'status', 'total_amount', 'paid_amount'])
    .where('id', '=', p.payable_id)
    .executeTakeFirst()
  return { ...paymentResource(p), booking: b ? bookingSummary({ ...b, kind }) : null, topup: null }
}
