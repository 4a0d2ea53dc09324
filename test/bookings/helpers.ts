import type { App } from '../../src/app.ts'
import {
  assignStaff,
  createCourt,
  createUser,
  createVenue,
  daysFromFixedNow,
  type TestUser,
} from '../helpers/factories.ts'

// Court booking fixtures: a venue with its owner, a manager and a staff member, one court, and a customer.

export interface World {
  owner: TestUser
  manager: TestUser
  staff: TestUser
  customer: TestUser
  venue: Awaited<ReturnType<typeof createVenue>>
  court: Awaited<ReturnType<typeof createCourt>>
}

export async function world(
  app: App,
  opts: { wallet?: number; price?: number; freeCancellationHours?: number } = {},
): Promise<World> {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const manager = await createUser(app, { roles: ['manager'] })
  const staff = await createUser(app, { roles: ['staff'] })
  const customer = await createUser(app, { wallet: opts.wallet, phone: null })
  const venue = await createVenue(app, owner.id, { free_cancellation_hours: opts.freeCancellationHours ?? 24 })
  await assignStaff(app, venue.id, manager.id, 'manager')
  await assignStaff(app, venue.id, staff.id, 'staff')
  const court = await createCourt(app, venue.id, { price_per_hour: opts.price ?? 150000 })
  return { owner, manager, staff, customer, venue, court }
}

export function book(
  app: App,
  user: { headers: Record<string, string> } | undefined,
  payload: Record<string, unknown>,
) {
  return app.inject({ method: 'POST', url: '/api/bookings', headers: user?.headers, payload })
}

/** A booking body for `court` n days after FIXED_NOW's day (an app on a ManualClock started there), 10:00–11:00 unless given. */
export function fixedSlot(
  courtId: number,
  days: number,
  start = '10:00',
  end = '11:00',
  extra: Record<string, unknown> = {},
) {
  return { court_id: courtId, date: daysFromFixedNow(days), start_time: start, end_time: end, ...extra }
}

/**
 * The world's staff mark court booking `id` playing, then completed: the session was played (its money
 * is no longer refundable). Throws when either step is refused.
 */
export async function played(app: App, w: Pick<World, 'staff'>, id: number): Promise<void> {
  for (const status of ['playing', 'completed']) {
    const res = await app.inject({
      method: 'PATCH',
      url: `/api/bookings/${id}/status`,
      headers: w.staff.headers,
      payload: { status },
    })
    if (res.statusCode !== 200) throw new Error(`booking ${id} ${status}: ${res.statusCode} ${res.body}`)
  }
}

export async function notificationsOf(app: App, userId: number) {
  const rows = await app.ctx.db
    .selectFrom('notifications')
    .select(['type', 'data'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute()
  return rows.map((r) => ({
    type: r.type.split('\\').pop()!,
    data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
  }))
}
