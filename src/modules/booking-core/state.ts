// The booking state machine, shared by court and indoor bookings (docs/bookings.md, "State machine").
// Every change of a booking's status is one of these events, applied by `transition` in
// transitions.ts, the only writer of the status column after the INSERT.

export const BOOKING_STATUSES = ['pending', 'confirmed', 'playing', 'completed', 'cancelled', 'no_show'] as const
export type BookingStatus = (typeof BOOKING_STATUSES)[number]

/** What moves a booking from one status to another. */
export const BOOKING_EVENTS = [
  'confirm', // payment received in full (or nothing to pay)
  'cancel', // by the customer, the venue, or the system
  'expire', // the payment hold ran out
  'reinstate', // a late gateway payment for a booking whose hold expired
  'playing', // staff: the session started
  'completed', // staff: the session ended
  'no_show', // staff, after the start time: the customer never came
] as const
export type BookingEvent = (typeof BOOKING_EVENTS)[number]

/**
 * The transition table: for each event, the statuses it applies to and the status it leads to.
 * Anything not listed is refused. completed, cancelled and no_show are final, except that a
 * cancelled booking whose payment hold expired comes back when its payment arrives late
 * (`reinstate`, with conditions checked by the caller: see transitions.ts).
 */
export const TRANSITIONS: Readonly<Record<BookingEvent, { from: readonly BookingStatus[]; to: BookingStatus }>> = {
  confirm: { from: ['pending'], to: 'confirmed' },
  cancel: { from: ['pending', 'confirmed'], to: 'cancelled' },
  expire: { from: ['pending'], to: 'cancelled' },
  reinstate: { from: ['cancelled'], to: 'pending' },
  playing: { from: ['confirmed'], to: 'playing' },
  completed: { from: ['playing'], to: 'completed' },
  no_show: { from: ['pending', 'confirmed'], to: 'no_show' },
}

/** The status `event` leads to from `from`, or null when the table refuses it. */
export function nextStatus(from: BookingStatus, event: BookingEvent): BookingStatus | null {
  const t = TRANSITIONS[event]
  return t.from.includes(from) ? t.to : null
}

/** Statuses staff may set through PATCH …/status; each is the event of the same name ('cancelled' is cancel). */
export const STAFF_TARGETS = ['playing', 'completed', 'no_show', 'cancelled'] as const
export type StaffTarget = (typeof STAFF_TARGETS)[number]

/** The event a staff status target stands for. */
export const staffEvent = (target: StaffTarget): BookingEvent => (target === 'cancelled' ? 'cancel' : target)

const label = (s: string) => s.replace('_', '-')

/**
 * Why a staff status change is refused, or null when allowed. `started` says whether the booking's
 * start time (venue-local) has passed; no_show is only possible after it.
 */
export function staffTransitionError(from: BookingStatus, target: StaffTarget, started: boolean): string | null {
  if (nextStatus(from, staffEvent(target)) === null)
    return `A ${label(from)} booking cannot be marked ${label(target)}.`
  if (target === 'no_show' && !started) return 'A booking can be marked no-show only after its start time.'
  return null
}
