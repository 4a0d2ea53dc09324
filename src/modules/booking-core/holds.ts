import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import type { Booker } from './booker.ts'
import { lockBooking } from './repository/bookings.ts'
import { extendableHolds, hasVerifiedPhone, setHold } from './repository/holds.ts'
import { lockCustomerHolds } from './repository/unpaid.ts'
import { capsApply } from './unpaid-caps.ts'

// How long a pending booking holds its slot (docs/bookings.md, "Creating"). A payment intent
// online (gateway, wallet) or none yet: BOOKING_HOLD_MINUTES from now. Cash, and a week of a series
// after its first: until the start. A customer's own booking while they have no verified phone is
// never held past now + BOOKING_HOLD_MINUTES, whatever the method: throwaway accounts cannot squat
// slots. Verifying a phone (the OTP verify) gives their bookings held that short the hold a verified
// customer's would have. Staff bookings (desk, walk-in) hold as a verified customer's.

/** What a booking's hold depends on, besides who holds it. */
export interface HoldOf {
  /** The payment method chosen; null while none is (online, chosen later). */
  method: string | null
  date: string
  /** HH:mm or HH:mm:ss, venue-local. */
  startTime: string
  /** A week of a series after its first: held until its start, whatever the method. */
  laterWeek?: boolean
}

/**
 * When a pending booking stops holding its slot, chosen at `now`. `verified`: the booking is held
 * as a trusted booker's (staff, or a customer with a verified phone); false caps every hold at now
 * + BOOKING_HOLD_MINUTES (the start, when that comes first). The one rule of holds: booking
 * creation (court, indoor, series), payment intents and the phone verification all ask here.
 */
export function holdUntil(ctx: AppContext, b: HoldOf, now: Date, verified: boolean): Date {
  const window = new Date(now.getTime() + ctx.config.bookingHoldMinutes * 60_000)
  if (b.method !== 'cash' && !b.laterWeek) return window
  const start = ctx.zone.instant(b.date, b.startTime)
  return verified || start.getTime() < window.getTime() ? start : window
}

/**
 * Whether `booker`'s new booking is held as a trusted booker's (holdUntil's `verified`): staff
 * always; a customer booking for themself when they have a verified phone, read in `db` (the
 * booking's transaction).
 */
export async function holdsAsVerified(db: Executor, booker: Booker): Promise<boolean> {
  return !capsApply(booker) || hasVerifiedPhone(db, booker.userId)
}

/**
 * Whether the pending booking `b` is held as a trusted booker's: one staff made, or the customer's
 * own while they have a verified phone (read in `db`).
 */
export async function bookingHeldAsVerified(
  db: Executor,
  b: { type: string; user_id: number | null; created_by: number | null },
): Promise<boolean> {
  const own = b.type === 'online' && b.user_id !== null && b.created_by === b.user_id
  return !own || b.user_id === null || hasVerifiedPhone(db, b.user_id)
}

/**
 * The customer `userId` has just verified a phone, in `trx` (ctx.steps.phoneVerified, run by the
 * OTP verify): each of their own pending bookings still held that a verified customer holds until
 * its start (cash, a later week of a series) is held until its start now. Holds of online payment
 * intents keep BOOKING_HOLD_MINUTES; a waitlist offer keeps its window. Under the customer's lock,
 * taken before each booking's (as booking creation and payment intents take them), so a payment
 * intent chosen while unverified and this extension run one after the other. Returns how many
 * holds it extended.
 */
export function extendHoldsOfVerified(ctx: AppContext, trx: Executor, userId: number): Promise<number> {
  return rehold(ctx, trx, userId, true)
}

/**
 * The customer `userId` no longer has a verified phone (a new number, not yet verified: the profile
 * update, ctx.steps.phoneUnverified, in `trx`): the holds verifying extended are cut back to what an
 * unverified customer gets, at most BOOKING_HOLD_MINUTES from now, so one phone cannot vouch for one
 * account after another. Same locks and order as extendHoldsOfVerified. Returns how many it cut.
 */
export function shortenHoldsOfUnverified(ctx: AppContext, trx: Executor, userId: number): Promise<number> {
  return rehold(ctx, trx, userId, false)
}

/**
 * The customer's own held cash bookings and later series weeks held again as a customer who is
 * (`verified`) or is not verified now would hold them: only ever longer when verified, only ever
 * shorter when not. The customer's lock first, then each booking's. Returns how many changed.
 */
async function rehold(ctx: AppContext, trx: Executor, userId: number, verified: boolean): Promise<number> {
  await lockCustomerHolds(trx, userId)
  const now = ctx.clock.now()
  let changed = 0
  for (const c of await extendableHolds(trx, userId, now)) {
    const b = await lockBooking(trx, c.kind, c.id)
    if (b?.status !== 'pending' || b.hold_expires_at === null || b.hold_expires_at.getTime() <= now.getTime()) continue
    const hold = holdUntil(
      ctx,
      { method: c.payment_method, date: b.date, startTime: b.start_time, laterWeek: c.later_week },
      now,
      verified,
    )
    const change = hold.getTime() - b.hold_expires_at.getTime()
    if (verified ? change <= 0 : change >= 0) continue
    await setHold(trx, c.kind, c.id, hold, now)
    changed++
  }
  return changed
}
