import type { Selectable } from 'kysely'
import type { WalletTransactions } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'
import { formatMoney } from '../../lib/money.ts'
import { formatDateTime } from '../../lib/time.ts'

export type WalletTransactionRow = Selectable<WalletTransactions>

export function transactionResource(t: WalletTransactionRow) {
  return {
    id: t.id,
    type: t.type,
    status: t.status,
    amount: formatMoney(t.amount),
    balance_after: t.balance_after === null ? null : formatMoney(t.balance_after),
    reference_type: t.reference_type,
    reference_id: t.reference_id,
    description: t.description,
    created_at: formatDateTime(t.created_at)!,
  }
}

export async function balanceOf(db: Executor, userId: number): Promise<number> {
  const row = await db.selectFrom('users').select('wallet_balance').where('id', '=', userId).executeTakeFirstOrThrow()
  return row.wallet_balance
}

export async function listTransactions(db: Executor, userId: number, limit: number, offset: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('wallet_transactions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('wallet_transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}

/** The `pending` ledger row of a gateway top-up; the balance moves only when the gateway confirms. */
export async function insertPendingTopup(db: Executor, userId: number, amount: number) {
  return db
    .insertInto('wallet_transactions')
    .values({ user_id: userId, type: 'topup', status: 'pending', amount, description: 'Wallet top-up' })
    .returning('id')
    .executeTakeFirstOrThrow()
}

/** Links a pending top-up to the payment that will settle it. */
export async function attachTopupPayment(db: Executor, transactionId: number, paymentId: number) {
  return db
    .updateTable('wallet_transactions')
    .set({ payment_id: paymentId })
    .where('id', '=', transactionId)
    .returningAll()
    .executeTakeFirstOrThrow()
}
