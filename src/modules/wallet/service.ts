import type { Executor } from '../../lib/db.ts'
import { NotFound, Unprocessable } from '../../lib/errors.ts'
import { account, type EntryKind, type Line, post } from '../ledger/index.ts'
import {
  addToBalance,
  insertProjectedRow,
  lockOpenTopup,
  markTopupCompleted,
  markTopupFailed,
  takeFromBalance,
} from './repository.ts'

// What other features call to move money (docs/payments.md, "The wallet's records"). Every change
// of a wallet is one balanced entry of the double-entry ledger (the `wallet:{user}` account against
// the `contra` the caller names: where the money came from or went), so no money enters or leaves a
// wallet without a counterpart. The ledger is the wallet's record: its completed `wallet_transactions`
// row is the projection of that entry's wallet line (amount, direction, balance_after, description,
// payment read back from the books in the statement that writes the row), plus the reference the
// books do not name. `users.wallet_balance` is the guard: it changes only through the conditional
// UPDATEs of the repository (a debit only when the balance covers it, CHECK ≥ 0), and that UPDATE's
// row lock on the user, held until the caller's transaction ends, orders concurrent changes, so the
// entries of one wallet are posted one at a time. `npm run ledger -- check` verifies all three
// agree. `users.updated_at` is bookkeeping and takes the database's now().

export interface LedgerReference {
  referenceType: string | null
  referenceId: number | null
  description: string
  paymentId?: number | null
}

/**
 * The ledger side of a wallet change: the entry's kind, when it happened, and the other side of the
 * wallet line: one account taking the whole amount, or lines summing to it (a refund split between
 * the venue's balance and a gateway's promotion).
 */
export interface WalletEntry {
  kind: EntryKind
  occurredAt: Date
  contra: string | Line[]
  venueId?: number | null
  booking?: { kind: 'court' | 'indoor'; id: number } | null
  createdBy?: number | null
}

export const INSUFFICIENT_BALANCE = 'Insufficient wallet balance.'

/**
 * Adds to the wallet inside the caller's transaction; writes one completed row, `credit` (or `topup`
 * for a `topup` entry: `type` must agree with the entry's kind, the row's type is read from it).
 */
export async function creditWallet(
  trx: Executor,
  userId: number,
  amountPaisa: number,
  ref: LedgerReference,
  entry: WalletEntry,
  type: 'credit' | 'topup' = 'credit',
): Promise<{ id: number; balance_after: number }> {
  assertPositive(amountPaisa)
  if ((type === 'topup') !== (entry.kind === 'topup')) {
    throw new Error(`wallet: a ${type} row cannot project a ${entry.kind} entry`)
  }
  const user = await addToBalance(trx, userId, amountPaisa)
  if (!user) throw new NotFound()
  const entryId = await postWalletEntry(trx, userId, -amountPaisa, ref, entry)
  return projectRow(trx, userId, entryId, ref)
}

/** Takes from the wallet; throws Unprocessable('Insufficient wallet balance.') when short. */
export async function debitWallet(
  trx: Executor,
  userId: number,
  amountPaisa: number,
  ref: LedgerReference,
  entry: WalletEntry,
): Promise<{ id: number; balance_after: number }> {
  assertPositive(amountPaisa)
  // The condition, not a prior read, is what keeps the balance from going negative.
  const user = await takeFromBalance(trx, userId, amountPaisa)
  if (!user) throw new Unprocessable(INSUFFICIENT_BALANCE)
  const entryId = await postWalletEntry(trx, userId, amountPaisa, ref, entry)
  return projectRow(trx, userId, entryId, ref)
}

/**
 * Completes a pending top-up row: credits its amount and stamps balance_after. A row marked failed
 * completes too: the gateway confirmed the money after all (the payment's own conditional update
 * lets that happen once). Returns undefined when the row is already completed.
 */
export async function completeTopup(
  trx: Executor,
  transactionId: number,
  gateway: { method: string; paymentId: number; occurredAt: Date },
): Promise<{ id: number; balance_after: number } | undefined> {
  const row = await lockOpenTopup(trx, transactionId)
  if (!row) return undefined
  const user = await addToBalance(trx, row.user_id, row.amount)
  if (!user) throw new NotFound()
  const entryId = await post(trx, {
    kind: 'topup',
    occurredAt: gateway.occurredAt,
    description: 'Wallet top-up',
    paymentId: gateway.paymentId,
    userId: row.user_id,
    lines: [
      [account.gatewayClearing(gateway.method), row.amount],
      [account.wallet(row.user_id), -row.amount],
    ],
  })
  const balanceAfter = await markTopupCompleted(trx, row.id, entryId, account.wallet(row.user_id))
  return { id: row.id, balance_after: balanceAfter }
}

/** Marks a pending top-up failed (the gateway refused it); the balance does not move. */
export async function failTopup(trx: Executor, transactionId: number): Promise<void> {
  await markTopupFailed(trx, transactionId)
}

/** The double-entry side of a wallet change: `walletLine` paisa on the wallet (debit +, credit −). */
async function postWalletEntry(
  trx: Executor,
  userId: number,
  walletLine: number,
  ref: LedgerReference,
  entry: WalletEntry,
): Promise<number> {
  const contra: Line[] = typeof entry.contra === 'string' ? [[entry.contra, -walletLine]] : entry.contra
  return post(trx, {
    kind: entry.kind,
    occurredAt: entry.occurredAt,
    description: ref.description,
    paymentId: ref.paymentId ?? null,
    booking: entry.booking ?? null,
    venueId: entry.venueId ?? null,
    userId,
    createdBy: entry.createdBy ?? null,
    lines: [[account.wallet(userId), walletLine], ...contra],
  })
}

/** The completed row of a wallet entry just posted (insertProjectedRow). */
function projectRow(trx: Executor, userId: number, entryId: number, ref: LedgerReference) {
  return insertProjectedRow(trx, {
    userId,
    walletAccount: account.wallet(userId),
    entryId,
    referenceType: ref.referenceType,
    referenceId: ref.referenceId,
  })
}

function assertPositive(amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`wallet amount must be positive paisa: ${amount}`)
}
