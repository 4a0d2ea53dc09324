import { type Static, Type } from 'typebox'
import type { Executor } from '../../lib/db.ts'
import { formatMoney } from '../../lib/money.ts'
import { DateTime, errorResponses, Money, Nullable, named } from '../../lib/schemas.ts'
import type { Zone } from '../../lib/zone.ts'
import { CouponTypeEnum } from '../coupons/index.ts'
import { PaymentMethodEnum, PaymentStatusEnum } from './enums.ts'
import { paymentsFor } from './payment-records.ts'
import { chargeRowsOf, couponUsageRowsOf } from './queries.ts'
import type { BookingKind } from './repository/bookings.ts'

// Pieces both booking resources embed (court bookings here, indoor-game bookings in
// indoor-bookings): payment history, extra session charges, the coupon usage and the money fields.
// Every loader takes many booking ids at once, so a list costs one query per piece, not per row.

export type { BookingKind } from './repository/bookings.ts'

/** The error answers of both kinds' booking routes: 422 bodies are validation errors (message + errors) or a refusal with a message only. */
export const bookingErrors = {
  ...errorResponses,
  422: Type.Object({
    message: Type.String(),
    errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
  }),
}

/** PATCH …/status, both kinds: what the state machine allows (booking-core/state.ts). */
export const STATUS_CHANGE_DOC =
  'confirmed → playing → completed; pending|confirmed → cancelled (paid amount refunded to the wallet); ' +
  'pending|confirmed → no_show only after the start time. Anything else is 422 with errors.status.'

export const PaymentRecordSchema = named(
  'BookingPayment',
  Type.Object({
    id: Type.Integer(),
    method: PaymentMethodEnum.response,
    amount: Money,
    refunded_amount: Money,
    status: PaymentStatusEnum.response,
    reference: Nullable(Type.String()),
    paid_at: Nullable(DateTime),
    created_at: Nullable(DateTime),
    unverified: Type.Boolean({
      description:
        'A gateway payment staff recorded at the desk by a typed reference, before desk gateway payments were ' +
        'confirmed by the gateway: nobody verified the money (docs/payments.md, "Gateway payments at the desk")',
    }),
  }),
)

export const ChargeSchema = named(
  'BookingCharge',
  Type.Object({
    id: Type.Integer(),
    description: Type.String(),
    amount: Money,
    created_at: DateTime,
  }),
)
export type Charge = Static<typeof ChargeSchema>

export const CouponUsageSchema = named(
  'CouponUsage',
  Type.Object({
    id: Type.Integer(),
    code: Type.String(),
    type: CouponTypeEnum.response,
    discount_amount: Money,
    created_at: Nullable(DateTime),
  }),
)
export type CouponUsage = Static<typeof CouponUsageSchema>

/** The money fields of a booking resource, all derived from the stored paisa columns. */
export const bookingMoneyFields = {
  base_amount: Type.String({ description: 'Price of the slot before discount, NPR' }),
  discount_amount: Money,
  total_amount: Type.String({ description: 'Amount due: base − discount + extra charges, NPR' }),
  paid_amount: Type.String({ description: 'Paid and kept, net of refunds, NPR' }),
  refunded_amount: Type.String({ description: 'Returned of what was paid (to the wallet or at the desk), NPR' }),
  balance_due: Money,
  is_paid: Type.Boolean({ description: 'true when fully paid' }),
  extras_total: Nullable(Type.String({ description: 'Sum of extra session charges; null when there are none' })),
}

export interface MoneyColumns {
  base_amount: number
  discount_amount: number
  extras_total: number
  total_amount: number
  paid_amount: number
  refunded_amount: number
}

export function bookingMoney(b: MoneyColumns) {
  const due = Math.max(b.total_amount - b.paid_amount, 0)
  return {
    base_amount: formatMoney(b.base_amount),
    discount_amount: formatMoney(b.discount_amount),
    total_amount: formatMoney(b.total_amount),
    paid_amount: formatMoney(b.paid_amount),
    refunded_amount: formatMoney(b.refunded_amount),
    balance_due: formatMoney(due),
    is_paid: due === 0,
    extras_total: b.extras_total > 0 ? formatMoney(b.extras_total) : null,
  }
}

/** "1.50" for 90 minutes: the duration_hours field. */
export function durationHours(startTime: string, endTime: string): string {
  const [sh, sm] = startTime.split(':').map(Number)
  const [eh, em] = endTime.split(':').map(Number)
  const minutes = eh * 60 + em - (sh * 60 + sm)
  return (minutes / 60).toFixed(2)
}

/** Extra session charges of bookings of one kind, keyed by booking id (oldest first). */
export async function chargesOf(
  db: Executor,
  kind: BookingKind,
  ids: number[],
  zone: Zone,
): Promise<Map<number, Charge[]>> {
  const out = new Map<number, Charge[]>()
  if (ids.length === 0) return out
  for (const r of await chargeRowsOf(db, kind, ids)) {
    const list = out.get(r.booking_id) ?? []
    list.push({
      id: r.id,
      description: r.description,
      amount: formatMoney(r.amount),
      created_at: zone.format(r.created_at),
    })
    out.set(r.booking_id, list)
  }
  return out
}

/** The coupon applied to each booking of one kind, keyed by booking id; bookings without one are absent. */
export async function couponUsagesOf(
  db: Executor,
  kind: BookingKind,
  ids: number[],
  zone: Zone,
): Promise<Map<number, CouponUsage>> {
  const out = new Map<number, CouponUsage>()
  if (ids.length === 0) return out
  for (const r of await couponUsageRowsOf(db, kind, ids)) {
    out.set(r.booking_id, {
      id: r.id,
      code: r.code,
      type: r.type,
      discount_amount: formatMoney(r.discount_amount),
      created_at: zone.format(r.created_at),
    })
  }
  return out
}

/** payments, charges and coupon_usage of many bookings of one kind, loaded together. */
export async function loadBookingExtras(db: Executor, kind: BookingKind, ids: number[], zone: Zone) {
  const [payments, charges, coupons] = await Promise.all([
    paymentsFor(db, kind, ids, zone),
    chargesOf(db, kind, ids, zone),
    couponUsagesOf(db, kind, ids, zone),
  ])
  return {
    payments: (id: number) => payments.get(id) ?? [],
    charges: (id: number) => charges.get(id) ?? [],
    couponUsage: (id: number) => coupons.get(id) ?? null,
  }
}
