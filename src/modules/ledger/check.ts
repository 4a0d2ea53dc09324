import type { Executor } from '../../lib/db.ts'
import { formatMoney } from '../../lib/money.ts'
import { kindOf, NEVER_NEGATIVE, normalBalance } from './accounts.ts'
import {
  accountSums,
  bookingMismatches,
  entryCount,
  unbalancedEntries,
  unclassifiedKinds,
  walletMismatches,
  walletRowMismatches,
} from './repository.ts'

// The trial balance, and the checks `npm run ledger -- check` and the admin route run: the books
// balance, and every balance the API shows agrees with them.

export interface TrialBalance {
  balanced: boolean
  debits: string
  credits: string
  entries: number
  accounts: Array<{ account: string; kind: string; balance: string }>
}

export async function trialBalance(db: Executor): Promise<TrialBalance> {
  const [sums, entries, unbalanced] = await Promise.all([accountSums(db), entryCount(db), unbalancedEntries(db)])
  let debits = 0
  let credits = 0
  for (const s of sums) {
    debits += s.debits
    credits += s.credits
  }
  return {
    balanced: debits === credits && unbalanced.length === 0,
    debits: formatMoney(debits),
    credits: formatMoney(credits),
    entries,
    accounts: sums.map((s) => ({
      account: s.account,
      kind: kindOf(s.account),
      balance: formatMoney(normalBalance(s.account, s.sum)),
    })),
  }
}

export interface LedgerCheck extends TrialBalance {
  problems: string[]
}

/** The trial balance plus every disagreement found; `problems` is empty when all is well. */
export async function checkLedger(db: Executor): Promise<LedgerCheck> {
  const tb = await trialBalance(db)
  const problems: string[] = []
  if (tb.debits !== tb.credits) problems.push(`debits ${tb.debits} ≠ credits ${tb.credits}`)
  for (const id of await unbalancedEntries(db)) problems.push(`entry ${id} does not balance`)
  for (const a of tb.accounts) {
    if (a.kind === 'unknown') problems.push(`account ${a.account} is not in the chart of accounts`)
    if (NEVER_NEGATIVE.has(kindOf(a.account)) && a.balance.startsWith('-')) {
      problems.push(`account ${a.account} is negative: ${a.balance}`)
    }
  }
  for (const k of await unclassifiedKinds(db)) {
    problems.push(`entry kind ${k.kind} (${k.n} entries) is not classified (src/modules/ledger/kinds.ts)`)
  }
  for (const w of await walletMismatches(db)) {
    problems.push(`user ${w.user_id}: wallet_balance ${formatMoney(w.stored)} ≠ ledger ${formatMoney(w.ledger)}`)
  }
  for (const r of await walletRowMismatches(db)) {
    if (r.entryId === null) problems.push(`wallet transaction ${r.rowId} (${r.account}) has no ledger entry`)
    else if (r.rowId === null) problems.push(`entry ${r.entryId} on ${r.account} has no wallet transaction`)
    else {
      problems.push(
        `wallet transaction ${r.rowId}: ${r.type} ${formatMoney(r.rowAmount ?? 0)} ≠ entry ${r.entryId} on ${r.account}: ${formatMoney(r.line ?? 0)}`,
      )
    }
  }
  for (const b of await bookingMismatches(db)) {
    problems.push(`${b.kind} booking ${b.id}: paid_amount ${formatMoney(b.stored)} ≠ ledger ${formatMoney(b.ledger)}`)
  }
  return { ...tb, balanced: tb.balanced && problems.length === 0, problems }
}
