import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Unprocessable } from '../../lib/errors.ts'
import type { Booker } from './booker.ts'
import { lockCustomerHolds, type UnpaidHold, unpaidHeld } from './repository/unpaid.ts'

// Holds and series (docs/bookings.md, "Unpaid bookings and series"): a customer may hold at most
// MAX_UNPAID_BOOKINGS unpaid future bookings they made themselves (court and indoor together; a
// weekly series counts once, as its next unpaid week) and at most MAX_ACTIVE_SERIES series with
// unpaid weeks. One more is 422. Bookings staff make are neither counted nor refused.

/** The customer a cap applies to: their own online booking. Staff bookings (desk, walk-in, for someone) are exempt. */
export function capsApply(booker: Booker): booker is Booker & { userId: number } {
  return booker.type === 'online' && booker.userId !== null && booker.createdBy === booker.userId
}

export interface UnpaidCapCheck {
  /** The field the 422 names: payment_method when the request gave one, else court_id / indoor_game_id. */
  field: string
  /** A new series: MAX_ACTIVE_SERIES applies too. */
  series?: boolean
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/**
 * Refuses (422) one more unpaid booking (or series) for the customer when they already hold the
 * most allowed. Runs inside the transaction that inserts it, before the INSERT: the customer's lock
 * makes parallel requests count one after the other, so two at the cap cannot both pass.
 */
export async function assertMayHoldUnpaid(
  ctx: AppContext,
  trx: Executor,
  booker: Booker,
  check: UnpaidCapCheck,
): Promise<void> {
  if (!capsApply(booker)) return
  await lockCustomerHolds(trx, booker.userId)
  const { now, wall } = unpaidHoldOf(ctx, booker)
  const held = await unpaidHeld(trx, booker.userId, now, wall)
  const { maxBookings, maxSeries } = ctx.config.unpaid
  if (check.series && held.series >= maxSeries) {
    const message =
      `You already have ${plural(held.series, 'weekly series', 'weekly series')} with unpaid weeks, the most allowed ` +
      `(${maxSeries}). Pay for their weeks or cancel one before starting another series.`
    throw new Unprocessable(message, { [check.field]: [message] })
  }
  if (held.bookings >= maxBookings) throw tooManyUnpaid(ctx, held.bookings, check.field)
}

/**
 * Runs `revive`, which gives a customer's own lapsed hold a new one (a payment intent:
 * setPaymentIntent), and refuses it (422 under `field`, rolling the transaction back) when that
 * takes what the customer holds unpaid past the cap. A lapsed hold counted no more (the sweep may
 * not have cancelled it yet); reviving it may count it again, or not (a series already counted
 * through its later weeks, a waitlist offer whose window stays, a booking already started), so the
 * count is taken before and after, under the customer's lock. The caller takes that lock
 * (lockCustomerHolds) before the booking's row, in the order booking creation takes them.
 */
export async function reviveWithinCap(
  ctx: AppContext,
  trx: Executor,
  userId: number,
  field: string,
  revive: () => Promise<void>,
): Promise<void> {
  await lockCustomerHolds(trx, userId)
  const { now, wall } = unpaidHoldOf(ctx, { userId })
  const before = await unpaidHeld(trx, userId, now, wall)
  await revive()
  const after = await unpaidHeld(trx, userId, now, wall)
  const max = ctx.config.unpaid.maxBookings
  if (after.bookings > before.bookings && after.bookings > max) throw tooManyUnpaid(ctx, before.bookings, field)
}

/**
 * Whether a waitlist offer (a pending booking made for the customer) stays within their unpaid cap:
 * an offer counts like a booking of their own, so one that would take them past MAX_UNPAID_BOOKINGS
 * passes to the next in line. The offer is made under the court's lock, and a customer's lock is
 * always taken before a court's (booking creation), never after: so the count here is taken without
 * the customer's lock. A booking the customer makes at that very moment may take them one past the
 * cap; never more.
 */
export async function offerWithinCap(ctx: AppContext, trx: Executor, userId: number): Promise<boolean> {
  const { now, wall } = unpaidHoldOf(ctx, { userId })
  const held = await unpaidHeld(trx, userId, now, wall)
  return held.bookings < ctx.config.unpaid.maxBookings
}

/** The 422 of one more unpaid booking when the customer already holds `held`, under `field`. */
export function tooManyUnpaid(ctx: AppContext, held: number, field: string): Unprocessable {
  const max = ctx.config.unpaid.maxBookings
  const message =
    `You already have ${plural(held, 'unpaid booking', 'unpaid bookings')}, the most allowed ` +
    `(${max}; a weekly series counts as one). Pay for or cancel one before booking again.`
  return new Unprocessable(message, { [field]: [message] })
}

/**
 * The cap a customer's own booking is counted against inside its INSERT (booking-core's
 * unpaidHold; the INSERT raises CSU01 at the cap, which tooManyUnpaid answers): now, on the venue
 * wall clock too, and MAX_UNPAID_BOOKINGS.
 */
export function unpaidHoldOf(ctx: AppContext, booker: { userId: number }): UnpaidHold {
  const now = ctx.clock.now()
  return { userId: booker.userId, max: ctx.config.unpaid.maxBookings, now, wall: ctx.zone.format(now) }
}
