import type { Static } from 'typebox'
import type { AppContext } from '../../lib/context.ts'
import { Conflict, Invalid } from '../../lib/errors.ts'
import { isValidDate, toMinutes, toTimeWithSeconds } from '../../lib/time.ts'
import { quoteBooking } from '../availability/index.ts'
import {
  assertMayHoldUnpaid,
  type Booker,
  checkBookingRules,
  holdUntil,
  insertPastLapsedHolds,
} from '../booking-core/index.ts'
import { emitBookingEvent } from '../webhooks/index.ts'
import { gameForBooking, insertBooking } from './repository.ts'
import type { IndoorBookingRow } from './resource.ts'
import type { CreateBody } from './schemas.ts'

// Creating an indoor booking, for customers (online) and venue staff (offline, walk-in) alike.

export const SLOT_TAKEN = 'The selected slot is not available.'
export const MAX_PLAYERS = 20

/** What POST /indoor-game-bookings validated (a desk booking's body has the same fields and more). */
export type NewIndoorBooking = Static<typeof CreateBody>

const INVALID_GAME = 'The selected indoor game id is invalid.'

/** Field checks the schema cannot express: a real date, today or later, end after start. */
function checkTimes(ctx: AppContext, input: NewIndoorBooking, now: Date) {
  const errors: Record<string, string[]> = {}
  if (!isValidDate(input.date)) errors.date = ['The date field must be a valid date.']
  else if (input.date < ctx.zone.today(now)) errors.date = ['The date field must be a date after or equal to today.']
  if (toMinutes(input.end_time) <= toMinutes(input.start_time)) {
    errors.end_time = ['The end time field must be a time after start time.']
  }
  if (Object.keys(errors).length > 0) throw new Invalid(errors)
}

/** The game to book, checked for the booker; 422 on indoor_game_id or players_count otherwise. */
async function gameFor(ctx: AppContext, input: NewIndoorBooking, booker: Booker) {
  const game = await gameForBooking(ctx.db, input.indoor_game_id)
  const usable =
    game?.is_active &&
    (booker.venueId === undefined
      ? game.venue_active && game.verification_status === 'verified'
      : game.venue_id === booker.venueId)
  if (!game || !usable) throw new Invalid('indoor_game_id', INVALID_GAME)
  const limit = Math.min(game.capacity, MAX_PLAYERS)
  if (input.players_count != null && input.players_count > limit) {
    throw new Invalid('players_count', `The players count field must not be greater than ${limit}.`)
  }
  return game
}

/**
 * Inserts a pending booking. The database decides whether the slot is free: the INSERT is refused
 * by the exclusion constraint indoor_bookings_no_overlap (23P01) when it overlaps a live booking,
 * which becomes 409. Lapsed payment holds never block it (insertPastLapsedHolds, as for courts).
 */
export async function createIndoorBooking(
  ctx: AppContext,
  input: NewIndoorBooking,
  booker: Booker,
): Promise<IndoorBookingRow> {
  const now = ctx.clock.now()
  checkTimes(ctx, input, now)
  const game = await gameFor(ctx, input, booker)
  // Staff may also book the slot in progress (a walk-in); customers may not.
  const quote = await quoteBooking(ctx.db, 'indoor', game.id, input.date, input.start_time, input.end_time, {
    zone: ctx.zone,
    now,
    inProgress: booker.venueId !== undefined,
  })
  const values = {
    tenant_id: game.tenant_id,
    user_id: booker.userId,
    indoor_game_id: game.id,
    venue_id: game.venue_id,
    type: booker.type,
    status: 'pending',
    date: input.date,
    start_time: toTimeWithSeconds(input.start_time),
    end_time: toTimeWithSeconds(input.end_time),
    players_count: input.players_count ?? null,
    base_amount: quote.baseAmount,
    discount_amount: 0,
    total_amount: quote.baseAmount,
    customer_name: booker.customerName,
    customer_phone: input.customer_phone?.trim() || booker.customerPhone || null,
    notes: input.notes?.trim() || null,
    created_by: booker.createdBy,
    // An unpaid online booking holds its slot only for the payment window (no method chosen yet,
    // verified phone or not); paying (or choosing cash) through /api/payments/initiate moves or
    // clears the hold.
    hold_expires_at:
      booker.type === 'online'
        ? holdUntil(ctx, { method: null, date: input.date, startTime: input.start_time }, now, false)
        : null,
  }
  // The venue's booking rules bind customers only (docs/bookings.md, "Booking rules").
  if (booker.venueId === undefined && booker.userId !== null) {
    await checkBookingRules(ctx, ctx.db, {
      venueId: game.venue_id,
      userId: booker.userId,
      date: input.date,
      start: input.start_time,
      end: input.end_time,
      now,
      method: null,
      holdUntil: values.hold_expires_at,
    })
  }
  const year = Number(ctx.zone.today(now).slice(0, 4))
  const insert = () =>
    ctx.db.transaction().execute(async (trx) => {
      // A customer's own booking with something to pay counts against their unpaid cap (docs/bookings.md).
      if (values.total_amount > 0) await assertMayHoldUnpaid(ctx, trx, booker, { field: 'indoor_game_id' })
      const inserted = await insertBooking(trx, values, year)
      await emitBookingEvent(ctx, trx, 'indoor', inserted.id, 'created')
      return inserted
    })
  const row = await insertPastLapsedHolds(ctx, 'indoor', { resourceId: game.id, date: input.date }, insert)
  if (row === null) {
    ctx.metrics.bookingConflicts.inc({ kind: 'indoor' })
    throw new Conflict(SLOT_TAKEN)
  }
  ctx.metrics.bookings.inc({ kind: 'indoor' })
  return row
}
