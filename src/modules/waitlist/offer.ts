import type { AppContext } from '../../lib/context.ts'
import { type Executor, savepoint } from '../../lib/db.ts'
import { AppError } from '../../lib/errors.ts'
import { toHHmm } from '../../lib/time.ts'
import { HOLD_EXPIRED_REASON, isOverlapViolation, offerWithinCap, onlineBooker } from '../booking-core/index.ts'
import { insertPreparedBooking, type NewBooking, prepareCourtBooking } from '../bookings/index.ts'
import { notify } from '../notifications/index.ts'
import { claimEntry, closeOffer, freedSlot, offeredBooking, setOfferBooking, waitingFor } from './repository.ts'

// Waitlist offers (docs/bookings.md, "Waitlist"). booking-core runs this as its `slotFreed` step
// (ctx.steps, wired in src/modules/index.ts) in the transaction that cancelled, expired or marked
// no-show a booking, so no caller has to remember it.

/**
 * If court booking `bookingId` is cancelled, the first waiting customer whose wanted range overlaps
 * it and is now free gets a pending booking, made through the same path as any booking (quote of
 * that date, INSERT judged by the exclusion constraint) and held for WAITLIST_OFFER_MINUTES by the
 * payment hold; their entry becomes `offered` and they get WaitlistOffer. When that hold expires,
 * the expiry frees the slot again and the next in line gets the offer. An entry whose own offer was
 * cancelled closes (expired, or declined when cancelled otherwise). Each candidate is tried under a
 * savepoint, so one whose time is still taken (or no longer bookable), or who already holds
 * MAX_UNPAID_BOOKINGS unpaid bookings, is skipped and keeps waiting. Returns the offered booking's
 * id, or null.
 */
export async function offerFreedSlot(ctx: AppContext, trx: Executor, bookingId: number): Promise<number | null> {
  const freed = await freedSlot(trx, bookingId)
  if (freed?.status !== 'cancelled' && freed?.status !== 'no_show') return null
  await closeOffer(trx, bookingId, freed.cancel_reason === HOLD_EXPIRED_REASON ? 'expired' : 'declined')
  const now = ctx.clock.now()
  const waiting = await waitingFor(trx, {
    courtId: freed.court_id,
    date: freed.date,
    start: freed.start_time,
    end: freed.end_time,
  })
  const holdExpiresAt = new Date(now.getTime() + ctx.config.waitlistOfferMinutes * 60_000)
  for (const entry of waiting) {
    const offered = await savepoint(trx, async () => {
      // An offer counts against the customer's unpaid cap: at the cap, the next in line gets it (the
      // entry keeps waiting).
      if (!(await offerWithinCap(ctx, trx, entry.user_id))) return null
      if (!(await claimEntry(trx, entry.id, now))) return null
      const input: NewBooking = {
        court_id: freed.court_id,
        date: entry.date,
        start_time: toHHmm(entry.start_time),
        end_time: toHHmm(entry.end_time),
        notes: null,
      }
      const booker = onlineBooker({ id: entry.user_id, name: entry.name, phone: entry.phone })
      const p = await prepareCourtBooking(ctx, input, booker, now, { db: trx, holdExpiresAt })
      const id = await insertPreparedBooking(ctx, trx, p)
      await setOfferBooking(trx, entry.id, id)
      const row = await offeredBooking(trx, id)
      await notify(
        ctx,
        entry.user_id,
        'WaitlistOffer',
        {
          message:
            `The slot you waited for on ${input.date} at ${input.start_time} is free: booking ${row.booking_number} ` +
            `is held for you until ${ctx.zone.format(row.hold_expires_at ?? holdExpiresAt)}. Pay it to keep it.`,
          booking_id: id,
          booking_type: 'court',
          booking_number: row.booking_number,
          venue_id: p.venueId,
          expires_at: row.hold_expires_at === null ? null : ctx.zone.format(row.hold_expires_at),
        },
        trx,
      )
      return id
    }).catch((err) => {
      // Still taken (another booking or block), no longer bookable (past, closed): the next in line.
      if (isOverlapViolation(err) || err instanceof AppError) return null
      throw err
    })
    if (offered !== null) return offered
  }
  return null
}
