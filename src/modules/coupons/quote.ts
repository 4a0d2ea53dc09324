import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { Executor } from '../../lib/db.ts'
import { Invalid } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import { isValidDate, toMinutes } from '../../lib/time.ts'
import { quoteCourtBooking, quoteIndoorBooking } from '../availability/index.ts'
import type { ValidateBody } from './schemas.ts'
import { checkCoupon } from './service.ts'

export type ValidateInput = Static<typeof ValidateBody>

/** The slot's price before discount (the availability feature's pricing: rules, holidays) and its venue. */
async function slotPrice(db: Executor, input: ValidateInput): Promise<{ venueId: number; amount: number }> {
  const minutes = toMinutes(input.end_time) - toMinutes(input.start_time)
  const errors: Record<string, string[]> = {}
  if (!isValidDate(input.date)) errors.date = ['The date field must be a valid date.']
  if (minutes <= 0) errors.end_time = ['The end time field must be a date after start time.']
  if (input.court_id === undefined && input.indoor_game_id === undefined) {
    errors.court_id = ['The court id field is required when indoor game id is not present.']
  }
  if (Object.keys(errors).length) throw new Invalid(errors)
  const row =
    input.court_id !== undefined
      ? await db
          .selectFrom('courts')
          .select(['venue_id'])
          .where('id', '=', input.court_id)
          .where('deleted_at', 'is', null)
          .where('is_active', '=', true)
          .executeTakeFirst()
      : await db
          .selectFrom('indoor_games')
          .select(['venue_id'])
          .where('id', '=', input.indoor_game_id!)
          .where('deleted_at', 'is', null)
          .where('is_active', '=', true)
          .executeTakeFirst()
  if (!row) {
    const field = input.court_id !== undefined ? 'court_id' : 'indoor_game_id'
    throw new Invalid(field, `The selected ${field.replace(/_/g, ' ')} is invalid.`)
  }
  const quote =
    input.court_id !== undefined
      ? await quoteCourtBooking(db, input.court_id, input.date, input.start_time, input.end_time)
      : await quoteIndoorBooking(db, input.indoor_game_id!, input.date, input.start_time, input.end_time)
  return { venueId: row.venue_id, amount: quote.baseAmount }
}

/** POST /coupons/validate: what the coupon would take off this slot for this user (nothing is recorded). */
export async function validateCoupon(db: Executor, user: AuthUser, input: ValidateInput) {
  const { venueId, amount } = await slotPrice(db, input)
  const { coupon, discount } = await checkCoupon(db, { code: input.code, userId: user.id, venueId, amount }, 'code')
  return {
    valid: true as const,
    code: coupon.code,
    discount_amount: formatMoney(discount),
    final_amount: formatMoney(amount - discount),
  }
}
