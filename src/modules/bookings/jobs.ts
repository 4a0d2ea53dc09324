import type { AppContext } from '../../lib/context.ts'

// Booking jobs (hold expiry, reminders) are added by the bookings issue.
export function registerBookingJobs(_ctx: AppContext) {}
