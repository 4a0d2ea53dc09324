import { type Selectable, sql } from 'kysely'
import type { WalletTransactions } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'

export type WalletTransactionRow = Selectable<WalletTransactions>

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
      .orderBy(sql`completed_at DESC NULLS FIRST`)
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

/** Adds to the balance; the UPDATE's row lock on the user orders concurrent changes. */
export async function addToBalance(trx: Executor, userId: number, amountPaisa: number) {
  return trx
    .updateTable('users')
    .set({ wallet_balance: sql`wallet_balance + ${amountPaisa}`, updated_at: sql`now()` })
    .where('id', '=', userId)
    .returning('wallet_balance')
    .executeTakeFirst()
}

/** Takes from the balance only when it covers the amount; undefined when it does not. */
export async function takeFromBalance(trx: Executor, userId: number, amountPaisa: number) {
  return trx
    .updateTable('users')
    .set({ wallet_balance: sql`wallet_balance - ${amountPaisa}`, updated_at: sql`now()` })
    .where('id', '=', userId)
    .where('wallet_balance', '>=', amountPaisa)
    .returning('wallet_balance')
    .executeTakeFirst()
}

/** Locks a top-up row that may still complete (pending, or failed but confirmed after all). */
export async function lockOpenTopup(trx: Executor, transactionId: number) {
  return trx
    .selectFrom('wallet_transactions')
    .select(['id', 'user_id', 'amount'])
    .where('id', '=', transactionId)
    .where('type', '=', 'topup')
    .where('status', 'in', ['pending', 'failed'])
    .forUpdate()
    .executeTakeFirst()
}

/** Completes a top-up row; completed_at is the database's transaction time, like created_at. */
export async function markTopupCompleted(trx: Executor, transactionId: number, balanceAfter: number) {
  await trx
    .updateTable('wallet_transactions')
    .set({ status: 'completed', balance_after: balanceAfter, completed_at: sql`now()` })
    .where('id', '=', transactionId)
    .execute()
}

export async function markTopupFailed(trx: Executor, transactionId: number) {
  await trx
    .updateTable('wallet_transactions')
    .set({ status: 'failed' })
    .where('id', '=', transactionId)
    .where('status', '=', 'pending')
    .execute()
}

export interface LedgerRowValues {
  userId: number
  type: 'credit' | 'topup' | 'debit'
  amount: number
  balanceAfter: number
  referenceType: string | null
  referenceId: number | null
  paymentId: number | null
  description: string
}

/** One completed ledger row; returns its id. */
export async function insertLedgerRow(trx: Executor, v: LedgerRowValues) {
  return trx
    .insertInto('wallet_transactions')
    .values({
      user_id: v.userId,
      type: v.type,
      status: 'completed',
      amount: v.amount,
      balance_after: v.balanceAfter,
      completed_at: sql`now()`,
      reference_type: v.referenceType,
      reference_id: v.referenceId,
      payment_id: v.paymentId,
      description: v.description,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}
