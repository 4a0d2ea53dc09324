import { Type } from 'typebox'
import { DateTime, Links, Meta, Money, Nullable } from '../../lib/schemas.ts'

export const WalletTransactionSchema = Type.Object({
  id: Type.Integer(),
  type: Type.String({ description: 'topup, debit or credit' }),
  status: Type.String({ description: 'completed; a gateway top-up is pending until the gateway confirms, or failed' }),
  amount: Money,
  balance_after: Nullable(Money),
  reference_type: Nullable(Type.String()),
  reference_id: Nullable(Type.Integer()),
  description: Nullable(Type.String()),
  created_at: DateTime,
})

export const WalletAnswer = Type.Object({
  balance: Money,
  transactions: Type.Object({ data: Type.Array(WalletTransactionSchema), links: Links, meta: Meta }),
})
