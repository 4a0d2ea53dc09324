import { Type } from 'typebox'
import { formatMoney } from '../../lib/money.ts'
import { DateTime, Money, Nullable, named, PaidStatusEnum } from '../../lib/schemas.ts'
import type { Zone } from '../../lib/zone.ts'

// A split booking on the wire (docs/payments.md, "Split payment").

export const ShareSchema = named(
  'Share',
  Type.Object({
    id: Type.Integer(),
    amount: Money,
    status: PaidStatusEnum.response,
    pay_url: Type.String({ description: 'The web app page where anyone with the link pays this share: /s/{token}' }),
    payer: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
  }),
)

export const SplitSchema = named(
  'Split',
  Type.Object({
    booking_id: Type.Integer(),
    total: Money,
    deadline: Type.String({
      description: 'YYYY-MM-DD HH:mm:ss, venue time: unpaid shares by then cancel the booking (paid ones refunded)',
    }),
    shares: Type.Array(ShareSchema),
  }),
)

/** What the /s/{token} page shows: the share, its booking and who has paid. */
export const SharePageSchema = named(
  'SharePage',
  Type.Object({
    share: ShareSchema,
    booking: Type.Object({
      id: Type.Integer(),
      booking_type: Type.String(),
      booking_number: Type.String(),
      status: Type.String(),
      venue: Type.String(),
      venue_slug: Type.String(),
      resource: Type.String({ description: 'The court (or indoor game) name' }),
      date: Type.String(),
      start_time: Type.String({ description: 'HH:mm' }),
      end_time: Type.String({ description: 'HH:mm' }),
      organizer: Type.String(),
      total: Money,
    }),
    deadline: DateTime,
    shares_total: Type.Integer(),
    shares_paid: Type.Integer(),
    paid_by: Type.Array(Type.Object({ name: Type.String(), shares: Type.Integer() })),
  }),
)

/** A share as read with its payer and its payment's status (repository shareDetails). */
export interface ShareDetail {
  id: number
  position: number
  amount: number
  token: string
  payer_id: number | null
  payer_name: string | null
  payment_id: number | null
  payment_status: string | null
}

/** unpaid; paid by its payer; refunded once its payment went back in full (the booking was cancelled). */
export function shareStatus(s: Pick<ShareDetail, 'payment_id' | 'payment_status'>): 'unpaid' | 'paid' | 'refunded' {
  if (s.payment_id === null) return 'unpaid'
  return s.payment_status === 'refunded' ? 'refunded' : 'paid'
}

export function shareResource(s: ShareDetail, appUrl: string) {
  return {
    id: s.id,
    amount: formatMoney(s.amount),
    status: shareStatus(s),
    pay_url: `${appUrl}/s/${s.token}`,
    payer: s.payer_id === null ? null : { id: s.payer_id, name: s.payer_name ?? '' },
  }
}

export function splitResource(
  split: { booking_id: number; deadline: Date },
  total: number,
  shares: ShareDetail[],
  appUrl: string,
  zone: Zone,
) {
  return {
    booking_id: split.booking_id,
    total: formatMoney(total),
    deadline: zone.format(split.deadline) ?? '',
    shares: shares.map((s) => shareResource(s, appUrl)),
  }
}
