import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { NotFound, Unprocessable } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import type { Zone } from '../../lib/zone.ts'
import { account, post, transfer } from '../ledger/index.ts'
import { type CashBackRow, findCashBack, listCashBacks, markCashBackPaid } from './repository/cash-backs.ts'

// Cash-backs: desk money (cash, or a payment staff took at the counter) refunded is handed back at
// the venue's desk, never credited to the platform wallet. Each refund of it is due until staff
// record paying it out; then the money leaves the drawer (ledger: cash-back due → desk).

export interface CashBack {
  id: number
  booking_type: string
  booking_id: number
  payment_id: number
  user_id: number | null
  amount: string
  reason: string | null
  status: 'due' | 'paid'
  paid_by: number | null
  paid_at: string | null
  created_at: string | null
}

export function cashBackResource(row: CashBackRow, zone: Zone): CashBack {
  return {
    id: row.id,
    booking_type: row.booking_type,
    booking_id: row.booking_id,
    payment_id: row.payment_id,
    user_id: row.user_id,
    amount: formatMoney(row.amount),
    reason: row.reason,
    status: row.status === 'paid' ? 'paid' : 'due',
    paid_by: row.paid_by,
    paid_at: zone.format(row.paid_at),
    created_at: zone.format(row.created_at),
  }
}

export function cashBacksOf(db: Executor, venueId: number, status: 'due' | 'paid' | 'all') {
  return listCashBacks(db, venueId, status)
}

/** Staff hand a due cash-back over: marked paid once, and the drawer's money goes down by it. */
export async function payCashBack(
  ctx: AppContext,
  trx: Executor,
  venueId: number,
  id: number,
  staffId: number,
): Promise<CashBackRow> {
  const now = ctx.clock.now()
  const paid = await markCashBackPaid(trx, venueId, id, staffId, now)
  if (!paid) {
    const found = await findCashBack(trx, venueId, id)
    if (!found) throw new NotFound()
    throw new Unprocessable('This cash-back has already been paid.')
  }
  await post(trx, {
    kind: 'cash_back',
    occurredAt: now,
    description: `Cash-back ${paid.id} paid at the desk`,
    paymentId: paid.payment_id,
    booking: { kind: paid.booking_type as 'court' | 'indoor', id: paid.booking_id },
    venueId,
    userId: paid.user_id,
    createdBy: staffId,
    lines: transfer(account.cashBackDue(venueId), account.venueDesk(venueId), paid.amount),
  })
  return paid
}
