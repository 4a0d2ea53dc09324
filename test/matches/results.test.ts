import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { get, type MatchOut, matchWorld, notificationTypes, openMatch, post } from './helpers.ts'

let app: App
const clock = new ManualClock(FIXED_NOW)
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

/** A 2-a-side match with every spot taken, and the clock moved past its start (restore with `done`). */
async function playedMatch(): Promise<{ m: MatchOut; players: TestUser[]; done: () => void }> {
  const w = await matchWorld(app, { total: 80000 })
  const m = await openMatch(app, w.organizer, w.booking.id, { players_total: 4 })
  const others = await Promise.all([1, 2, 3].map(() => createUser(app, { wallet: 100000 })))
  for (const p of others) assert.equal((await post(app, p, `/api/matches/${m.id}/join`, {})).statusCode, 200)
  const saved = clock.now()
  return { m, players: [w.organizer, ...others], done: () => clock.set(saved) }
}

const atStart = (m: MatchOut) => clock.set(app.ctx.zone.instant(m.booking.date, '18:30'))

test('a result reported by a player and confirmed by the other team moves every level', async () => {
  const { m, players, done } = await playedMatch()
  const [a, b, c, d] = players
  const teams = [
    [a.id, b.id],
    [c.id, d.id],
  ]
  try {
    const early = await post(app, a, `/api/matches/${m.id}/result`, { teams, score: [5, 3] })
    assert.equal(early.statusCode, 422, early.body)
    atStart(m)
    const reported = await post(app, a, `/api/matches/${m.id}/result`, { teams, score: [5, 3] })
    assert.equal(reported.statusCode, 200, reported.body)
    assert.deepEqual(reported.json().data.result, { teams, score: [5, 3], reported_by: a.id, confirmed: false })
    assert.ok((await notificationTypes(app, c.id)).includes('MatchResultToConfirm'))
    assert.ok(!(await notificationTypes(app, b.id)).includes('MatchResultToConfirm'))
    // The reporter's own team may not confirm it.
    assert.equal((await post(app, b, `/api/matches/${m.id}/result/confirm`)).statusCode, 403)
    const confirmed = await post(app, c, `/api/matches/${m.id}/result/confirm`)
    assert.equal(confirmed.statusCode, 200, confirmed.body)
    assert.equal(confirmed.json().data.status, 'played')
    const levels = new Map(
      confirmed.json().data.players.map((p: { id: number; level: number }) => [p.id, p.level] as const),
    )
    assert.ok((levels.get(a.id) as number) > 3.5 && (levels.get(b.id) as number) > 3.5, JSON.stringify([...levels]))
    assert.ok((levels.get(c.id) as number) < 3.5 && (levels.get(d.id) as number) < 3.5, JSON.stringify([...levels]))
    assert.equal((await post(app, d, `/api/matches/${m.id}/result/confirm`)).statusCode, 409)
    assert.equal((await post(app, a, `/api/matches/${m.id}/result`, { teams, score: [1, 1] })).statusCode, 409)

    const profile = await get(app, undefined, `/api/players/${a.id}`)
    assert.equal(profile.statusCode, 200, profile.body)
    const pa = profile.json().data
    assert.equal(pa.id, a.id)
    assert.equal(pa.matches_played, 1)
    assert.equal(pa.reliability, 100)
    assert.equal(pa.levels.length, 1)
    assert.equal(pa.levels[0].sport, 'futsal')
    assert.equal(pa.levels[0].matches_played, 1)
    assert.equal(pa.levels[0].level, levels.get(a.id))
    assert.ok(pa.levels[0].reliability > 0 && pa.levels[0].reliability < 100)
  } finally {
    done()
  }
})

test('a draw leaves equal players where they were', async () => {
  const { m, players, done } = await playedMatch()
  try {
    atStart(m)
    const teams = [
      [players[0].id, players[1].id],
      [players[2].id, players[3].id],
    ]
    assert.equal((await post(app, players[2], `/api/matches/${m.id}/result`, { teams, score: [2, 2] })).statusCode, 200)
    const res = await post(app, players[0], `/api/matches/${m.id}/result/confirm`)
    assert.equal(res.statusCode, 200, res.body)
    for (const p of res.json().data.players) assert.equal(p.level, 3.5)
  } finally {
    done()
  }
})

test('result: who may report and confirm, and validation', async () => {
  const { m, players, done } = await playedMatch()
  const [a, b, c, d] = players
  const stranger = await createUser(app)
  const teams = [
    [a.id, b.id],
    [c.id, d.id],
  ]
  try {
    atStart(m)
    assert.equal((await post(app, undefined, `/api/matches/${m.id}/result`, { teams, score: [1, 0] })).statusCode, 401)
    assert.equal((await post(app, stranger, `/api/matches/${m.id}/result`, { teams, score: [1, 0] })).statusCode, 403)
    assert.equal((await post(app, a, `/api/matches/${m.id}/result/confirm`)).statusCode, 422, 'no result yet')
    for (const body of [
      { teams, score: [1] },
      { teams, score: ['1', '0'] },
      { teams, score: [-1, 0] },
      { teams: [[a.id, b.id]], score: [1, 0] },
      { teams: [[a.id, b.id], []], score: [1, 0] },
      { teams: 'a', score: [1, 0] },
      {
        teams: [
          [a.id, b.id],
          [c.id, stranger.id],
        ],
        score: [1, 0],
      },
      {
        teams: [
          [a.id, b.id],
          [a.id, c.id],
        ],
        score: [1, 0],
      },
    ]) {
      const res = await post(app, a, `/api/matches/${m.id}/result`, body)
      assert.equal(res.statusCode, 422, `${JSON.stringify(body)} ${res.body}`)
      assert.ok(res.json().errors, res.body)
    }
    assert.equal((await post(app, stranger, `/api/matches/${m.id}/result/confirm`)).statusCode, 403)
    assert.equal((await post(app, a, '/api/matches/99999999/result/confirm')).statusCode, 404)
  } finally {
    done()
  }
})

test('the players route: an unrated player, unknown ids 404', async () => {
  const u = await createUser(app, { name: 'New Player' })
  const res = await get(app, undefined, `/api/players/${u.id}`)
  assert.equal(res.statusCode, 200, res.body)
  assert.deepEqual(res.json().data, { id: u.id, name: 'New Player', levels: [], reliability: 100, matches_played: 0 })
  assert.equal((await get(app, undefined, '/api/players/99999999')).statusCode, 404)
  assert.equal((await get(app, undefined, '/api/players/abc')).statusCode, 404)
})
