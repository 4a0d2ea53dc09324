import { sql } from 'kysely'
import type { Executor } from '../../lib/db.ts'

// SQL of the tournaments feature. Every function takes the executor to run on.

const tournamentColumns = [
  't.id',
  't.venue_id',
  't.name',
  't.description',
  't.format',
  't.sport_type',
  't.max_teams',
  't.registered_teams',
  't.registration_fee',
  't.prize_pool',
  't.starts_at',
  't.ends_at',
  't.status',
  't.created_at',
  'v.name as venue_name',
  'v.slug as venue_slug',
] as const

const publicVenue = sql<boolean>`(v.is_active AND v.verification_status = 'verified')`

export async function listTournaments(
  db: Executor,
  filter: { venueId?: number; status?: string; includeHidden?: boolean },
) {
  let q = db
    .selectFrom('tournaments as t')
    .innerJoin('venues as v', 'v.id', 't.venue_id')
    .select(tournamentColumns)
    .where('v.deleted_at', 'is', null)
  if (!filter.includeHidden) q = q.where(publicVenue)
  if (filter.venueId !== undefined) q = q.where('t.venue_id', '=', filter.venueId)
  if (filter.status !== undefined) q = q.where('t.status', '=', filter.status)
  return q.orderBy('t.starts_at', 'desc').orderBy('t.id', 'desc').execute()
}

export type TournamentRow = Awaited<ReturnType<typeof listTournaments>>[number] & { is_public: boolean }

/** A tournament of a venue that is not deleted; `lock` takes the row for the rest of the transaction. */
export async function findTournament(db: Executor, id: number, lock = false): Promise<TournamentRow | undefined> {
  let q = db
    .selectFrom('tournaments as t')
    .innerJoin('venues as v', 'v.id', 't.venue_id')
    .select([...tournamentColumns, publicVenue.as('is_public')])
    .where('t.id', '=', id)
    .where('v.deleted_at', 'is', null)
  if (lock) q = q.forUpdate('t')
  return q.executeTakeFirst()
}

export async function venueExists(db: Executor, venueId: number) {
  return !!(await db
    .selectFrom('venues')
    .select('id')
    .where('id', '=', venueId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst())
}

export interface TournamentValues {
  venue_id: number
  name: string
  description: string | null
  format: string
  sport_type: string
  max_teams: number
  registration_fee: number
  prize_pool: number
  starts_at: string
  ends_at: string
  created_by: number
}

export async function insertTournament(db: Executor, values: TournamentValues) {
  return db.insertInto('tournaments').values(values).returning('id').executeTakeFirstOrThrow()
}

export async function updateTournament(
  db: Executor,
  id: number,
  values: Partial<TournamentValues> & { status?: string },
  at: Date,
) {
  await db
    .updateTable('tournaments')
    .set({ ...values, updated_at: at })
    .where('id', '=', id)
    .execute()
}

export async function teamsOf(db: Executor, tournamentIds: number[]) {
  if (tournamentIds.length === 0) return []
  return db
    .selectFrom('tournament_teams')
    .selectAll()
    .where('tournament_id', 'in', tournamentIds)
    .orderBy('registered_at')
    .orderBy('id')
    .execute()
}

export type TeamRow = Awaited<ReturnType<typeof teamsOf>>[number]

/** Counts one more registered team; the caller holds the tournament row lock and checked the limit. */
export async function takePlace(db: Executor, id: number, at: Date) {
  await db
    .updateTable('tournaments')
    .set((eb) => ({ registered_teams: eb('registered_teams', '+', 1), updated_at: at }))
    .where('id', '=', id)
    .execute()
}

export async function teamNameTaken(db: Executor, tournamentId: number, name: string) {
  return !!(await db
    .selectFrom('tournament_teams')
    .select('id')
    .where('tournament_id', '=', tournamentId)
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst())
}

export async function insertTeam(
  db: Executor,
  values: {
    tournament_id: number
    user_id: number
    name: string
    captain_name: string
    contact_phone: string | null
    players: { name: string; position: string | null }[]
  },
) {
  return db
    .insertInto('tournament_teams')
    .values({ ...values, players: JSON.stringify(values.players) })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** A team of the tournament, locked for the rest of the transaction. */
export async function lockTeam(db: Executor, tournamentId: number, teamId: number) {
  return db
    .selectFrom('tournament_teams')
    .selectAll()
    .where('id', '=', teamId)
    .where('tournament_id', '=', tournamentId)
    .forUpdate()
    .executeTakeFirst()
}

export async function markFeePaid(db: Executor, teamId: number, amount: number, at: Date) {
  return db
    .updateTable('tournament_teams')
    .set({ fee_paid: amount, fee_paid_at: at })
    .where('id', '=', teamId)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The teams whose fee was paid and not refunded yet, locked, in registration order. */
export async function lockPaidTeams(db: Executor, tournamentId: number) {
  return db
    .selectFrom('tournament_teams')
    .selectAll()
    .where('tournament_id', '=', tournamentId)
    .where('fee_paid', '>', 0)
    .where('fee_refunded_at', 'is', null)
    .orderBy('id')
    .forUpdate()
    .execute()
}

export async function markFeeRefunded(db: Executor, teamId: number, at: Date) {
  await db.updateTable('tournament_teams').set({ fee_refunded_at: at }).where('id', '=', teamId).execute()
}

export async function fixturesOf(db: Executor, tournamentId: number) {
  return db
    .selectFrom('fixtures as f')
    .leftJoin('tournament_teams as a', 'a.id', 'f.team_a_id')
    .leftJoin('tournament_teams as b', 'b.id', 'f.team_b_id')
    .selectAll('f')
    .select(['a.name as team_a_name', 'b.name as team_b_name'])
    .where('f.tournament_id', '=', tournamentId)
    .orderBy('f.match_number')
    .execute()
}

export type FixtureRow = Awaited<ReturnType<typeof fixturesOf>>[number]

export async function fixtureById(db: Executor, id: number) {
  return db
    .selectFrom('fixtures as f')
    .leftJoin('tournament_teams as a', 'a.id', 'f.team_a_id')
    .leftJoin('tournament_teams as b', 'b.id', 'f.team_b_id')
    .selectAll('f')
    .select(['a.name as team_a_name', 'b.name as team_b_name'])
    .where('f.id', '=', id)
    .executeTakeFirst()
}

export async function hasResults(db: Executor, tournamentId: number) {
  return !!(await db
    .selectFrom('fixtures')
    .select('id')
    .where('tournament_id', '=', tournamentId)
    .where('status', '=', 'completed')
    .executeTakeFirst())
}

export async function deleteFixtures(db: Executor, tournamentId: number) {
  // One statement: the next_fixture_id references among the deleted rows are checked at its end.
  await db.deleteFrom('fixtures').where('tournament_id', '=', tournamentId).execute()
}

export interface FixtureValues {
  tournament_id: number
  stage: string
  group_name: string | null
  round: string
  round_number: number
  match_number: number
  team_a_id: number | null
  team_b_id: number | null
  scheduled_at: Date
}

export async function insertFixtures(db: Executor, rows: FixtureValues[]) {
  if (rows.length === 0) return []
  return db.insertInto('fixtures').values(rows).returning(['id', 'match_number']).execute()
}

export async function linkNext(db: Executor, id: number, nextId: number, slot: 'a' | 'b') {
  await db.updateTable('fixtures').set({ next_fixture_id: nextId, next_slot: slot }).where('id', '=', id).execute()
}

export async function recordResult(
  db: Executor,
  id: number,
  result: { score_a: number; score_b: number; winner_id: number | null },
  at: Date,
) {
  await db
    .updateTable('fixtures')
    .set({ ...result, status: 'completed', updated_at: at })
    .where('id', '=', id)
    .execute()
}

export async function setSlot(db: Executor, id: number, slot: 'a' | 'b', teamId: number | null, at: Date) {
  await db
    .updateTable('fixtures')
    .set(slot === 'a' ? { team_a_id: teamId, updated_at: at } : { team_b_id: teamId, updated_at: at })
    .where('id', '=', id)
    .execute()
}
