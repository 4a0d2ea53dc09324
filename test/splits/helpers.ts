import type { App } from '../../src/app.ts'
import {
  assignStaff,
  createCourt,
  createUser,
  createVenue,
  daysFromFixedNow,
  type TestUser,
} from '../helpers/factories.ts'
import { insertBooking } from '../payments/helpers.ts'

// Split payment fixtures: a venue with staff, one court, an organizer with a pending booking.

let day = 0

export async function splitWorld(
  app: App,
  opts: { total?: number; start?: string; days?: number; organizerWallet?: number } = {},
) {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const staff = await createUser(app, { roles: ['staff'] })
  const venue = await createVenue(app, owner.id)
  await assignStaff(app, venue.id, staff.id, 'staff')
  const court = await createCourt(app, venue.id)
  const organizer = await createUser(app, { name: 'Organizer Rai', wallet: opts.organizerWallet })
  const booking = await insertBooking(app, {
    userId: organizer.id,
    venueId: venue.id,
    courtId: court.id,
    total: opts.total ?? 150000,
    date: daysFromFixedNow(opts.days ?? 2 + day++),
    start: opts.start ?? '18:00',
    end: opts.start ? `${String(Number(opts.start.slice(0, 2)) + 1).padStart(2, '0')}:00` : '19:00',
  })
  return { owner, staff, venue, court, organizer, booking }
}

export function split(app: App, user: TestUser | undefined, bookingId: number, payload: unknown) {
  return app.inject({
    method: 'POST',
    url: `/api/bookings/${bookingId}/split`,
    headers: user?.headers,
    payload: payload as Record<string, unknown>,
  })
}

export function payShare(app: App, user: TestUser | undefined, payUrl: string, payload: unknown) {
  const token = new URL(payUrl).pathname.split('/').pop()
  return app.inject({
    method: 'POST',
    url: `/api/shares/${token}/pay`,
    headers: user?.headers,
    payload: payload as Record<string, unknown>,
  })
}

export interface ShareOut {
  id: number
  amount: string
  status: string
  pay_url: string
  payer: { id: number; name: string } | null
}

export async function bookingState(app: App, id: number) {
  return app.ctx.db
    .selectFrom('bookings')
    .select(['status', 'paid_amount', 'refunded_amount', 'hold_expires_at', 'cancel_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}
