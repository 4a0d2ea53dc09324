import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import type { Executor } from '../../../lib/db.ts'
import { Invalid, NotFound, Unprocessable } from '../../../lib/errors.ts'
import { assertCanManage } from '../policy.ts'
import * as repo from '../repository.ts'
import { type Fixture, fixtureResource, type Standing } from '../resource.ts'
import { groupSizes, knockoutBracket, planFixtures, qualifierSeeds, scheduleRounds } from '../scheduling.ts'
import type { Format, ResultInput } from '../schemas.ts'
import { computeStandings, type MatchResult } from '../standings.ts'

const resultsOf = (fixtures: repo.FixtureRow[]): MatchResult[] =>
  fixtures
    .filter((f) => f.status === 'completed' && f.team_a_id !== null && f.team_b_id !== null)
    .map((f) => ({ teamA: f.team_a_id!, teamB: f.team_b_id!, scoreA: f.score_a ?? 0, scoreB: f.score_b ?? 0 }))

/** The group tables of a group stage: group letter → ranked rows. */
function groupTables(teams: repo.TeamRow[], fixtures: repo.FixtureRow[]) {
  const byId = new Map(teams.map((t) => [t.id, { id: t.id, name: t.name }]))
  const members = new Map<string, Set<number>>()
  for (const f of fixtures) {
    if (f.stage !== 'group' || !f.group_name) continue
    const set = members.get(f.group_name) ?? new Set<number>()
    for (const id of [f.team_a_id, f.team_b_id]) if (id !== null) set.add(id)
    members.set(f.group_name, set)
  }
  const tables = new Map<string, ReturnType<typeof computeStandings>>()
  for (const group of [...members.keys()].sort()) {
    const ids = members.get(group)!
    const groupTeams = [...ids].map((id) => byId.get(id)!).filter(Boolean)
    const results = resultsOf(fixtures.filter((f) => f.stage === 'group' && f.group_name === group))
    tables.set(group, computeStandings(groupTeams, results))
  }
  return tables
}

/**
 * Standings of a tournament. League and knockout: one table over every played match (all
 * registered teams). group_knockout: one table per group of its group stage, each row tagged
 * with its group, groups in order.
 */
export async function standingsOf(db: Executor, t: { id: number; format: string }): Promise<Standing[]> {
  const [teams, fixtures] = await Promise.all([repo.teamsOf(db, [t.id]), repo.fixturesOf(db, t.id)])
  if (t.format === 'group_knockout' && fixtures.some((f) => f.stage === 'group')) {
    return [...groupTables(teams, fixtures)].flatMap(([group, rows]) => rows.map((r) => ({ ...r, group })))
  }
  return computeStandings(
    teams.map((x) => ({ id: x.id, name: x.name })),
    resultsOf(fixtures),
  ).map((r) => ({ ...r, group: null }))
}

export async function fixturesOf(ctx: AppContext, tournamentId: number): Promise<Fixture[]> {
  return (await repo.fixturesOf(ctx.db, tournamentId)).map((f) => fixtureResource(f, ctx.zone))
}

/**
 * (Re)builds every fixture of the tournament from its registered teams, in registration order.
 * Only once registration is closed, and never after a result has been recorded.
 */
export async function generateFixtures(ctx: AppContext, user: AuthUser, tournamentId: number) {
  const current = await repo.findTournament(ctx.db, tournamentId)
  if (!current) throw new NotFound()
  await assertCanManage(ctx.db, user, current.venue_id)
  await ctx.db.transaction().execute(async (trx) => {
    const t = (await repo.findTournament(trx, tournamentId, true))!
    if (t.status === 'registration_open') {
      throw new Unprocessable('Close registration before generating fixtures.')
    }
    if (t.status === 'completed' || t.status === 'cancelled') {
      throw new Unprocessable(`Fixtures cannot be generated for a ${t.status} tournament.`)
    }
    if (await repo.hasResults(trx, t.id)) {
      throw new Unprocessable('Fixtures cannot be regenerated once a result is recorded.')
    }
    const teams = await repo.teamsOf(trx, [t.id])
    if (teams.length < 2) throw new Unprocessable('At least 2 teams are needed to generate fixtures.')
    if (t.format === 'group_knockout') {
      try {
        groupSizes(teams.length)
      } catch {
        throw new Unprocessable(`${teams.length} teams cannot be split into groups of 3 to 4.`)
      }
    }
    const plan = planFixtures(
      t.format as Format,
      teams.map((x) => x.id),
    )
    const when = scheduleRounds(
      plan.map((m) => m.roundNumber),
      t.starts_at,
      t.ends_at,
    )
    await repo.deleteFixtures(trx, t.id)
    const inserted = await repo.insertFixtures(
      trx,
      plan.map((m, i) => ({
        tournament_id: t.id,
        stage: m.stage,
        group_name: m.group,
        round: m.round,
        round_number: m.roundNumber,
        match_number: m.index + 1,
        team_a_id: m.teamA,
        team_b_id: m.teamB,
        scheduled_at: ctx.zone.instant(when[i].date, when[i].time),
      })),
    )
    const idOf = new Map(inserted.map((r) => [r.match_number, r.id]))
    for (const m of plan) {
      if (m.next) await repo.linkNext(trx, idOf.get(m.index + 1)!, idOf.get(m.next.index + 1)!, m.next.slot)
    }
  })
  return fixturesOf(ctx, tournamentId)
}

/** Decides the winner of a result; a knockout draw must name one of the two teams. */
function winnerOf(f: repo.FixtureRow, input: ResultInput): number | null {
  const { score_a: a, score_b: b, winner_id: given } = input
  const teams = [f.team_a_id, f.team_b_id]
  if (given !== undefined && given !== null && !teams.includes(given)) {
    throw new Invalid('winner_id', 'The selected winner id is invalid.')
  }
  if (a !== b) {
    const winner = a > b ? f.team_a_id : f.team_b_id
    if (given !== undefined && given !== null && given !== winner) {
      throw new Invalid('winner_id', 'The winner id must be the team with the higher score.')
    }
    return winner
  }
  if (f.stage !== 'knockout') return null
  if (given === undefined || given === null) {
    throw new Invalid('winner_id', 'The winner id field is required when a knockout match is drawn.')
  }
  return given
}

/**
 * When every group match is played, puts the top two of each group into the knockout slots the
 * plan gave their seeds (winners against other groups' runners-up).
 */
async function fillKnockoutFromGroups(trx: Executor, tournamentId: number, at: Date) {
  const fixtures = await repo.fixturesOf(trx, tournamentId)
  const group = fixtures.filter((f) => f.stage === 'group')
  const knockout = fixtures.filter((f) => f.stage === 'knockout')
  if (group.length === 0 || group.some((f) => f.status !== 'completed')) return
  const teams = await repo.teamsOf(trx, [tournamentId])
  const tables = groupTables(teams, fixtures)
  const seeds = qualifierSeeds(tables.size)
  const qualifier = (seed: number) => {
    const q = seeds[seed - 1]
    return tables.get(q.group)?.[q.rank - 1]?.team.id ?? null
  }
  const plan = knockoutBracket(tables.size * 2)
  for (const [i, m] of plan.entries()) {
    const f = knockout[i]
    if (!f) continue
    if (m.slotA && 'seed' in m.slotA) await repo.setSlot(trx, f.id, 'a', qualifier(m.slotA.seed), at)
    if (m.slotB && 'seed' in m.slotB) await repo.setSlot(trx, f.id, 'b', qualifier(m.slotB.seed), at)
  }
}

/**
 * Records (or corrects) a fixture's result. Knockout winners move into the next fixture; the end
 * of a group stage fills the knockout. The first result moves a tournament whose registration is
 * closed to ongoing.
 */
export async function recordResult(ctx: AppContext, user: AuthUser, fixtureId: number, input: ResultInput) {
  const found = await repo.fixtureById(ctx.db, fixtureId)
  if (!found) throw new NotFound()
  const current = await repo.findTournament(ctx.db, found.tournament_id)
  if (!current) throw new NotFound()
  await assertCanManage(ctx.db, user, current.venue_id)

  await ctx.db.transaction().execute(async (trx) => {
    // The tournament row lock serialises result recording (and generation) within a tournament.
    const t = (await repo.findTournament(trx, found.tournament_id, true))!
    if (t.status === 'completed' || t.status === 'cancelled') {
      throw new Unprocessable(`Results cannot be recorded for a ${t.status} tournament.`)
    }
    const f = await repo.fixtureById(trx, fixtureId)
    if (!f) throw new NotFound()
    if (f.team_a_id === null || f.team_b_id === null) {
      throw new Unprocessable('Both teams of this fixture are not known yet.')
    }
    const winner = winnerOf(f, input)
    const all = await repo.fixturesOf(trx, t.id)
    if (f.stage === 'knockout' && f.next_fixture_id !== null) {
      const next = all.find((x) => x.id === f.next_fixture_id)
      if (next?.status === 'completed' && f.winner_id !== winner) {
        throw new Unprocessable('The next round has already been played.')
      }
    }
    if (f.stage === 'group' && all.some((x) => x.stage === 'knockout' && x.status === 'completed')) {
      throw new Unprocessable('The knockout stage has already started.')
    }
    await repo.recordResult(
      trx,
      f.id,
      { score_a: input.score_a, score_b: input.score_b, winner_id: winner },
      ctx.clock.now(),
    )
    if (f.stage === 'knockout' && f.next_fixture_id !== null && f.next_slot) {
      await repo.setSlot(trx, f.next_fixture_id, f.next_slot as 'a' | 'b', winner, ctx.clock.now())
    }
    if (f.stage === 'group') await fillKnockoutFromGroups(trx, t.id, ctx.clock.now())
    if (t.status === 'registration_closed')
      await repo.updateTournament(trx, t.id, { status: 'ongoing' }, ctx.clock.now())
  })
  return fixtureResource((await repo.fixtureById(ctx.db, fixtureId))!, ctx.zone)
}
