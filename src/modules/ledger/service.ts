import type { Executor } from '../../lib/db.ts'
import type { EntryKind } from './kinds.ts'
import { insertEntry } from './repository.ts'

// Posting to the ledger. Every movement of money is one call, inside the transaction that makes
// the change it records, so the books and the balances they explain commit or roll back together.

/** A line: the account and its amount in paisa, debit positive, credit negative. */
export type Line = [account: string, amount: number]

export interface Entry {
  kind: EntryKind
  occurredAt: Date
  description: string
  lines: Line[]
  paymentId?: number | null
  booking?: { kind: 'court' | 'indoor'; id: number } | null
  venueId?: number | null
  userId?: number | null
  createdBy?: number | null
}

export class UnbalancedEntry extends Error {}

/**
 * Writes one balanced entry. Lines of zero are dropped; lines must be integer paisa and sum to
 * zero (checked here for a clear error, and again by the database at insert).
 */
export async function post(trx: Executor, entry: Entry): Promise<number> {
  const lines = entry.lines.filter(([, n]) => n !== 0)
  let sum = 0
  for (const [account, n] of lines) {
    if (!Number.isSafeInteger(n)) throw new UnbalancedEntry(`ledger line ${account}: ${n} is not integer paisa`)
    sum += n
  }
  if (sum !== 0 || lines.length < 2) {
    throw new UnbalancedEntry(`ledger entry ${entry.kind} does not balance: ${JSON.stringify(lines)}`)
  }
  return insertEntry(
    trx,
    {
      kind: entry.kind,
      occurredAt: entry.occurredAt,
      description: entry.description,
      paymentId: entry.paymentId ?? null,
      bookingType: entry.booking?.kind ?? null,
      bookingId: entry.booking?.id ?? null,
      venueId: entry.venueId ?? null,
      userId: entry.userId ?? null,
      createdBy: entry.createdBy ?? null,
    },
    lines,
  )
}

/** Two lines moving `amount` from `credit` to `debit`. */
export function transfer(debit: string, credit: string, amount: number): Line[] {
  return [
    [debit, amount],
    [credit, -amount],
  ]
}
