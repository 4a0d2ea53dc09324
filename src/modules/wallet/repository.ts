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

/**
 * The money of a completed wallet row, read from the ledger (`w` the row, `l` its entry's line on the
 * wallet account): the amount, and the account's balance after that entry. Changes of one wallet
 * are posted under the user's row lock, so its entries' ids are in the order its balance moved.
 */
const BALANCE_AFTER = sql`(-(SELECT sum(x.amount) FROM ledger_lines x WHERE x.account = l.account AND x.entry_id <= l.entry_id))::bigint`

/**
 * Completes a top-up row as the projection of its entry (`entryId`, just posted): amount and
 * balance_after from its line on `wallet:{user}`; completed_at is the database's transaction time,
 * like created_at. Returns the balance after.
 */
export async function markTopupCompleted(trx: Executor, transactionId: number, entryId: number, walletAccount: string) {
  const { rows } = await sql<{ balance_after: string }>`
    UPDATE wallet_transactions w
    SET status = 'completed', entry_id = l.entry_id, amount = abs(l.amount), balance_after = ${BALANCE_AFTER},
        completed_at = now()
    FROM ledger_lines l
    WHERE w.id = ${transactionId} AND l.entry_id = ${entryId} AND l.account = ${walletAccount}
    RETURNING w.balance_after`.execute(trx)
  if (!rows[0]) throw new Error(`wallet: entry ${entryId} has no line on ${walletAccount}`)
  return Number(rows[0].balance_after)
}

export async function markTopupFailed(trx: Executor, transactionId: number) {
  await trx
    .updateTable('wallet_transactions')
    .set({ status: 'failed' })
    .where('id', '=', transactionId)
    .where('status', '=', 'pending')
    .execute()
}

export interface ProjectedRowValues {
  userId: number
  walletAccount: string
  entryId: number
  referenceType: string | null
  referenceId: number | null
}

/**
 * The completed wallet row of an entry just posted, projected from its line on the wallet account:
 * type (`debit` for a debit line, `topup` for a top-up entry, else `credit`), amount, balance_after,
 * description and payment come from the ledger; only what the books do not name (the reference)
 * from the caller. Returns its id and balance_after.
 */
export async function insertProjectedRow(trx: Executor, v: ProjectedRowValues) {
  const { rows } = await sql<{ id: string; balance_after: string }>`
    INSERT INTO wallet_transactions
      (user_id, type, status, amount, balance_after, completed_at, reference_type, reference_id, payment_id, description, entry_id)
    SELECT ${v.userId}::bigint,
      CASE WHEN l.amount > 0 THEN 'debit' WHEN e.kind = 'topup' THEN 'topup' ELSE 'credit' END,
      'completed', abs(l.amount), ${BALANCE_AFTER}, now(), ${v.referenceType}::text, ${v.referenceId}::bigint,
      e.payment_id, e.description, e.id
    FROM ledger_entries e JOIN ledger_lines l ON l.entry_id = e.id AND l.account = ${v.walletAccount}
    WHERE e.id = ${v.entryId}
    RETURNING id, balance_after`.execute(trx)
  if (!rows[0]) throw new Error(`wallet: entry ${v.entryId} has no line on ${v.walletAccount}`)
  return { id: Number(rows[0].id), balance_after: Number(rows[0].balance_after) }
}
