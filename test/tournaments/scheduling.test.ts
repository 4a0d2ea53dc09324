import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import {
  assignGroups,
  bracketOrder,
  groupSizes,
  knockoutBracket,
  planFixtures,
  qualifierSeeds,
  roundRobin,
  scheduleRounds,
} from '../../src/modules/tournaments/scheduling.ts'

const teams = (n: number) => Array.from({ length: n }, (_, i) => i + 1)
const pairKey = (a: number, b: number) => (a < b ? `${a}-${b}` : `${b}-${a}`)

test('round robin of 4 teams: 3 rounds of 2 matches, every pair once', () => {
  const rounds = roundRobin(teams(4))
  assert.equal(rounds.length, 3)
  assert.ok(rounds.every((r) => r.length === 2))
  const pairs = rounds.flat().map(([a, b]) => pairKey(a, b))
  assert.deepEqual([...new Set(pairs)].sort(), ['1-2', '1-3', '1-4', '2-3', '2-4', '3-4'])
})

test('round robin of 5 teams: 5 rounds, one team rests each round (the bye is not a match)', () => {
  const rounds = roundRobin(teams(5))
  assert.equal(rounds.length, 5)
  assert.ok(rounds.every((r) => r.length === 2))
  const resting = rounds.map((r) => teams(5).find((t) => !r.flat().includes(t)))
  assert.deepEqual([...resting].sort(), [1, 2, 3, 4, 5])
})

test('property: in a league every pair meets exactly once and nobody plays twice in a round', () => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 24 }), (n) => {
      const rounds = roundRobin(teams(n))
      assert.equal(rounds.length, n % 2 === 0 ? n - 1 : n)
      const seen = new Map<string, number>()
      for (const round of rounds) {
        const inRound = round.flat()
        assert.equal(new Set(inRound).size, inRound.length)
        for (const [a, b] of round) {
          assert.notEqual(a, b)
          seen.set(pairKey(a, b), (seen.get(pairKey(a, b)) ?? 0) + 1)
        }
      }
      assert.equal(seen.size, (n * (n - 1)) / 2)
      assert.ok([...seen.values()].every((c) => c === 1))
    }),
  )
})

test('bracket order puts seed 1 against the last seed and keeps 1 and 2 apart until the final', () => {
  assert.deepEqual(bracketOrder(4), [1, 4, 2, 3])
  assert.deepEqual(bracketOrder(8), [1, 8, 4, 5, 2, 7, 3, 6])
})

test('a knockout of 6 teams: byes to seeds 1 and 2, 2 first-round matches, semi-finals and final', () => {
  const plan = planFixtures('knockout', ['A', 'B', 'C', 'D', 'E', 'F'])
  assert.equal(plan.length, 5)
  assert.deepEqual(
    plan.map((m) => [m.round, m.teamA, m.teamB]),
    [
      ['Quarter-final', 'D', 'E'],
      ['Quarter-final', 'C', 'F'],
      ['Semi-final', 'A', null],
      ['Semi-final', 'B', null],
      ['Final', null, null],
    ],
  )
  assert.deepEqual(plan[0].next, { index: 2, slot: 'b' })
  assert.deepEqual(plan[1].next, { index: 3, slot: 'b' })
  assert.deepEqual(plan[2].next, { index: 4, slot: 'a' })
  assert.deepEqual(plan[3].next, { index: 4, slot: 'b' })
  assert.equal(plan[4].next, null)
})

test('property: a knockout of n teams has n-1 matches, one final, and every team enters exactly once', () => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 100 }), (n) => {
      const plan = knockoutBracket(n)
      assert.equal(plan.length, n - 1)
      assert.equal(plan.filter((m) => m.next === null).length, 1)
      const seeds = plan.flatMap((m) => [m.slotA, m.slotB]).flatMap((s) => (s && 'seed' in s ? [s.seed] : []))
      assert.deepEqual(
        [...seeds].sort((a, b) => a - b),
        teams(n),
      )
      // Every match but the final feeds exactly one slot of a later match.
      const fed = new Map<string, number>()
      for (const m of plan) {
        if (!m.next) continue
        assert.ok(m.next.index > m.index)
        const key = `${m.next.index}${m.next.slot}`
        fed.set(key, (fed.get(key) ?? 0) + 1)
      }
      assert.ok([...fed.values()].every((c) => c === 1))
    }),
  )
})

test('groups are 3 or 4 teams; 5 teams cannot be grouped', () => {
  assert.deepEqual(groupSizes(3), [3])
  assert.deepEqual(groupSizes(8), [4, 4])
  assert.deepEqual(groupSizes(10), [4, 3, 3])
  assert.throws(() => groupSizes(5))
  assert.throws(() => groupSizes(2))
  fc.assert(
    fc.property(
      fc.integer({ min: 3, max: 64 }).filter((n) => n !== 5),
      (n) => {
        const groups = assignGroups(teams(n))
        assert.ok(groups.every((g) => g.length >= 3 && g.length <= 4))
        assert.equal(groups.flat().length, n)
      },
    ),
  )
})

test('group winners meet other groups’ runners-up first', () => {
  assert.deepEqual(
    qualifierSeeds(2).map((q) => `${q.group}${q.rank}`),
    ['A1', 'B1', 'A2', 'B2'],
  )
  for (const g of [2, 3, 4, 5, 8]) {
    const seeds = qualifierSeeds(g)
    for (const m of knockoutBracket(g * 2)) {
      if (m.slotA && m.slotB && 'seed' in m.slotA && 'seed' in m.slotB) {
        assert.notEqual(seeds[m.slotA.seed - 1].group, seeds[m.slotB.seed - 1].group, `groups ${g}`)
      }
    }
  }
})

test('group_knockout of 8: two groups of 4 (6 matches each), then semi-finals and a final', () => {
  const plan = planFixtures('group_knockout', teams(8))
  const group = plan.filter((m) => m.stage === 'group')
  const ko = plan.filter((m) => m.stage === 'knockout')
  assert.equal(group.length, 12)
  assert.deepEqual([...new Set(group.map((m) => m.group))], ['A', 'B'])
  assert.deepEqual(
    ko.map((m) => m.round),
    ['Semi-final', 'Semi-final', 'Final'],
  )
  assert.ok(ko.every((m) => m.teamA === null && m.teamB === null && m.roundNumber > 3))
  assert.deepEqual(ko[0].next, { index: 14, slot: 'a' })
  assert.deepEqual(
    plan.map((m) => m.index),
    plan.map((_, i) => i),
  )
})

test('rounds are spread over the tournament days, hourly from 08:00', () => {
  assert.deepEqual(scheduleRounds([1, 1, 2, 3], '2030-01-01', '2030-01-03'), [
    { date: '2030-01-01', time: '08:00:00' },
    { date: '2030-01-01', time: '09:00:00' },
    { date: '2030-01-02', time: '08:00:00' },
    { date: '2030-01-03', time: '08:00:00' },
  ])
  assert.deepEqual(scheduleRounds([1, 2], '2030-01-01', '2030-01-01'), [
    { date: '2030-01-01', time: '08:00:00' },
    { date: '2030-01-01', time: '09:00:00' },
  ])
})
