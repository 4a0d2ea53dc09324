import type { Executor } from '../../lib/db.ts'
import { account } from './accounts.ts'
import { discountCredited, platformDiscountOf } from './repository.ts'
import { post } from './service.ts'

// Who funds a discount: a venue's coupon is the venue's own price cut (it simply receives less);
// a platform coupon (super admin, no venue) is funded by the platform, so the venue is credited the
// undiscounted price. The platform's part follows what the booking has been paid: the share of the
// discount for the paid share of the total, posted as the difference from what was credited before
// (a refund lowers it again), so a booking paid in full and kept gives the venue the whole discount.
// A booking the coupon makes free (total 0) has nothing to pay: the platform pays the whole discount
// when it is confirmed (`freeKept`) and takes it back when it is cancelled.

export async function syncPlatformDiscount(
  trx: Executor,
  booking: { kind: 'court' | 'indoor'; id: number; venueId: number; paid: number; total: number; freeKept?: boolean },
  occurredAt: Date,
): Promise<number> {
  // A used coupon is never deleted (409), so a booking without a platform discount now never had one.
  const discount = await platformDiscountOf(trx, booking.kind, booking.id)
  if (discount === 0) return 0
  const code = account.venueBalance(booking.venueId)
  const credited = await discountCredited(trx, booking.kind, booking.id, code)
  const paid = Math.max(0, Math.min(booking.paid, booking.total))
  const target = booking.total > 0 ? Math.floor((discount * paid) / booking.total) : booking.freeKept ? discount : 0
  const diff = target - credited
  if (diff === 0) return 0
  await post(trx, {
    kind: 'platform_discount',
    occurredAt,
    description:
      diff > 0
        ? 'Platform coupon: the discount, paid by the platform'
        : 'Platform coupon: discount taken back on a refund',
    booking: { kind: booking.kind, id: booking.id },
    venueId: booking.venueId,
    lines: [
      [account.platformDiscounts(), diff],
      [code, -diff],
    ],
  })
  return diff
}
