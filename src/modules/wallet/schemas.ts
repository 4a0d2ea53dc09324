import { Type } from 'typebox'
import { DateTime, Enum, Links, Meta, Money, Nullable, named, namedEnum } from '../../lib/schemas.ts'

/** completed; a gateway top-up is pending until the gateway confirms, or failed. */
export const WalletTransactionStatusEnum = namedEnum('WalletTransactionStatus', ['completed', 'pending', 'failed'])

export const WalletTransactionSchema = named(
  'WalletTransaction',
  Type.Object({
    id: Type.Integer(),
    type: Enum(['topup', 'debit', 'credit']),
    status: {
      ...WalletTransactionStatusEnum.response,
      description: 'completed; a gateway top-up is pending until the gateway confirms, or failed',
    },
    amount: Money,
    balance_after: Nullable(Money),
    reference_type: Nullable(Type.String()),
    reference_id: Nullable(Type.Integer()),
    description: Nullable(Type.String()),
    created_at: DateTime,
    completed_at: Nullable({
      ...DateTime,
      description:
        'When the balance moved (YYYY-MM-DD HH:mm:ss, venue time zone); null while pending or failed. The list is in this order, pending rows first',
    }),
  }),
)

export const WalletAnswer = Type.Object({
  balance: Money,
  transactions: Type.Object({ data: Type.Array(WalletTransactionSchema), links: Links, meta: Meta }),
})
