// The booking state machine (docs/bookings.md, "Staff operations"), shared by court and indoor bookings:
// pending → confirmed (payment received) → playing → completed; pending|confirmed → cancelled;
// confirmed → no_show (only after the start time). completed, cancelled and no_show are final.

export const BOOKING_STATUSES = ['pending', 'confirmed', 'playing', 'completed', 'cancelled', 'no_show'] as const
export type BookingStatus = (typeof BOOKING_STATUSES)[number]

/** Statuses that hold the slot (the exclusion constraints use the same list). */
export const LIVE_STATUSES: readonly BookingStatus[] = ['pending', 'confirmed', 'playing']

/** Statuses staff may set through PATCH …/status. */
export const STAFF_TARGETS = ['playing', 'completed', 'no_show', 'cancelled'] as const
export type StaffTarget = (typeof STAFF_TARGETS)[number]

const NEXT: Record<BookingStatus, readonly BookingStatus[]> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['playing', 'cancelled', 'no_show'],
  playing: ['completed'],
  completed: [],
  cancelled: [],
  no_show: [],
}

/** Whether `from → to` is a transition of the state machine (ignoring time conditions). */
export function canTransition(from: BookingStatus, to: BookingStatus): boolean {
  return NEXT[from].includes(to)
}

/**
 * Why a staff transition is refused, or null when allowed. `started` says whether the booking's
 * start time (venue-local) has passed; no_show is only possible after it.
 */
export function transitionError(from: BookingStatus, to: BookingStatus, started: boolean): string | null {
  if (!canTransition(from, to)) return `A ${from.replace('_', '-')} booking cannot be marked ${to.replace('_', '-')}.`
  if (to === 'no_show' && !started) return 'A booking can be marked no-show only after its start time.'
  return null
}

/** A customer may cancel only a pending or confirmed booking that has not started. */
export function customerMayCancel(status: BookingStatus, started: boolean): boolean {
  return (status === 'pending' || status === 'confirmed') && !started
}
