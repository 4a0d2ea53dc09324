import type { Static } from 'typebox'
import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import { AppError, Invalid } from '../../../lib/errors.ts'
import { formatMoney } from '../../../lib/money.ts'
import { isValidDate, toHHmm, toMinutes, toTimeWithSeconds } from '../../../lib/time.ts'
import { cancelledMessage, lockBooking, transition } from '../../booking-core/index.ts'
import { assertVenueAccess, DESK_ROLES, MANAGER_ROLES } from '../../venues/index.ts'
import { liveBookingsUnder, lockCourtBookings } from '../repository/blocks.ts'
import { insertBlock } from '../repository/timetable.ts'
import type { BlockBody } from '../schemas.ts'
import { courtForStaff } from './courts.ts'

// A maintenance block (docs/bookings.md, "Maintenance blocks"): never laid silently over live
// bookings. Under the court's booking lock (the lock every INSERT of the court takes) the block's
// range is checked for live bookings (pending with a running hold, confirmed, playing): any there
// is a 409 naming them (errors.bookings: their numbers). With cancel_bookings the owner or a
// manager cancels them in the same transaction, by the venue, through booking-core's transition:
// everything still refundable goes back the way it came (online money to the wallet, desk money as
// a cash-back), and BookingCancelled tells the customer why (the block's reason). The block is
// written before the cancels, so the freed slot is never offered to the waitlist.

export const BLOCK_OVER_BOOKINGS =
  'The block overlaps live bookings: cancel them first, or send "cancel_bookings": true (owner, manager).'

/** A 409 listing the bookings a block would fall on. */
export class BlockConflict extends AppError {
  constructor(message: string, numbers: string[]) {
    super(409, message, { bookings: numbers })
  }
}

export interface CancelledByBlock {
  booking_id: number
  booking_number: string
  refund_amount: string
  message: string
}

type BlockRow = Awaited<ReturnType<typeof insertBlock>>

const seconds = (t: string) => toMinutes(t) * 60 + Number(t.slice(6, 8) || 0)

/** POST /courts/{court}/blocks: the block and the bookings it cancelled (with cancel_bookings). */
export async function addBlockOverBookings(
  ctx: AppContext,
  user: AuthUser,
  key: string,
  body: Static<typeof BlockBody>,
): Promise<{ row: BlockRow; cancelled: CancelledByBlock[] }> {
  const court = await courtForStaff(ctx, user, key, DESK_ROLES)
  // Cancelling customers' bookings is the owner's or a manager's decision, not the desk's.
  if (body.cancel_bookings) await assertVenueAccess(ctx.db, user, court.venue_id, MANAGER_ROLES)
  const now = ctx.clock.now()
  if (!isValidDate(body.date)) throw new Invalid('date', 'The date field must be a valid date.')
  if (body.date < ctx.zone.today(now))
    throw new Invalid('date', 'The date field must be a date after or equal to today.')
  const start = toTimeWithSeconds(body.start_time)
  const end = toTimeWithSeconds(body.end_time)
  if (seconds(end) <= seconds(start))
    throw new Invalid('end_time', 'The end time field must be a time after start time.')
  const reason = body.reason?.trim() || null
  return ctx.db.transaction().execute(async (trx) => {
    await lockCourtBookings(trx, court.id)
    const live = await liveBookingsUnder(trx, { courtId: court.id, date: body.date, start, end, now })
    const numbers = live.map((b) => b.booking_number)
    if (live.length > 0 && !body.cancel_bookings) {
      throw new BlockConflict(`${BLOCK_OVER_BOOKINGS} Bookings: ${numbers.join(', ')}.`, numbers)
    }
    const playing = live.filter((b) => b.status === 'playing').map((b) => b.booking_number)
    if (playing.length > 0) {
      throw new BlockConflict(
        `The block overlaps bookings being played, which cannot be cancelled: ${playing.join(', ')}.`,
        playing,
      )
    }
    const row = await insertBlock(trx, {
      court_id: court.id,
      date: body.date,
      start_time: start,
      end_time: end,
      reason,
      created_by: user.id,
    })
    const why = reason
      ? `The court is closed for maintenance (${toHHmm(start)}–${toHHmm(end)}): ${reason.replace(/[.\s]+$/, '')}.`
      : `The court is closed for maintenance (${toHHmm(start)}–${toHHmm(end)}).`
    const cancelled: CancelledByBlock[] = []
    for (const b of live) {
      const booking = await lockBooking(trx, 'court', b.id)
      if (!booking) continue
      const outcome = await transition(ctx, trx, booking, 'cancel', {
        reason: reason ? `Maintenance: ${reason}` : 'Maintenance',
        by: 'venue',
        why,
        actor: user.id,
      })
      cancelled.push({
        booking_id: booking.id,
        booking_number: booking.booking_number,
        refund_amount: formatMoney(outcome.refund),
        message: cancelledMessage(outcome.note),
      })
    }
    return { row, cancelled }
  })
}
