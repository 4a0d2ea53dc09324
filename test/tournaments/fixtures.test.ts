import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, FIXED_NOW } from '../helpers/factories.ts'
import { generate, insertTournament, ownerWithVenue, score, withTeams } from './helpers.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

interface Ref {
  id: number
  name: string
}
interface F {
  id: number
  round: string
  match_number: number
  team_a: Ref | null
  team_b: Ref | null
  status: string
  result: { score_a: number; score_b: number; winner_id: number | null } | null
  stage: string
  group: string | null
  next_fixture_id: number | null
  next_slot: string | null
}

const fixturesOf = async (id: number): Promise<F[]> =>
  (await app.inject({ method: 'GET', url: `/api/tournaments/${id}/fixtures` })).json().data
const statusOf = async (id: number): Promise<string> =>
  (await app.inject({ method: 'GET', url: `/api/tournaments/${id}` })).json().data.status

test('league: every pair meets once; regenerating is allowed until a result is recorded, then 422', async () => {
  const { owner, venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id, { format: 'league' })
  const ids = await withTeams(app, t.id, ['A', 'B', 'C', 'D'])
  const res = await generate(app, t.id, owner)
  assert.equal(res.statusCode, 201)
  const first: F[] = res.json().data
  assert.equal(first.length, 6)
  const pairs = new Set(first.map((f) => [f.team_a!.id, f.team_b!.id].sort((x, y) => x - y).join('-')))
  assert.equal(pairs.size, 6)
  for (const f of first) {
    assert.ok(ids.includes(f.team_a!.id) && ids.includes(f.team_b!.id))
    assert.equal(f.stage, 'league')
    assert.equal(f.status, 'scheduled')
  }
  assert.deepEqual(
    first.map((f) => f.match_number),
    [1, 2, 3, 4, 5, 6],
  )

  const again = await generate(app, t.id, owner)
  assert.equal(again.statusCode, 201)
  const second: F[] = again.json().data
  assert.equal(second.length, 6)
  assert.deepEqual(await fixturesOf(t.id), second)

  const played = await score(app, second[0].id, owner, { score_a: 1, score_b: 1 })
  assert.equal(played.statusCode, 200)
  assert.deepEqual(played.json().data.result, { score_a: 1, score_b: 1, winner_id: null })
  assert.equal(played.json().data.status, 'completed')
  assert.equal(await statusOf(t.id), 'ongoing')

  const refused = await generate(app, t.id, owner)
  assert.equal(refused.statusCode, 422)
  assert.deepEqual(refused.json(), { message: 'Fixtures cannot be regenerated once a result is recorded.' })
  assert.equal((await fixturesOf(t.id)).length, 6)
})

test('generate: open registration, too few teams and ungroupable counts are 422; only owner or manager', async () => {
  const { owner, venue } = await ownerWithVenue(app)
  const open = await insertTournament(app, venue.id)
  await withTeams(app, open.id, ['A', 'B'], false)
  let res = await generate(app, open.id, owner)
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: 'Close registration before generating fixtures.' })

  const lonely = await insertTournament(app, venue.id)
  await withTeams(app, lonely.id, ['Solo'])
  res = await generate(app, lonely.id, owner)
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: 'At least 2 teams are needed to generate fixtures.' })

  const groups = await insertTournament(app, venue.id, { format: 'group_knockout' })
  await withTeams(app, groups.id, ['A', 'B', 'C', 'D', 'E'])
  res = await generate(app, groups.id, owner)
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: '5 teams cannot be split into groups of 3 to 4.' })

  const t = await insertTournament(app, venue.id)
  await withTeams(app, t.id, ['A', 'B'])
  assert.equal(
    (await app.inject({ method: 'POST', url: `/api/tournaments/${t.id}/fixtures/generate` })).statusCode,
    401,
  )
  const customer = await createUser(app)
  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, venue.id, staff.id, 'staff')
  const { owner: stranger } = await ownerWithVenue(app)
  for (const who of [customer, staff, stranger]) assert.equal((await generate(app, t.id, who)).statusCode, 403)
  const manager = await createUser(app, { roles: ['manager'] })
  await assignStaff(app, venue.id, manager.id, 'manager')
  assert.equal((await generate(app, t.id, manager)).statusCode, 201)
  assert.equal((await generate(app, 999999, owner)).statusCode, 404)
})

test('knockout of 4: semi-finals then a final; winners advance; a draw needs winner_id', async () => {
  const { owner, venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id, { format: 'knockout' })
  const [a, b, c, d] = await withTeams(app, t.id, ['A', 'B', 'C', 'D'])
  const res = await generate(app, t.id, owner)
  assert.equal(res.statusCode, 201)
  const fx: F[] = res.json().data
  assert.equal(fx.length, 3)
  const [s1, s2, final] = fx
  assert.deepEqual([s1.round, s2.round, final.round], ['Semi-final', 'Semi-final', 'Final'])
  assert.equal(final.team_a, null)
  assert.equal(final.team_b, null)
  assert.equal(s1.next_fixture_id, final.id)
  assert.equal(s2.next_fixture_id, final.id)
  // Seed 1 meets seed 4, seed 2 meets seed 3.
  assert.deepEqual([s1.team_a!.id, s1.team_b!.id].sort(), [a, d].sort())
  assert.deepEqual([s2.team_a!.id, s2.team_b!.id].sort(), [b, c].sort())

  // The final cannot be played before both teams are known.
  let r = await score(app, final.id, owner, { score_a: 1, score_b: 0 })
  assert.equal(r.statusCode, 422)
  assert.deepEqual(r.json(), { message: 'Both teams of this fixture are not known yet.' })

  // A knockout draw without winner_id is refused; with one of the two teams it stands.
  r = await score(app, s1.id, owner, { score_a: 2, score_b: 2 })
  assert.equal(r.statusCode, 422)
  assert.deepEqual(r.json(), {
    message: 'The given data was invalid.',
    errors: { winner_id: ['The winner id field is required when a knockout match is drawn.'] },
  })
  r = await score(app, s1.id, owner, { score_a: 2, score_b: 2, winner_id: c })
  assert.equal(r.statusCode, 422)
  assert.deepEqual(r.json().errors, { winner_id: ['The selected winner id is invalid.'] })
  r = await score(app, s1.id, owner, { score_a: 2, score_b: 2, winner_id: s1.team_b!.id })
  assert.equal(r.statusCode, 200)
  assert.deepEqual(r.json().data.result, { score_a: 2, score_b: 2, winner_id: s1.team_b!.id })

  // A decisive score names its own winner; a contradicting winner_id is refused.
  r = await score(app, s2.id, owner, { score_a: 0, score_b: 3, winner_id: s2.team_a!.id })
  assert.equal(r.statusCode, 422)
  r = await score(app, s2.id, owner, { score_a: 0, score_b: 3 })
  assert.equal(r.statusCode, 200)
  assert.equal(r.json().data.result.winner_id, s2.team_b!.id)

  let now = (await fixturesOf(t.id)).find((f) => f.id === final.id)!
  assert.deepEqual(now[s1.next_slot === 'a' ? 'team_a' : 'team_b'], s1.team_b)
  assert.deepEqual(now[s2.next_slot === 'a' ? 'team_a' : 'team_b'], s2.team_b)

  // Correcting a semi-final before the final is played moves the other team on.
  r = await score(app, s1.id, owner, { score_a: 3, score_b: 2 })
  assert.equal(r.statusCode, 200)
  now = (await fixturesOf(t.id)).find((f) => f.id === final.id)!
  assert.deepEqual(now[s1.next_slot === 'a' ? 'team_a' : 'team_b'], s1.team_a)

  r = await score(app, final.id, owner, { score_a: 1, score_b: 0 })
  assert.equal(r.statusCode, 200)
  assert.equal(r.json().data.result.winner_id, now.team_a!.id)
  // Once the final is played, a semi-final result that would change its teams is refused.
  r = await score(app, s1.id, owner, { score_a: 0, score_b: 1 })
  assert.equal(r.statusCode, 422)
  assert.deepEqual(r.json(), { message: 'The next round has already been played.' })
})

test('group_knockout of 6: two groups of 3, then the top two of each group fill the semi-finals', async () => {
  const { owner, venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id, { format: 'group_knockout' })
  await withTeams(app, t.id, ['A', 'B', 'C', 'D', 'E', 'F'])
  const res = await generate(app, t.id, owner)
  assert.equal(res.statusCode, 201)
  const fx: F[] = res.json().data
  const group = fx.filter((f) => f.stage === 'group')
  const knockout = fx.filter((f) => f.stage === 'knockout')
  assert.equal(group.length, 6)
  assert.equal(knockout.length, 3)
  assert.deepEqual([...new Set(group.map((f) => f.group))].sort(), ['A', 'B'])
  for (const f of knockout) assert.ok(f.team_a === null && f.team_b === null)

  // The team listed first in each group fixture wins; the table decides who goes through.
  for (const f of group) assert.equal((await score(app, f.id, owner, { score_a: 1, score_b: 0 })).statusCode, 200)
  const standings = (await app.inject({ method: 'GET', url: `/api/tournaments/${t.id}/standings` })).json().data
  assert.equal(standings.length, 6)
  const table = (g: string) =>
    standings.filter((s: { group: string }) => s.group === g).map((s: { team: Ref }) => s.team.id)
  const [a1, a2] = table('A')
  const [b1, b2] = table('B')
  const semis = (await fixturesOf(t.id)).filter((f) => f.stage === 'knockout' && f.round === 'Semi-final')
  assert.equal(semis.length, 2)
  const pairings = semis.map((f) => [f.team_a!.id, f.team_b!.id].sort((x, y) => x - y).join('-')).sort()
  assert.deepEqual(
    pairings,
    [
      [a1, b2],
      [b1, a2],
    ]
      .map((p) => p.sort((x, y) => x - y).join('-'))
      .sort(),
  )

  // Once the knockout has started, group results are frozen.
  assert.equal((await score(app, semis[0].id, owner, { score_a: 2, score_b: 0 })).statusCode, 200)
  const r = await score(app, group[0].id, owner, { score_a: 0, score_b: 5 })
  assert.equal(r.statusCode, 422)
  assert.deepEqual(r.json(), { message: 'The knockout stage has already started.' })
})

test('results: validation 422, unknown fixture 404, only the venue’s owner or manager, not after completion', async () => {
  const { owner, venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id)
  await withTeams(app, t.id, ['A', 'B'])
  const [f] = (await generate(app, t.id, owner)).json().data as F[]
  for (const body of [{}, { score_a: -1, score_b: 0 }, { score_a: 'x', score_b: 1 }, { score_a: 1.5, score_b: 1 }]) {
    const r = await score(app, f.id, owner, body)
    assert.equal(r.statusCode, 422, JSON.stringify(body))
    assert.equal(r.json().message, 'The given data was invalid.')
  }
  assert.equal((await score(app, 999999, owner, { score_a: 1, score_b: 0 })).statusCode, 404)
  assert.equal((await score(app, Number.NaN, owner, { score_a: 1, score_b: 0 })).statusCode, 404)
  const res = await app.inject({ method: 'PATCH', url: `/api/fixtures/${f.id}`, payload: { score_a: 1, score_b: 0 } })
  assert.equal(res.statusCode, 401)
  const customer = await createUser(app)
  const { owner: stranger } = await ownerWithVenue(app)
  for (const who of [customer, stranger]) {
    assert.equal((await score(app, f.id, who, { score_a: 1, score_b: 0 })).statusCode, 403)
  }
  assert.equal((await fixturesOf(t.id))[0].status, 'scheduled')

  await app.ctx.db.updateTable('tournaments').set({ status: 'completed' }).where('id', '=', t.id).execute()
  const done = await score(app, f.id, owner, { score_a: 1, score_b: 0 })
  assert.equal(done.statusCode, 422)
  assert.deepEqual(done.json(), { message: 'Results cannot be recorded for a completed tournament.' })
})

test('knockouts of 2 to 9 teams through the API: n-1 fixtures, every one playable in order, one champion', async () => {
  const { owner, venue } = await ownerWithVenue(app)
  for (let n = 2; n <= 9; n++) {
    const t = await insertTournament(app, venue.id, { format: 'knockout', max_teams: 16 })
    const ids = await withTeams(
      app,
      t.id,
      Array.from({ length: n }, (_, i) => `K${n}-${i + 1}`),
    )
    const res = await generate(app, t.id, owner)
    assert.equal(res.statusCode, 201)
    const planned: F[] = res.json().data
    assert.equal(planned.length, n - 1, `n=${n}`)
    assert.equal(planned.filter((f) => f.next_fixture_id === null).length, 1, `n=${n}: one final`)
    // Play in match order; the lower seed number (registered earlier) always wins.
    const eliminated = new Set<number>()
    for (const { id } of planned) {
      const f = (await fixturesOf(t.id)).find((x) => x.id === id)!
      assert.ok(f.team_a && f.team_b, `n=${n}: match ${f.match_number} has both teams when its turn comes`)
      const aWins = ids.indexOf(f.team_a.id) < ids.indexOf(f.team_b.id)
      const r = await score(app, f.id, owner, aWins ? { score_a: 2, score_b: 0 } : { score_a: 0, score_b: 2 })
      assert.equal(r.statusCode, 200)
      eliminated.add(aWins ? f.team_b.id : f.team_a.id)
    }
    assert.equal(eliminated.size, n - 1)
    const final = (await fixturesOf(t.id)).find((f) => f.next_fixture_id === null)!
    assert.equal(final.result?.winner_id, ids[0], `n=${n}: the top seed wins`)
  }
})

test('group_knockout of 6 to 12 teams through the API: groups of 3-4, then a full knockout to one champion', async () => {
  const { owner, venue } = await ownerWithVenue(app)
  for (const n of [6, 7, 8, 9, 12]) {
    const t = await insertTournament(app, venue.id, { format: 'group_knockout', max_teams: 16 })
    await withTeams(
      app,
      t.id,
      Array.from({ length: n }, (_, i) => `G${n}-${i + 1}`),
    )
    const res = await generate(app, t.id, owner)
    assert.equal(res.statusCode, 201, `n=${n}`)
    const planned: F[] = res.json().data
    const groups = new Map<string, Set<number>>()
    for (const f of planned.filter((x) => x.stage === 'group')) {
      const set = groups.get(f.group!) ?? new Set<number>()
      set.add(f.team_a!.id).add(f.team_b!.id)
      groups.set(f.group!, set)
    }
    const sizes = [...groups.values()].map((s) => s.size)
    assert.ok(
      sizes.every((s) => s === 3 || s === 4),
      `n=${n}: sizes ${sizes}`,
    )
    assert.equal(
      sizes.reduce((a, b) => a + b, 0),
      n,
    )
    const groupMatches = sizes.reduce((a, s) => a + (s * (s - 1)) / 2, 0)
    assert.equal(planned.length, groupMatches + 2 * groups.size - 1, `n=${n}`)
    for (const { id } of planned) {
      const f = (await fixturesOf(t.id)).find((x) => x.id === id)!
      assert.ok(f.team_a && f.team_b, `n=${n}: match ${f.match_number} has both teams`)
      assert.equal((await score(app, f.id, owner, { score_a: 1, score_b: 0 })).statusCode, 200)
    }
    const final = (await fixturesOf(t.id)).find((f) => f.stage === 'knockout' && f.next_fixture_id === null)!
    assert.equal(final.status, 'completed')
    assert.equal(final.result?.winner_id, final.team_a?.id)
  }
})
