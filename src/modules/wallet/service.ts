import { sql } from 'kysely'
import type { Executor } from '../../lib/db.ts'
import { NotFound, Unprocessable } from '../../lib/errors.ts'

// INTERFACE (implemented by the payments/wallet work). Other features call only these.
//
// The wallet is an append-only ledger. `users.wallet_balance` changes only through the conditional
// UPDATEs below, and every change writes exactly one completed `wallet_transactions` row carrying
// balance_after, so balance == signed sum of completed rows always holds. The UPDATE's row lock on
// the user is held until the caller's transaction ends, which orders concurrent changes.

export interface LedgerReference {
  referenceType: string | null
  referenceId: number | null
  description: string
  paymentId?: number | null
}

export const INSUFFICIENT_BALANCE = 'Insufficient wallet balance.'

/** Adds to the wallet inside the caller's transaction; writes one `credit` (or `topup`) ledger row. */
export async function creditWallet(
  trx: Executor,
  userId: number,
  amountPaisa: number,
  ref: LedgerReference,
  type: 'credit' | 'topup' = 'credit',
): Promise<{ id: number; balance_after: number }> {
  assertPositive(amountPaisa)
  const user = await trx
    .updateTable('users')
    .set({ wallet_balance: sql`wallet_balance + ${amountPaisa}`, updated_at: new Date() })
    .where('id', '=', userId)
    .returning('wallet_balance')
    .executeTakeFirst()
  if (!user) throw new NotFound()
  return insertLedgerRow(trx, userId, type, amountPaisa, user.wallet_balance, ref)
}

/** Takes from the wallet; throws Unprocessable('Insufficient wallet balance.') when short. */
export async function debitWallet(
  trx: Executor,
  userId: number,
  amountPaisa: number,
  ref: LedgerReference,
): Promise<{ id: number; balance_after: number }> {
  assertPositive(amountPaisa)
  // The condition, not a prior read, is what keeps the balance from going negative.
  const user = await trx
    .updateTable('users')
    .set({ wallet_balance: sql`wallet_balance - ${amountPaisa}`, updated_at: new Date() })
    .where('id', '=', userId)
    .where('wallet_balance', '>=', amountPaisa)
    .returning('wallet_balance')
    .executeTakeFirst()
  if (!user) throw new Unprocessable(INSUFFICIENT_BALANCE)
  return insertLedgerRow(trx, userId, 'debit', amountPaisa, user.wallet_balance, ref)
}

/**
 * Completes a pending top-up row: credits its amount and stamps balance_after. A row marked failed
 * completes too: the gateway confirmed the money after all (the payment's own conditional update
 * lets that happen once). Returns undefined when the row is already completed.
 */
export async function completeTopup(
  trx: Executor,
  transactionId: number,
): Promise<{ id: number; balance_after: number } | undefined> {
  const row = await trx
    .selectFrom('wallet_transactions')
    .select(['id', 'user_id', 'amount'])
    .where('id', '=', transactionId)
    .where('type', '=', 'topup')
    .where('status', 'in', ['pending', 'failed'])
    .forUpdate()
    .executeTakeFirst()
  if (!row) return undefined
  const user = await trx
    .updateTable('users')
    .set({ wallet_balance: sql`wallet_balance + ${row.amount}`, updated_at: new Date() })
    .where('id', '=', row.user_id)
    .returning('wallet_balance')
    .executeTakeFirstOrThrow()
  await trx
    .updateTable('wallet_transactions')
    .set({ status: 'completed', balance_after: user.wallet_balance })
    .where('id', '=', row.id)
    .execute()
  return { id: row.id, balance_after: user.wallet_balance }
}

/** Marks a pending top-up failed (the gateway refused it); the balance does not move. */
export async function failTopup(trx: Executor, transactionId: number): Promise<void> {
  await trx
    .updateTable('wallet_transactions')
    .set({ status: 'failed' })
    .where('id', '=', transactionId)
    .where('status', '=', 'pending')
    .execute()
}

async function insertLedgerRow(
  trx: Executor,
  userId: number,
  type: 'credit' | 'topup' | 'debit',
  amount: number,
  balanceAfter: number,
  ref: LedgerReference,
) {
  const row = await trx
    .insertInto('wallet_transactions')
    .values({
      user_id: userId,
      type,
      status: 'completed',
      amount,
      balance_after: balanceAfter,
      reference_type: ref.referenceType,
      reference_id: ref.referenceId,
      payment_id: ref.paymentId ?? null,
      description: ref.description,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id: row.id, balance_after: balanceAfter }
}

function assertPositive(amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`wallet amount must be positive paisa: ${amount}`)
}
