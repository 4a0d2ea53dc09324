import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Invalid } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import { isValidDate, toMinutes } from '../../lib/time.ts'
import { type QuoteTime, quoteBooking } from '../availability/index.ts'
import * as repo from './repository.ts'
import type { ValidateBody } from './schemas.ts'
import { checkCoupon } from './service.ts'

export type ValidateInput = Static<typeof ValidateBody>

/** The slot's price before discount (the availability feature's pricing: rules, holidays) and its venue. */
async function slotPrice(
  db: Executor,
  time: QuoteTime,
  input: ValidateInput,
): Promise<{ venueId: number; amount: number }> {
  const minutes = toMinutes(input.end_time) - toMinutes(input.start_time)
  const errors: Record<string, string[]> = {}
  if (!isValidDate(input.date)) errors.date = ['The date field must be a valid date.']
  if (minutes <= 0) errors.end_time = ['The end time field must be a date after start time.']
  if (input.court_id === undefined && input.indoor_game_id === undefined) {
    errors.court_id = ['The court id field is required when indoor game id is not present.']
  }
  if (Object.keys(errors).length) throw new Invalid(errors)
  const venueId = await repo.bookableVenueId(
    db,
    input.court_id !== undefined ? { courtId: input.court_id } : { indoorGameId: input.indoor_game_id! },
  )
  if (venueId === undefined) {
    const field = input.court_id !== undefined ? 'court_id' : 'indoor_game_id'
    throw new Invalid(field, `The selected ${field.replace(/_/g, ' ')} is invalid.`)
  }
  const quote =
    input.court_id !== undefined
      ? await quoteBooking(db, 'court', input.court_id, input.date, input.start_time, input.end_time, time)
      : await quoteBooking(db, 'indoor', input.indoor_game_id!, input.date, input.start_time, input.end_time, time)
  return { venueId, amount: quote.baseAmount }
}

/** POST /coupons/validate: what the coupon would take off this slot for this user (nothing is recorded). */
export async function validateCoupon(
  { db, ...time }: Pick<AppContext, 'db' | 'clock' | 'zone'>,
  user: AuthUser,
  input: ValidateInput,
) {
  const now = time.clock.now()
  const { venueId, amount } = await slotPrice(db, { zone: time.zone, now }, input)
  const { coupon, discount } = await checkCoupon(
    db,
    { code: input.code, userId: user.id, venueId, amount, now },
    'code',
  )
  return {
    valid: true as const,
    code: coupon.code,
    discount_amount: formatMoney(discount),
    final_amount: formatMoney(amount - discount),
  }
}
