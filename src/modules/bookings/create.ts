import type { AppContext } from '../../lib/context.ts'
import { Conflict, Invalid } from '../../lib/errors.ts'
import { isValidDate, localNow, toMinutes, toTimeWithSeconds } from '../../lib/time.ts'
import { COURT_UNAVAILABLE, quoteCourtBooking } from '../availability/quote.ts'
import { checkCoupon, redeemCoupon } from '../coupons/service.ts'
import { notify } from '../notifications/service.ts'
import { nextBookingNumber } from './numbers.ts'
import { expireHolds } from './operations.ts'
import { holdUntil, setPaymentIntent } from './payable.ts'
import { courtForBooking, insertBooking, isOverlapViolation } from './repository.ts'

// Creating a court booking, for customers (online) and venue staff (offline, walk-in) alike.

export const PAYMENT_METHODS = ['gateway_1', 'gateway_2', 'gateway_3', 'wallet', 'cash'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

export interface NewBooking {
  court_id: number
  date: string
  start_time: string
  end_time: string
  coupon_code?: string | null
  notes?: string | null
  payment_method?: PaymentMethod | null
  customer_phone?: string | null
}

export interface Booker {
  type: 'online' | 'offline' | 'walkin'
  userId: number | null
  customerName: string
  customerPhone: string | null
  createdBy: number
  /** Staff book only the courts of their venue; customers only courts of visible venues. */
  venueId?: number
}

const INVALID_COURT = 'The selected court id is invalid.'

/** Field checks the schema cannot express: a real date, today or later, end after start. */
function checkTimes(input: NewBooking, errors: Record<string, string[]>) {
  if (!isValidDate(input.date)) errors.date = ['The date field must be a valid date.']
  else if (input.date < localNow().date) errors.date = ['The date field must be a date after or equal to today.']
  if (toMinutes(input.end_time) <= toMinutes(input.start_time)) {
    errors.end_time = ['The end time field must be a time after start time.']
  }
}

async function courtFor(ctx: AppContext, input: NewBooking, booker: Booker) {
  const errors: Record<string, string[]> = {}
  const court = await courtForBooking(ctx.db, input.court_id)
  const usable =
    court?.is_active &&
    (booker.venueId === undefined
      ? court.venue_active && court.verification_status === 'verified'
      : court.venue_id === booker.venueId)
  if (!court || !usable) errors.court_id = [INVALID_COURT]
  checkTimes(input, errors)
  if (Object.keys(errors).length > 0) throw new Invalid(errors)
  return court!
}

/**
 * Inserts a court booking and returns its id. The database decides whether the slot is free: the
 * INSERT is refused by the exclusion constraint bookings_no_overlap (SQLSTATE 23P01) when the range
 * overlaps a live booking of the court, which becomes 409. In the same transaction, and before the
 * INSERT, expired payment holds on that court and date are cancelled so they never block the slot;
 * the booking number is allocated and the coupon redeemed in it too, so a refused booking leaves
 * neither a gap in the numbers nor a used coupon.
 */
export async function createCourtBooking(ctx: AppContext, input: NewBooking, booker: Booker): Promise<number> {
  const court = await courtFor(ctx, input, booker)
  // 422 for a past start, 409 for a closed day, outside hours, off the slot grid or a maintenance block.
  const quote = await quoteCourtBooking(ctx.db, court.id, input.date, input.start_time, input.end_time)
  const code = input.coupon_code?.trim() || null
  // An unusable coupon is a 422 before anything is written (checked again, under lock, on redeem).
  if (code) {
    await checkCoupon(
      ctx.db,
      { code, userId: booker.userId, venueId: court.venue_id, amount: quote.baseAmount },
      'coupon_code',
    )
  }
  const now = new Date()
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      await expireHolds(ctx, trx, 'court', { resourceId: court.id, date: input.date })
      const number = await nextBookingNumber(trx, 'BK', Number(localNow(now).date.slice(0, 4)))
      const online = booker.type === 'online'
      const row = await insertBooking(trx, {
        booking_number: number,
        user_id: booker.userId,
        court_id: court.id,
        venue_id: court.venue_id,
        type: booker.type,
        status: 'pending',
        date: input.date,
        start_time: toTimeWithSeconds(input.start_time),
        end_time: toTimeWithSeconds(input.end_time),
        base_amount: quote.baseAmount,
        discount_amount: 0,
        total_amount: quote.baseAmount,
        customer_name: booker.customerName,
        customer_phone: input.customer_phone?.trim() || booker.customerPhone,
        notes: input.notes?.trim() || null,
        created_by: booker.createdBy,
        // An unpaid online booking holds its slot only for the payment window; choosing a payment
        // method (here or through /api/payments/initiate) moves the hold. Desk bookings are not held.
        hold_expires_at: online ? holdUntil(ctx, 'gateway', input.date, input.start_time, now) : null,
      })
      let total = row.total_amount
      if (code) {
        const { discount } = await redeemCoupon(trx, {
          code,
          userId: booker.userId,
          venueId: court.venue_id,
          amount: quote.baseAmount,
          bookingKind: 'court',
          bookingId: row.id,
        })
        total = quote.baseAmount - discount
        await trx
          .updateTable('bookings')
          .set({ discount_amount: discount, total_amount: total })
          .where('id', '=', row.id)
          .execute()
      }
      if (total === 0) {
        // Nothing to pay (a free court or a 100% coupon): confirmed at once.
        await trx
          .updateTable('bookings')
          .set({ status: 'confirmed', hold_expires_at: null })
          .where('id', '=', row.id)
          .execute()
        if (booker.userId !== null) {
          await notify(
            ctx,
            booker.userId,
            'BookingConfirmed',
            {
              message: `Your booking ${number} on ${input.date} at ${input.start_time} is confirmed.`,
              booking_id: row.id,
              booking_type: 'court',
              booking_number: number,
              venue_id: court.venue_id,
              date: input.date,
              start_time: input.start_time,
            },
            trx,
          )
        }
      } else if (input.payment_method) {
        await setPaymentIntent(ctx, trx, 'court', row.id, input.payment_method)
      }
      return row.id
    })
  } catch (err) {
    if (isOverlapViolation(err)) throw new Conflict(COURT_UNAVAILABLE)
    throw err
  }
}
