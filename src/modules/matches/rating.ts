import glicko2, { type Outcome } from 'glicko2'

// Player levels (docs/matches.md, "Levels"). Ratings are Glicko-2 (the npm package glicko2): a rating
// (1500 for a new player), its deviation (350 new: how unsure we are) and a volatility. A level is
// the rating mapped linearly onto 0.0–7.0: 800 → 0.0, 1500 → 3.5, 2200 → 7.0 (clamped, one decimal).
// Reliability is how far the deviation has come down from a newcomer's 350 towards 50: 0–100 %.

export const NEW_RATING = 1500
export const NEW_RD = 350
export const NEW_VOLATILITY = 0.06
const TAU = 0.5
const RATING_AT_ZERO = 800
const RATING_PER_LEVEL = 200
const RD_RELIABLE = 50

export interface Rating {
  rating: number
  rd: number
  volatility: number
}

export const newRating = (): Rating => ({ rating: NEW_RATING, rd: NEW_RD, volatility: NEW_VOLATILITY })

/** The 0.0–7.0 level of a rating, one decimal. */
export function levelOf(rating: number): number {
  const level = (rating - RATING_AT_ZERO) / RATING_PER_LEVEL
  return Math.round(Math.min(7, Math.max(0, level)) * 10) / 10
}

/** The rating in the middle of a level (used by tests and the level range's docs). */
export function ratingOfLevel(level: number): number {
  return RATING_AT_ZERO + level * RATING_PER_LEVEL
}

/** 0–100: 0 for a newcomer (deviation 350), 100 once the deviation is 50 or less. */
export function reliabilityOf(rd: number): number {
  const share = (NEW_RD - rd) / (NEW_RD - RD_RELIABLE)
  return Math.round(Math.min(1, Math.max(0, share)) * 100)
}

/**
 * New ratings after one team game. Glicko-2 rates one player against one opponent, so each player is
 * rated against a composite opponent: the other team's mean rating with the root-mean-square of its
 * deviations. `outcome` is team 1's (1 won, 0.5 draw, 0 lost). Returns the new ratings in the same
 * shape as the input.
 */
export function rateTeamGame(teams: [Rating[], Rating[]], outcome: Outcome): [Rating[], Rating[]] {
  const ranking = new glicko2.Glicko2({ tau: TAU, rating: NEW_RATING, rd: NEW_RD, vol: NEW_VOLATILITY })
  const composite = (team: Rating[]) =>
    ranking.makePlayer(
      team.reduce((s, r) => s + r.rating, 0) / team.length,
      Math.sqrt(team.reduce((s, r) => s + r.rd * r.rd, 0) / team.length),
      NEW_VOLATILITY,
    )
  const against = [composite(teams[1]), composite(teams[0])]
  const players = teams.map((team) => team.map((r) => ranking.makePlayer(r.rating, r.rd, r.volatility)))
  const flip = (o: Outcome): Outcome => (o === 1 ? 0 : o === 0 ? 1 : 0.5)
  ranking.updateRatings([
    ...players[0].map((p): [typeof p, typeof p, Outcome] => [p, against[0], outcome]),
    ...players[1].map((p): [typeof p, typeof p, Outcome] => [p, against[1], flip(outcome)]),
  ])
  const read = (team: (typeof players)[0]) =>
    team.map((p) => ({ rating: p.getRating(), rd: p.getRd(), volatility: p.getVol() }))
  return [read(players[0]), read(players[1])]
}
