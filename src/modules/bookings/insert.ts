import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { applyCoupon, lockBooking, setPaymentIntent, transition } from '../booking-core/index.ts'
import { emitBookingEvent } from '../webhooks/index.ts'
import type { PreparedBooking } from './prepare.ts'
import { type CustomerInsert, insertBooking } from './repository.ts'

// The INSERT of a prepared court booking, by path, inside the caller's transaction. Each returns the
// new booking's id; the exclusion constraint may refuse the INSERT (23P01), which aborts the
// transaction (run it under a savepoint to go on after that).
// - plain: no coupon, something to pay: the row carries its payment intent; booking.created.
// - coupon: the INSERT, the coupon redeemed on it (discount and total), then free or payable.
// - free: nothing to pay (a free court or a 100 % coupon): confirmed at once (transition 'confirm').
// A series occurrence (series.ts) and a waitlist offer (waitlist/offer.ts) come through here too.

/** Inserts a prepared booking by its path; returns the new id. */
export async function insertPreparedBooking(ctx: AppContext, trx: Executor, p: PreparedBooking): Promise<number> {
  if (p.plain) return (await insertPlain(ctx, trx, p)).id
  const row = await insertBooking(trx, p.values, p.year)
  const total = p.code ? await applyCoupon(ctx, trx, 'court', row, p.code, p.booker.userId) : row.total_amount
  if (total === 0) await confirmFree(ctx, trx, row.id)
  else await payable(ctx, trx, p, row.id)
  return row.id
}

/**
 * plain: the INSERT and its booking.created webhook message (the outbox), in one transaction; with
 * `hold`, the INSERT counts the customer's unpaid cap first and chooses the hold by their phone
 * (insertBooking).
 */
export async function insertPlain(ctx: AppContext, trx: Executor, p: PreparedBooking, hold?: CustomerInsert) {
  const row = await insertBooking(trx, p.values, p.year, hold)
  await emitBookingEvent(ctx, trx, 'court', row.id, 'created')
  return row
}

/**
 * free: booking.created, then confirmed (BookingConfirmed, booking.confirmed). The created message
 * is written once the booking is whole, since its stored payload is what every retry sends.
 */
async function confirmFree(ctx: AppContext, trx: Executor, id: number) {
  await emitBookingEvent(ctx, trx, 'court', id, 'created')
  await transition(ctx, trx, (await lockBooking(trx, 'court', id))!, 'confirm')
}

/** A discounted booking with something left to pay: its payment intent (and hold), then booking.created. */
async function payable(ctx: AppContext, trx: Executor, p: PreparedBooking, id: number) {
  if (p.input.payment_method) await setPaymentIntent(ctx, trx, 'court', id, p.input.payment_method)
  await emitBookingEvent(ctx, trx, 'court', id, 'created')
}
