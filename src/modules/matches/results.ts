import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Conflict, Forbidden, Invalid, NotFound, Unprocessable } from '../../lib/errors.ts'
import { aboutMatch, told } from './notices.ts'
import { newRating, type Rating, rateTeamGame } from './rating.ts'
import * as repo from './repository.ts'
import { type Match, type PlayerProfile, profileResource } from './resource.ts'
import type { ResultBody } from './schemas.ts'
import { loadMatch, matchId } from './service.ts'

// A match's result and what it does to levels (docs/matches.md, "Results and levels"): a player
// reports it after the start, a player of the other team confirms it, and the confirmation moves
// every player's Glicko-2 rating in the match's sport once.

export const NOT_STARTED = 'The result can be reported once the match has started.'
export const RESULT_CONFIRMED = 'The result of this match has already been confirmed.'
export const NO_RESULT = 'No result has been reported for this match.'
export const TEAMS_NOT_PLAYERS = 'Each team must list players of this match, each player at most once.'
export const MATCH_CANCELLED = 'This match was cancelled.'

/** POST /matches/{match}/result: a player reports (or, before it is confirmed, corrects) the result. */
export async function reportResult(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
  input: Static<typeof ResultBody>,
): Promise<Match> {
  const id = matchId(rawId)
  const now = ctx.clock.now()
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.lockMatch(trx, id))) throw new NotFound()
    const m = (await repo.matchById(trx, id))!
    const players = await repo.livePlayers(trx, [id])
    if (!players.some((p) => p.user_id === user.id)) throw new Forbidden()
    if (m.status === 'cancelled' || ['cancelled', 'no_show'].includes(m.booking_status)) {
      throw new Unprocessable(MATCH_CANCELLED)
    }
    if (m.starts_at > now) throw new Unprocessable(NOT_STARTED)
    const ids = input.teams.flat()
    const ofMatch = new Set(players.map((p) => p.user_id))
    if (new Set(ids).size !== ids.length || ids.some((p) => !ofMatch.has(p))) {
      throw new Invalid('teams', TEAMS_NOT_PLAYERS)
    }
    if ((await repo.resultOf(trx, id))?.confirmed_at) throw new Conflict(RESULT_CONFIRMED)
    await repo.insertResult(trx, {
      match_id: id,
      teams: input.teams,
      score: [input.score[0], input.score[1]],
      reported_by: user.id,
      now,
    })
    const other = input.teams.find((t) => !t.includes(user.id)) ?? []
    const reporter = players.find((p) => p.user_id === user.id)!
    await told(ctx, trx, other, 'MatchResultToConfirm', aboutMatch(ctx, m), { id: user.id, name: reporter.name })
  })
  return loadMatch(ctx, ctx.db, id, user)
}

/**
 * POST /matches/{match}/result/confirm: a player of the team the reporter was not on confirms. The
 * match is played and each player's rating in its sport moves (their rows locked in user-id order, so
 * two confirmations of matches sharing players never deadlock). 403 for anyone else, 409 twice.
 */
export async function confirmResult(ctx: AppContext, user: AuthUser, rawId: string): Promise<Match> {
  const id = matchId(rawId)
  const now = ctx.clock.now()
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.lockMatch(trx, id))) throw new NotFound()
    const m = (await repo.matchById(trx, id))!
    if (!(await repo.livePlayer(trx, id, user.id))) throw new Forbidden()
    const result = await repo.resultOf(trx, id)
    if (!result) throw new Unprocessable(NO_RESULT)
    if (result.confirmed_at) throw new Conflict(RESULT_CONFIRMED)
    const teams = result.teams as [number[], number[]]
    const reporterTeam = teams.findIndex((t) => t.includes(result.reported_by))
    const confirmerTeam = teams.findIndex((t) => t.includes(user.id))
    if (confirmerTeam === -1 || confirmerTeam === reporterTeam) throw new Forbidden()
    await repo.confirmResult(trx, id, user.id, now)
    await repo.setStatus(trx, id, 'played')
    const locked = await repo.lockedRatings(
      trx,
      [...teams[0], ...teams[1]].sort((a, b) => a - b),
      m.sport,
    )
    const current = (uid: number): Rating => {
      const r = locked.find((x) => x.user_id === uid)
      return r ? { rating: r.rating, rd: r.rd, volatility: r.volatility } : newRating()
    }
    const outcome = result.score_1 > result.score_2 ? 1 : result.score_1 < result.score_2 ? 0 : 0.5
    const rated = rateTeamGame([teams[0].map(current), teams[1].map(current)], outcome)
    for (const [t, team] of teams.entries()) {
      for (const [i, uid] of team.entries()) await repo.saveRating(trx, uid, m.sport, rated[t][i], now)
    }
  })
  return loadMatch(ctx, ctx.db, id, user)
}

/** GET /players/{user}: levels per sport, reliability and matches played; public. */
export async function playerProfile(ctx: AppContext, rawId: string): Promise<PlayerProfile> {
  const id = repo.parseId(rawId)
  if (id === undefined) throw new NotFound()
  const user = await repo.userById(ctx.db, id)
  if (!user?.is_active) throw new NotFound()
  const [ratings, counts] = await Promise.all([repo.ratingsOf(ctx.db, id), repo.playedCounts(ctx.db, id)])
  return profileResource(user, ratings, counts)
}
