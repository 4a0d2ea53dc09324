import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { roundRobin } from '../../src/modules/tournaments/scheduling.ts'
import { computeStandings, type MatchResult } from '../../src/modules/tournaments/standings.ts'

const t = (id: number, name: string) => ({ id, name })

test('3 points a win, 1 a draw; played, won, drawn, lost and goals are counted', () => {
  const table = computeStandings(
    [t(1, 'Alpha'), t(2, 'Bravo'), t(3, 'Charlie')],
    [
      { teamA: 1, teamB: 2, scoreA: 2, scoreB: 0 },
      { teamA: 2, teamB: 3, scoreA: 1, scoreB: 1 },
      { teamA: 3, teamB: 1, scoreA: 3, scoreB: 1 },
    ],
  )
  assert.deepEqual(table, [
    {
      rank: 1,
      team: t(3, 'Charlie'),
      played: 2,
      won: 1,
      drawn: 1,
      lost: 0,
      goals_for: 4,
      goals_against: 2,
      points: 4,
    },
    { rank: 2, team: t(1, 'Alpha'), played: 2, won: 1, drawn: 0, lost: 1, goals_for: 3, goals_against: 3, points: 3 },
    { rank: 3, team: t(2, 'Bravo'), played: 2, won: 0, drawn: 1, lost: 1, goals_for: 1, goals_against: 3, points: 1 },
  ])
})

test('ties: goal difference, then goals for', () => {
  const table = computeStandings(
    [t(1, 'A'), t(2, 'B'), t(3, 'C'), t(4, 'D')],
    [
      { teamA: 1, teamB: 4, scoreA: 1, scoreB: 0 }, // A +1, 1 goal
      { teamA: 2, teamB: 4, scoreA: 3, scoreB: 0 }, // B +3
      { teamA: 3, teamB: 4, scoreA: 4, scoreB: 1 }, // C +3, more goals
    ],
  )
  assert.deepEqual(
    table.map((r) => r.team.name),
    ['C', 'B', 'A', 'D'],
  )
})

test('ties: head-to-head decides between teams level on points, goal difference and goals for', () => {
  // Zulu and Alpha both win 2-0 against Other, and Zulu beat Alpha 1-0 ... while Alpha beat Other2 1-0.
  const table = computeStandings(
    [t(1, 'Alpha'), t(2, 'Zulu'), t(3, 'Other'), t(4, 'Other2')],
    [
      { teamA: 2, teamB: 1, scoreA: 1, scoreB: 0 },
      { teamA: 1, teamB: 3, scoreA: 2, scoreB: 0 },
      { teamA: 1, teamB: 4, scoreA: 1, scoreB: 0 },
      { teamA: 2, teamB: 4, scoreA: 0, scoreB: 1 },
      { teamA: 2, teamB: 3, scoreA: 2, scoreB: 0 },
    ],
  )
  // Alpha: 6 pts, GF 3 GA 1; Zulu: 6 pts, GF 3 GA 1. Zulu won their meeting.
  assert.deepEqual(
    table.slice(0, 2).map((r) => [r.team.name, r.points, r.goals_for - r.goals_against]),
    [
      ['Zulu', 6, 2],
      ['Alpha', 6, 2],
    ],
  )
})

test('ties: then name, when nothing else separates them', () => {
  const table = computeStandings([t(1, 'bravo'), t(2, 'Alpha'), t(3, 'Charlie')], [])
  assert.deepEqual(
    table.map((r) => [r.rank, r.team.name]),
    [
      [1, 'Alpha'],
      [2, 'bravo'],
      [3, 'Charlie'],
    ],
  )
})

const leagueResults = fc.integer({ min: 2, max: 10 }).chain((n) => {
  const pairs = roundRobin(Array.from({ length: n }, (_, i) => i + 1)).flat()
  return fc
    .array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }), fc.boolean()), {
      minLength: pairs.length,
      maxLength: pairs.length,
    })
    .map((scores) => ({
      n,
      results: pairs
        .map(([a, b], i) => ({ teamA: a, teamB: b, scoreA: scores[i][0], scoreB: scores[i][1], played: scores[i][2] }))
        .filter((m) => m.played) as MatchResult[],
    }))
})

test('property: points sum to 3 per decided match and 2 per draw; the table is ordered', () => {
  fc.assert(
    fc.property(leagueResults, ({ n, results }) => {
      const teams = Array.from({ length: n }, (_, i) => t(i + 1, `Team ${String.fromCharCode(65 + i)}`))
      const table = computeStandings(teams, results)
      const draws = results.filter((m) => m.scoreA === m.scoreB).length
      const decided = results.length - draws
      assert.equal(
        table.reduce((s, r) => s + r.points, 0),
        3 * decided + 2 * draws,
      )
      assert.equal(
        table.reduce((s, r) => s + r.played, 0),
        2 * results.length,
      )
      assert.equal(
        table.reduce((s, r) => s + r.goals_for - r.goals_against, 0),
        0,
      )
      assert.deepEqual(
        table.map((r) => r.rank),
        teams.map((_, i) => i + 1),
      )
      for (let i = 1; i < table.length; i++) {
        const [x, y] = [table[i - 1], table[i]]
        assert.ok(x.points >= y.points)
        if (x.points === y.points) assert.ok(x.goals_for - x.goals_against >= y.goals_for - y.goals_against)
        assert.equal(x.won + x.drawn + x.lost, x.played)
      }
    }),
  )
})
