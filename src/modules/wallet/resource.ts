import { formatMoney } from '../../lib/money.ts'
import type { Zone } from '../../lib/zone.ts'
import type { WalletTransactionRow } from './repository.ts'

export function transactionResource(t: WalletTransactionRow, zone: Zone) {
  return {
    id: t.id,
    type: t.type,
    status: t.status,
    amount: formatMoney(t.amount),
    balance_after: t.balance_after === null ? null : formatMoney(t.balance_after),
    reference_type: t.reference_type,
    reference_id: t.reference_id,
    description: t.description,
    created_at: zone.format(t.created_at),
    completed_at: zone.format(t.completed_at),
  }
}
