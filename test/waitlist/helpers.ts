import type { App } from '../../src/app.ts'

// Waitlist fixtures.

export function join(
  app: App,
  user: { headers: Record<string, string> } | undefined,
  payload: Record<string, unknown>,
) {
  return app.inject({ method: 'POST', url: '/api/waitlist', headers: user?.headers, payload })
}

export async function mine(app: App, user: { headers: Record<string, string> }) {
  const res = await app.inject({ url: '/api/waitlist', headers: user.headers })
  if (res.statusCode !== 200) throw new Error(res.body)
  return res.json().data as {
    id: number
    status: string
    position: number | null
    offer: { booking_id: number; booking_number: string; expires_at: string | null } | null
  }[]
}

/** The live bookings of a user on a court. */
export async function liveBookingsOf(app: App, userId: number, courtId: number) {
  return app.ctx.db
    .selectFrom('bookings')
    .selectAll()
    .where('user_id', '=', userId)
    .where('court_id', '=', courtId)
    .where('status', 'in', ['pending', 'confirmed', 'playing'])
    .execute()
}
