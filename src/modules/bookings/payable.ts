import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'

// INTERFACE (implemented by the bookings work): what payments need from bookings.

export type BookingKind = 'court' | 'indoor'

export interface PayableBooking {
  kind: BookingKind
  id: number
  booking_number: string
  user_id: number | null
  venue_id: number
  status: string
  total_amount: number // paisa, including extra charges, after discount
  paid_amount: number // paisa
  date: string
  start_time: string
}

/** Reads and row-locks (FOR UPDATE) a booking for a payment step; undefined when it does not exist. */
export async function lockPayableBooking(
  _trx: Executor,
  _kind: BookingKind,
  _id: number,
): Promise<PayableBooking | undefined> {
  throw new Error('lockPayableBooking: not implemented yet')
}

/**
 * Adds a received payment to the booking (paid_amount += amount). A pending booking that becomes
 * fully paid turns confirmed, its hold is cleared, and BookingConfirmed /
 * IndoorGameBookingConfirmed is sent (in the same transaction).
 */
export async function recordBookingPayment(
  _ctx: AppContext,
  _trx: Executor,
  _kind: BookingKind,
  _id: number,
  _amountPaisa: number,
): Promise<void> {
  throw new Error('recordBookingPayment: not implemented yet')
}

/**
 * Records how the customer intends to pay. gateway or wallet: the slot is held for
 * BOOKING_HOLD_MINUTES from now; cash: held until the booking's start.
 */
export async function setPaymentIntent(
  _ctx: AppContext,
  _trx: Executor,
  _kind: BookingKind,
  _id: number,
  _method: string,
): Promise<void> {
  throw new Error('setPaymentIntent: not implemented yet')
}
