import type { App } from '../../src/app.ts'

// Recurring series fixtures.

export function createSeries(
  app: App,
  user: { headers: Record<string, string> } | undefined,
  payload: Record<string, unknown>,
) {
  return app.inject({ method: 'POST', url: '/api/bookings/series', headers: user?.headers, payload })
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
