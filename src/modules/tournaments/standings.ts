// League tables. Pure: results in, ranked rows out.

export interface TeamRef {
  id: number
  name: string
}

export interface MatchResult {
  teamA: number
  teamB: number
  scoreA: number
  scoreB: number
}

export interface StandingRow {
  rank: number
  team: TeamRef
  played: number
  won: number
  drawn: number
  lost: number
  goals_for: number
  goals_against: number
  points: number
}

export const POINTS = { win: 3, draw: 1, loss: 0 } as const

function tally(teams: readonly TeamRef[], results: readonly MatchResult[]) {
  const rows = new Map<number, Omit<StandingRow, 'rank'>>()
  for (const t of teams) {
    rows.set(t.id, { team: t, played: 0, won: 0, drawn: 0, lost: 0, goals_for: 0, goals_against: 0, points: 0 })
  }
  for (const m of results) {
    const a = rows.get(m.teamA)
    const b = rows.get(m.teamB)
    if (!a || !b) continue
    a.played++
    b.played++
    a.goals_for += m.scoreA
    a.goals_against += m.scoreB
    b.goals_for += m.scoreB
    b.goals_against += m.scoreA
    if (m.scoreA > m.scoreB) {
      a.won++
      b.lost++
      a.points += POINTS.win
    } else if (m.scoreA < m.scoreB) {
      b.won++
      a.lost++
      b.points += POINTS.win
    } else {
      a.drawn++
      b.drawn++
      a.points += POINTS.draw
      b.points += POINTS.draw
    }
  }
  return rows
}

const gd = (r: { goals_for: number; goals_against: number }) => r.goals_for - r.goals_against

const byName = (x: TeamRef, y: TeamRef) => {
  const a = x.name.toLowerCase()
  const b = y.name.toLowerCase()
  return a < b ? -1 : a > b ? 1 : x.id - y.id
}

/**
 * The table: 3 points a win, 1 a draw. Ties are broken by goal difference, then goals for, then
 * head-to-head among the teams still level (points, then goal difference in the games between
 * them), then name. Ranks run 1..n without gaps.
 */
export function computeStandings(teams: readonly TeamRef[], results: readonly MatchResult[]): StandingRow[] {
  const rows = [...tally(teams, results).values()]
  const primary = (x: (typeof rows)[number], y: (typeof rows)[number]) =>
    y.points - x.points || gd(y) - gd(x) || y.goals_for - x.goals_for
  rows.sort(primary)

  const out: Omit<StandingRow, 'rank'>[] = []
  for (let i = 0; i < rows.length; ) {
    let j = i + 1
    while (j < rows.length && primary(rows[i], rows[j]) === 0) j++
    const level = rows.slice(i, j)
    if (level.length > 1) {
      const ids = new Set(level.map((r) => r.team.id))
      const mini = tally(
        level.map((r) => r.team),
        results.filter((m) => ids.has(m.teamA) && ids.has(m.teamB)),
      )
      level.sort((x, y) => {
        const mx = mini.get(x.team.id)!
        const my = mini.get(y.team.id)!
        return my.points - mx.points || gd(my) - gd(mx) || byName(x.team, y.team)
      })
    }
    out.push(...level)
    i = j
  }
  return out.map((r, i) => ({ rank: i + 1, ...r }))
}
