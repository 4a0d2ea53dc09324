import type { Executor } from '../../lib/db.ts'
import { formatMoney } from '../../lib/money.ts'
import type { PageParams } from '../../lib/pagination.ts'
import type { Zone } from '../../lib/zone.ts'
import { type BookingKind, bookingTable } from '../booking-core/index.ts'
import type { PaymentRow } from './repository.ts'
import { bookingSummary, type MismatchedRow, paymentResource } from './resource.ts'

/** A payment with what it pays for: the booking's payment state, or the wallet top-up row. */
export async function paymentDetail(db: Executor, p: PaymentRow, zone: Zone) {
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
          created_at: zone.format(t.created_at),
        }
      : null
    return { ...paymentResource(p, zone), booking: null, topup }
  }
  const kind = p.payable_type as BookingKind
  const b = await db
    .selectFrom(bookingTable(kind))
    .select(['id', 'booking_number', 'status', 'total_amount', 'paid_amount'])
    .where('id', '=', p.payable_id)
    .executeTakeFirst()
  return { ...paymentResource(p, zone), booking: b ? bookingSummary({ ...b, kind }) : null, topup: null }
}

/**
 * Mismatched payments (GET /admin/payments/mismatched): gateway payments failed here whose last
 * status check says the gateway holds the money (gateway_verdict `completed`: another amount, or a
 * completion that could not be applied), newest check first, with the customer.
 */
export async function mismatchedPage(db: Executor, methods: readonly string[], page: PageParams) {
  const base = db
    .selectFrom('payments as p')
    .where('p.status', '=', 'failed')
    .where('p.gateway_verdict', '=', 'completed')
    .where('p.method', 'in', [...methods])
  const [rows, count] = await Promise.all([
    base
      .leftJoin('users as u', 'u.id', 'p.user_id')
      .selectAll('p')
      .select(['u.name as user_name', 'u.email as user_email'])
      .orderBy('p.gateway_checked_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(page.perPage)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows: rows as MismatchedRow[], total: Number(count.n) }
}

/** The stored language of the customer paying the payment with merchant reference `reference`, if any. */
export async function payerLocale(db: Executor, reference: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('payments as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select('u.locale')
    .where('p.reference', '=', reference)
    .executeTakeFirst()
  return row?.locale
}
