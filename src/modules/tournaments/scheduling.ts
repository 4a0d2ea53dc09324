// Fixture plans for the three tournament formats. Pure: no I/O, no dates from the clock; the
// service turns a plan into rows. Teams are identified by their position in registration order.

export type Stage = 'league' | 'group' | 'knockout'

/** Where a knockout slot's team comes from: a seed, or the winner of an earlier match of the plan. */
export type Slot = { seed: number } | { winnerOf: number }

export interface PlannedMatch<T> {
  /** 0-based position in the plan; match_number is index + 1. */
  index: number
  stage: Stage
  group: string | null
  /** 1-based round across the whole tournament (group rounds first, then knockout rounds). */
  roundNumber: number
  round: string
  teamA: T | null
  teamB: T | null
  /** Knockout only: where each side comes from, and where the winner goes. */
  slotA?: Slot
  slotB?: Slot
  next?: { index: number; slot: 'a' | 'b' } | null
}

/**
 * Round robin by the circle method: one team stays put, the others rotate one place a round.
 * An odd count gets a bye (null), and a pairing with the bye is not a match. Returns the rounds,
 * each a list of [home, away] pairs; every pair of teams meets exactly once.
 */
export function roundRobin<T>(teams: readonly T[]): [T, T][][] {
  if (teams.length < 2) return []
  const ring: (T | null)[] = [...teams]
  if (ring.length % 2 === 1) ring.push(null)
  const n = ring.length
  const rounds: [T, T][][] = []
  for (let r = 0; r < n - 1; r++) {
    const round: [T, T][] = []
    for (let i = 0; i < n / 2; i++) {
      const a = ring[i]
      const b = ring[n - 1 - i]
      if (a === null || b === null) continue
      // Alternate home and away so the fixed team is not always first.
      round.push(r % 2 === 0 || i !== 0 ? [a, b] : [b, a])
    }
    rounds.push(round)
    // Keep ring[0] fixed; rotate the rest clockwise by one.
    ring.splice(1, 0, ring.pop() as T | null)
  }
  return rounds
}

/** Smallest power of two ≥ n (n ≥ 1). */
export function nextPowerOfTwo(n: number): number {
  let p = 1
  while (p < n) p *= 2
  return p
}

/** Standard bracket order of seeds for a bracket of `size` (a power of two): 1 meets size, 2 meets size-1 … */
export function bracketOrder(size: number): number[] {
  let order = [1]
  while (order.length < size) {
    const total = order.length * 2 + 1
    order = order.flatMap((s) => [s, total - s])
  }
  return order
}

export function knockoutRoundName(matchesInRound: number): string {
  if (matchesInRound === 1) return 'Final'
  if (matchesInRound === 2) return 'Semi-final'
  if (matchesInRound === 4) return 'Quarter-final'
  return `Round of ${matchesInRound * 2}`
}

/**
 * Single elimination for `seeds` entrants (seed 1 = first registered). The bracket is padded to
 * the next power of two with byes, which the top seeds receive; a bye is not a match: its team
 * goes straight into the next round. So n entrants play exactly n - 1 matches.
 */
export function knockoutBracket(seeds: number, firstRound = 1): Omit<PlannedMatch<never>, 'teamA' | 'teamB'>[] {
  if (seeds < 2) return []
  const size = nextPowerOfTwo(seeds)
  const order = bracketOrder(size)
  // Entries of the current round: a seed, or the winner of a planned match.
  let entries: (Slot | null)[] = order.map((s) => (s <= seeds ? { seed: s } : null))
  const matches: Omit<PlannedMatch<never>, 'teamA' | 'teamB'>[] = []
  let round = 0
  while (entries.length > 1) {
    const nextEntries: (Slot | null)[] = []
    const roundMatches: number[] = []
    for (let i = 0; i < entries.length; i += 2) {
      const a = entries[i]
      const b = entries[i + 1]
      if (a && b) {
        const index = matches.length
        matches.push({
          index,
          stage: 'knockout',
          group: null,
          roundNumber: firstRound + round,
          round: '',
          slotA: a,
          slotB: b,
          next: null,
        })
        roundMatches.push(index)
        nextEntries.push({ winnerOf: index })
      } else {
        // A bye: whoever is there advances without playing.
        nextEntries.push(a ?? b)
      }
    }
    const name = knockoutRoundName(entries.length / 2)
    for (const i of roundMatches) matches[i].round = name
    entries = nextEntries
    round++
  }
  // Link each match to the one its winner plays next.
  for (const m of matches) {
    for (const [slot, side] of [
      ['a', m.slotA],
      ['b', m.slotB],
    ] as const) {
      if (side && 'winnerOf' in side) matches[side.winnerOf].next = { index: m.index, slot }
    }
  }
  return matches
}

/** Group sizes for n teams: groups of 3 or 4, as even as possible. Throws when n cannot be split so. */
export function groupSizes(n: number): number[] {
  if (n < 3) throw new RangeError('A group stage needs at least 3 teams.')
  const groups = Math.ceil(n / 4)
  const base = Math.floor(n / groups)
  if (base < 3) throw new RangeError(`${n} teams cannot be split into groups of 3 to 4.`)
  return Array.from({ length: groups }, (_, g) => base + (g < n % groups ? 1 : 0))
}

export const groupName = (g: number) => String.fromCharCode(65 + g)

/**
 * Assigns teams (in registration order) to groups round-robin style: A, B, C, A, B, C …, which
 * spreads the earliest registrations across groups and yields the sizes of `groupSizes`.
 */
export function assignGroups<T>(teams: readonly T[]): T[][] {
  const sizes = groupSizes(teams.length)
  const groups: T[][] = sizes.map(() => [])
  for (const [i, t] of teams.entries()) groups[i % sizes.length].push(t)
  return groups
}

/**
 * Knockout seeds of a group stage with `groups` groups, top two advancing: winners first (A1,
 * B1 …), then runners-up ordered so that a winner never meets the runner-up of its own group in
 * the first round (A1–B2, B1–A2 with two groups).
 */
export function qualifierSeeds(groups: number): { group: string; rank: 1 | 2 }[] {
  const winners = Array.from({ length: groups }, (_, g) => ({ group: groupName(g), rank: 1 as const }))
  const runners = Array.from({ length: groups }, (_, g) => ({ group: groupName(g), rank: 2 as const }))
  // Rotate by one, then reverse: [A2,B2] -> [A2,B2]; [A2,B2,C2] -> [A2,C2,B2]; [A2..D2] -> [A2,D2,C2,B2].
  const rotated = [...runners.slice(1), runners[0]].reverse()
  return [...winners, ...rotated]
}

/** The whole plan for a tournament of `format` with these teams (in registration order). */
export function planFixtures<T>(
  format: 'league' | 'knockout' | 'group_knockout',
  teams: readonly T[],
): PlannedMatch<T>[] {
  if (format === 'league') {
    const out: PlannedMatch<T>[] = []
    roundRobin(teams).forEach((round, r) => {
      for (const [a, b] of round) {
        out.push({
          index: out.length,
          stage: 'league',
          group: null,
          roundNumber: r + 1,
          round: `Round ${r + 1}`,
          teamA: a,
          teamB: b,
        })
      }
    })
    return out
  }
  if (format === 'knockout') {
    return knockoutBracket(teams.length).map((m) => ({
      ...m,
      teamA: m.slotA && 'seed' in m.slotA ? teams[m.slotA.seed - 1] : null,
      teamB: m.slotB && 'seed' in m.slotB ? teams[m.slotB.seed - 1] : null,
    }))
  }
  // group_knockout: every group's round r is played in the same tournament round r.
  const groups = assignGroups(teams)
  const out: PlannedMatch<T>[] = []
  const perGroup = groups.map((g) => roundRobin(g))
  const groupRounds = Math.max(...perGroup.map((r) => r.length))
  for (let r = 0; r < groupRounds; r++) {
    perGroup.forEach((rounds, g) => {
      for (const [a, b] of rounds[r] ?? []) {
        out.push({
          index: out.length,
          stage: 'group',
          group: groupName(g),
          roundNumber: r + 1,
          round: `Group ${groupName(g)} - Round ${r + 1}`,
          teamA: a,
          teamB: b,
        })
      }
    })
  }
  const offset = out.length
  for (const m of knockoutBracket(groups.length * 2, groupRounds + 1)) {
    const shift = (s: Slot | undefined): Slot | undefined =>
      s && 'winnerOf' in s ? { winnerOf: s.winnerOf + offset } : s
    out.push({
      ...m,
      index: m.index + offset,
      slotA: shift(m.slotA),
      slotB: shift(m.slotB),
      next: m.next ? { index: m.next.index + offset, slot: m.next.slot } : null,
      teamA: null,
      teamB: null,
    })
  }
  return out
}

/**
 * Spreads rounds over the tournament's dates: round r of R falls on day floor((r-1)·D/R) of the
 * D days from starts_at; matches on the same day start at 08:00 and follow each other hourly.
 */
export function scheduleRounds(
  roundNumbers: readonly number[],
  startsAt: string,
  endsAt: string,
): { date: string; time: string }[] {
  const day = 86_400_000
  const start = Date.parse(`${startsAt}T00:00:00Z`)
  const days = Math.max(1, Math.round((Date.parse(`${endsAt}T00:00:00Z`) - start) / day) + 1)
  const rounds = Math.max(1, ...roundNumbers)
  const perDay = new Map<number, number>()
  return roundNumbers.map((r) => {
    const offset = Math.floor(((r - 1) * days) / rounds)
    const k = perDay.get(offset) ?? 0
    perDay.set(offset, k + 1)
    const hour = 8 + (k % 14)
    return {
      date: new Date(start + offset * day).toISOString().slice(0, 10),
      time: `${String(hour).padStart(2, '0')}:00:00`,
    }
  })
}
