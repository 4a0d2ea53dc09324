import type { Executor } from '../../lib/db.ts'
import { NotFound, Unprocessable } from '../../lib/errors.ts'
import { account, type EntryKind, type Line, post } from '../ledger/index.ts'
import {
  addToBalance,
  insertLedgerRow,
  lockOpenTopup,
  markTopupCompleted,
  markTopupFailed,
  takeFromBalance,
} from './repository.ts'

// What other features call to move money. The wallet is an append-only ledger. `users.wallet_balance`
// changes only through the conditional UPDATEs of the repository, and every change writes exactly one
// completed `wallet_transactions` row carrying balance_after, so balance == signed sum of completed
// rows always holds. Every change is also one balanced entry of the double-entry ledger (the
// `wallet:{user}` account against the `contra` the caller names: where the money came from or went),
// so no money enters or leaves a wallet without a counterpart. The UPDATE's row lock on the user is
// held until the caller's transaction ends, which orders concurrent changes. `users.updated_at` is
// bookkeeping and takes the database's now().

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

/** Adds to the wallet inside the caller's transaction; writes one `credit` (or `topup`) ledger row. */
export async function creditWallet(
  trx: Executor,
  userId: number,
  amountPaisa: number,
  ref: LedgerReference,
  entry: WalletEntry,
  type: 'credit' | 'topup' = 'credit',
): Promise<{ id: number; balance_after: number }> {
  assertPositive(amountPaisa)
  const user = await addToBalance(trx, userId, amountPaisa)
  if (!user) throw new NotFound()
  await postWalletEntry(trx, userId, -amountPaisa, ref, entry)
  return ledgerRow(trx, userId, type, amountPaisa, user.wallet_balance, ref)
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
  await postWalletEntry(trx, userId, amountPaisa, ref, entry)
  return ledgerRow(trx, userId, 'debit', amountPaisa, user.wallet_balance, ref)
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
  await post(trx, {
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
  await markTopupCompleted(trx, row.id, user.wallet_balance)
  return { id: row.id, balance_after: user.wallet_balance }
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
) {
  const contra: Line[] = typeof entry.contra === 'string' ? [[entry.contra, -walletLine]] : entry.contra
  await post(trx, {
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

async function ledgerRow(
  trx: Executor,
  userId: number,
  type: 'credit' | 'topup' | 'debit',
  amount: number,
  balanceAfter: number,
  ref: LedgerReference,
) {
  const row = await insertLedgerRow(trx, {
    userId,
    type,
    amount,
    balanceAfter,
    referenceType: ref.referenceType,
    referenceId: ref.referenceId,
    paymentId: ref.paymentId ?? null,
    description: ref.description,
  })
  return { id: row.id, balance_after: balanceAfter }
}

function assertPositive(amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`wallet amount must be positive paisa: ${amount}`)
}
