import type { App } from '../../src/app.ts'

// Recurring series fixtures.

/** A series request: 4 weeks of `start`'s weekday at 19:00–20:00 on `courtId`, unless `extra` says otherwise. */
export const seriesBody = (courtId: number, start: string, extra: Record<string, unknown> = {}) => ({
  court_id: courtId,
  start_date: start,
  weeks: 4,
  start_time: '19:00',
  end_time: '20:00',
  ...extra,
})

export function createSeries(
  app: App,
  user: { headers: Record<string, string> } | undefined,
  payload: Record<string, unknown>,
) {
  return app.inject({ method: 'POST', url: '/api/bookings/series', headers: user?.headers, payload })
}

/** A series made at the desk of venue `venueId` by `who` (staff, a manager, the owner). */
export function createDeskSeries(
  app: App,
  venueId: number,
  who: { headers: Record<string, string> },
  payload: Record<string, unknown>,
) {
  return app.inject({ method: 'POST', url: `/api/venues/${venueId}/bookings/series`, headers: who.headers, payload })
}

/** What a series cancel answered per booking: [booking id, refund amount]. */
export function cancelledRefunds(answer: { data: { cancelled: { booking_id: number; refund_amount: string }[] } }) {
  return answer.data.cancelled.map((c) => [c.booking_id, c.refund_amount])
}

/** The bookings of series `seriesId` as stored, by date. */
export function seriesBookings(app: App, seriesId: number) {
  return app.ctx.db
    .selectFrom('bookings')
    .select(['id', 'date', 'start_time', 'end_time', 'status', 'cancel_reason'])
    .where('series_id', '=', seriesId)
    .orderBy('date')
    .execute()
}

/** Live bookings of a court that overlap another live booking of it: must always be empty. */
export async function overlaps(app: App, courtId: number) {
  return app.ctx.db
    .selectFrom('bookings as a')
    .innerJoin('bookings as b', (j) => j.onRef('a.court_id', '=', 'b.court_id').onRef('a.id', '<', 'b.id'))
    .select(['a.id as a', 'b.id as b'])
    .where('a.court_id', '=', courtId)
    .where('a.status', 'in', ['pending', 'confirmed', 'playing'])
    .where('b.status', 'in', ['pending', 'confirmed', 'playing'])
    .whereRef('a.date', '=', 'b.date')
    .whereRef('a.start_time', '<', 'b.end_time')
    .whereRef('b.start_time', '<', 'a.end_time')
    .execute()
}
