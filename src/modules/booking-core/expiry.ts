import type { AppContext } from '../../lib/context.ts'
import { type Executor, savepoint } from '../../lib/db.ts'
import { type SweepRow, sweepStep } from '../../lib/sweeps.ts'
import { isOverlapViolation } from './conflicts.ts'
import { type BookingKind, dueHolds, expiredHoldIdsOn, lockExpiredHold } from './repository/bookings.ts'
import { transition } from './transitions.ts'

// Payment holds that ran out: a pending booking whose hold_expires_at has passed is expired
// (transition 'expire': cancelled with "Payment not received", coupon released, whatever is still
// refundable credited, BookingCancelled sent, the freed slot offered to the waitlist). Each booking is expired on its own, so one that cannot be (a
// failing trigger, a constraint, a bug) is retried with back-off (src/lib/sweeps.ts) and never
// holds up the others.

/** How many due holds the sweep reads per query (each is then expired in its own transaction). */
export const EXPIRY_BATCH = 200

/** The sweep_retries name of a kind's hold expiry. */
export const holdSweep = (kind: BookingKind) => `bookings.expire-holds.${kind}`

/**
 * Expires one booking in the caller's transaction if it still is a pending booking whose hold has
 * passed; true when it was cancelled. With `skipLocked` a booking another transaction holds right
 * now (a payment being settled) is left for the next run instead of waited for.
 */
export async function expireHoldLocked(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  id: number,
  opts: { skipLocked?: boolean } = {},
): Promise<boolean> {
  const booking = await lockExpiredHold(trx, kind, id, ctx.clock.now(), opts.skipLocked ?? false)
  if (!booking) return false
  await transition(ctx, trx, booking, 'expire')
  return true
}

export interface HoldSweepOptions {
  /**
   * Runs for each due booking before its transaction (outside it: it may call a payment gateway).
   * The jobs use it to settle a payment whose callback was lost; a booking it confirmed is then no
   * longer pending and is left alone. Throwing counts as that booking's step failing.
   */
  beforeExpire?: (bookingId: number) => Promise<unknown>
}

/**
 * The sweep's step for one booking: `beforeExpire`, then expiry in its own transaction. A failure
 * of either is recorded in sweep_retries (logged once, retried with back-off; the booking stays
 * pending meanwhile) and reported as false; it never throws, so the sweep goes on with the next
 * booking.
 */
export async function expireHold(
  ctx: AppContext,
  kind: BookingKind,
  row: SweepRow,
  opts: HoldSweepOptions = {},
): Promise<boolean> {
  const done = await sweepStep(ctx, holdSweep(kind), row, async () => {
    await opts.beforeExpire?.(row.id)
    return ctx.db.transaction().execute((trx) => expireHoldLocked(ctx, trx, kind, row.id, { skipLocked: true }))
  })
  return done === true
}

/** The hold sweep of one kind: every due booking, one transaction each; returns how many expired. */
export async function expireDueHolds(ctx: AppContext, kind: BookingKind, opts: HoldSweepOptions = {}): Promise<number> {
  let expired = 0
  let afterId = 0
  for (;;) {
    const due = await dueHolds(ctx.db, kind, holdSweep(kind), ctx.clock.now(), afterId, EXPIRY_BATCH)
    for (const row of due) {
      if (await expireHold(ctx, kind, row, opts)) expired++
    }
    if (due.length < EXPIRY_BATCH) return expired
    afterId = due[due.length - 1].id
  }
}

/**
 * Expires the due holds on one court / indoor game and date inside the caller's transaction (a new
 * booking of that slot is being made). Each booking is expired under a savepoint: one that cannot
 * be stays pending (the new booking then meets its slot as taken) and the sweep records it.
 * Returns how many were cancelled.
 */
export async function expireHoldsOn(
  ctx: AppContext,
  trx: Executor,
  kind: BookingKind,
  scope: { resourceId: number; date: string },
): Promise<number> {
  let count = 0
  for (const id of await expiredHoldIdsOn(trx, kind, scope, ctx.clock.now())) {
    try {
      if (await savepoint(trx, () => expireHoldLocked(ctx, trx, kind, id))) count++
    } catch (err) {
      ctx.log.debug({ err, booking_id: id, kind }, 'an expired hold could not be cancelled; left to the sweep')
    }
  }
  return count
}

/**
 * The one way a new booking gets past lapsed holds: `insert` runs; when the exclusion constraint
 * refuses it (a live booking overlaps), the holds on that court / game and date that have run out
 * are expired (`db` given: inside the caller's transaction, each under a savepoint; otherwise in a
 * transaction of their own) and, if any was, `insert` runs once more. null when the slot stays
 * taken: the caller answers its conflict. Expired holds never block a slot, and a customer waiting
 * for one is offered it first (the expiry's slotFreed step).
 */
export async function insertPastLapsedHolds<T>(
  ctx: AppContext,
  kind: BookingKind,
  scope: { resourceId: number; date: string },
  insert: () => Promise<T>,
  db?: Executor,
): Promise<T | null> {
  try {
    return await insert()
  } catch (err) {
    if (!isOverlapViolation(err)) throw err
  }
  // Without a transaction of the caller's, one look first: a slot taken by a live booking (every
  // 409 of a rush) then costs one query, not a transaction of three.
  const expired = db
    ? await expireHoldsOn(ctx, db, kind, scope)
    : (await expiredHoldIdsOn(ctx.db, kind, scope, ctx.clock.now())).length === 0
      ? 0
      : await ctx.db.transaction().execute((trx) => expireHoldsOn(ctx, trx, kind, scope))
  if (expired === 0) return null
  try {
    return await insert()
  } catch (err) {
    if (isOverlapViolation(err)) return null
    throw err
  }
}
