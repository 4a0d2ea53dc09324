import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW } from '../helpers/factories.ts'
import { get, matchWorld, openMatch, post } from './helpers.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('ten players racing for the last spot: exactly one joins, nine get 409, one share paid', async () => {
  const w = await matchWorld(app, { total: 90000 })
  const m = await openMatch(app, w.organizer, w.booking.id, { players_total: 3 })
  const first = await createUser(app, { wallet: 100000 })
  assert.equal((await post(app, first, `/api/matches/${m.id}/join`, {})).statusCode, 200)
  const racers = await Promise.all(Array.from({ length: 10 }, () => createUser(app, { wallet: 100000 })))
  const results = await Promise.all(racers.map((u) => post(app, u, `/api/matches/${m.id}/join`, {})))
  const codes = results.map((r) => r.statusCode)
  assert.equal(codes.filter((c) => c === 200).length, 1, codes.join(','))
  assert.equal(codes.filter((c) => c === 409).length, 9, codes.join(','))
  for (const r of results.filter((x) => x.statusCode === 409)) {
    assert.deepEqual(r.json(), { message: 'This match is full.' })
  }
  const shown = (await get(app, w.organizer, `/api/matches/${m.id}`)).json().data
  assert.equal(shown.status, 'full')
  assert.equal(shown.players.length, 3)
  const shares = (await get(app, w.organizer, `/api/bookings/${w.booking.id}/shares`)).json().data.shares
  assert.deepEqual(
    shares.map((s: { status: string }) => s.status),
    ['unpaid', 'paid', 'paid'],
  )
  // Only the winner paid.
  const balances = await app.ctx.db
    .selectFrom('users')
    .select('wallet_balance')
    .where(
      'id',
      'in',
      racers.map((r) => r.id),
    )
    .execute()
  assert.equal(balances.filter((b) => b.wallet_balance === 70000).length, 1)
})

test('a leave and a join racing for one spot: the books and the spots agree afterwards', async () => {
  const w = await matchWorld(app, { total: 60000 })
  const m = await openMatch(app, w.organizer, w.booking.id, { players_total: 2 })
  const leaver = await createUser(app, { wallet: 100000 })
  assert.equal((await post(app, leaver, `/api/matches/${m.id}/join`, {})).statusCode, 200)
  const joiners = await Promise.all(Array.from({ length: 5 }, () => createUser(app, { wallet: 100000 })))
  const [left, ...joins] = await Promise.all([
    post(app, leaver, `/api/matches/${m.id}/leave`),
    ...joiners.map((u) => post(app, u, `/api/matches/${m.id}/join`, {})),
  ])
  assert.equal(left.statusCode, 200, left.body)
  const codes = joins.map((r) => r.statusCode)
  assert.ok(
    codes.every((c) => c === 200 || c === 409),
    codes.join(','),
  )
  assert.ok(codes.filter((c) => c === 200).length <= 1, codes.join(','))
  const shown = (await get(app, w.organizer, `/api/matches/${m.id}`)).json().data
  const live = await app.ctx.db
    .selectFrom('match_players')
    .select('user_id')
    .where('match_id', '=', m.id)
    .where('left_at', 'is', null)
    .execute()
  assert.equal(shown.players.length, live.length)
  assert.ok(live.length <= 2)
})
