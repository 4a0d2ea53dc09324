import type { App } from '../../src/app.ts'
import { createUser, createVenue, daysAfter, type TestUser } from '../helpers/factories.ts'

// Fixtures of the tournament tests: direct inserts, independent of the routes under test.

let seq = 0

export async function ownerWithVenue(app: App, venueFields: Parameters<typeof createVenue>[2] = {}) {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, venueFields)
  return { owner, venue }
}

export async function insertTournament(
  app: App,
  venueId: number,
  fields: Partial<{ format: string; max_teams: number; status: string; name: string; registration_fee: number }> = {},
) {
  // Dates count from the app's own today (its clock: a ManualClock or the system's).
  const now = app.ctx.clock.now()
  return app.ctx.db
    .insertInto('tournaments')
    .values({
      venue_id: venueId,
      name: fields.name ?? `Cup ${process.pid}-${++seq}`,
      format: fields.format ?? 'league',
      sport_type: 'futsal',
      max_teams: fields.max_teams ?? 8,
      registration_fee: fields.registration_fee ?? 0,
      starts_at: daysAfter(now, 7),
      ends_at: daysAfter(now, 10),
      status: fields.status ?? 'registration_open',
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Registers teams directly (registration order = the order given) and closes registration. */
export async function withTeams(app: App, tournamentId: number, names: string[], close = true) {
  const ids: number[] = []
  // Registered at the app's now, a millisecond apart, in the order given.
  const at = app.ctx.clock.now().getTime()
  for (const name of names) {
    const row = await app.ctx.db
      .insertInto('tournament_teams')
      .values({
        tournament_id: tournamentId,
        name,
        captain_name: `${name} captain`,
        registered_at: new Date(at + ids.length),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    ids.push(row.id)
  }
  await app.ctx.db
    .updateTable('tournaments')
    .set((eb) => ({
      registered_teams: eb('registered_teams', '+', names.length),
      ...(close ? { status: 'registration_closed' } : {}),
    }))
    .where('id', '=', tournamentId)
    .execute()
  return ids
}

export async function generate(app: App, tournamentId: number, who: TestUser) {
  return app.inject({ method: 'POST', url: `/api/tournaments/${tournamentId}/fixtures/generate`, headers: who.headers })
}

export async function score(app: App, fixtureId: number, who: TestUser, body: Record<string, unknown>) {
  return app.inject({ method: 'PATCH', url: `/api/fixtures/${fixtureId}`, headers: who.headers, payload: body })
}
