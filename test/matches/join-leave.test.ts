import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW } from '../helpers/factories.ts'
import { simulate } from '../payments/helpers.ts'
import { get, matchWorld, notificationTypes, openMatch, post, setLevel } from './helpers.ts'

let app: App
const clock = new ManualClock(FIXED_NOW)
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

const wallet = async (id: number) =>
  (await app.ctx.db.selectFrom('users').select('wallet_balance').where('id', '=', id).executeTakeFirstOrThrow())
    .wallet_balance

test('a player within the level range joins and pays their share from the wallet', async () => {
  const w = await matchWorld(app, { total: 100000 })
  const m = await openMatch(app, w.organizer, w.booking.id, { level_min: 3, level_max: 4 })
  const player = await createUser(app, { name: 'Sita Gurung', wallet: 100000 })
  await setLevel(app, player.id, 'futsal', 3.8)
  const res = await post(app, player, `/api/matches/${m.id}/join`, {})
  assert.equal(res.statusCode, 200, res.body)
  const body = res.json()
  assert.equal(body.message, 'You joined the match.')
  assert.equal(body.data.payment.amount, '250.00')
  assert.equal(body.data.payment.status, 'completed')
  assert.equal(body.data.match.spots_left, 2)
  assert.deepEqual(
    body.data.match.players.map((p: { id: number; level: number }) => [p.id, p.level]),
    [
      [w.organizer.id, 3.5],
      [player.id, 3.8],
    ],
  )
  assert.equal(await wallet(player.id), 75000)
  const shares = (await get(app, w.organizer, `/api/bookings/${w.booking.id}/shares`)).json().data.shares
  assert.deepEqual(shares[1].payer, { id: player.id, name: 'Sita Gurung' })
  assert.ok((await notificationTypes(app, w.organizer.id)).includes('MatchJoined'))
  const again = await post(app, player, `/api/matches/${m.id}/join`, {})
  assert.equal(again.statusCode, 409, again.body)
})

test('outside the level range is 422 unless the organizer invited the player', async () => {
  const w = await matchWorld(app)
  const m = await openMatch(app, w.organizer, w.booking.id, { level_min: 5 })
  const player = await createUser(app, { wallet: 100000 })
  const refused = await post(app, player, `/api/matches/${m.id}/join`, {})
  assert.equal(refused.statusCode, 422, refused.body)
  assert.match(refused.json().errors.level[0], /levels 5–7; your level is 3.5/)
  const invited = await post(app, w.organizer, `/api/matches/${m.id}/invites`, { email: player.email })
  assert.equal(invited.statusCode, 201)
  const ok = await post(app, player, `/api/matches/${m.id}/join`, {})
  assert.equal(ok.statusCode, 200, ok.body)
})

test('join: guests 401, wrong types 422, private without the token 404, a short wallet 422', async () => {
  const w = await matchWorld(app)
  const m = await openMatch(app, w.organizer, w.booking.id, { visibility: 'private' })
  const player = await createUser(app, { wallet: 1000 })
  assert.equal((await post(app, undefined, `/api/matches/${m.id}/join`)).statusCode, 401)
  assert.equal((await post(app, player, `/api/matches/${m.id}/join`, {})).statusCode, 404)
  const token = new URL(m.link!).searchParams.get('token')
  const badMethod = await post(app, player, `/api/matches/${m.id}/join`, { token, method: 'cash' })
  assert.equal(badMethod.statusCode, 422)
  assert.ok(badMethod.json().errors.method)
  const badToken = await post(app, player, `/api/matches/${m.id}/join`, { token: 5 })
  assert.equal(badToken.statusCode, 422)
  const short = await post(app, player, `/api/matches/${m.id}/join`, { token })
  assert.equal(short.statusCode, 422, short.body)
  assert.equal(short.json().message, 'Insufficient wallet balance.')
  assert.equal((await get(app, w.organizer, `/api/matches/${m.id}`)).json().data.spots_left, 3)
})

test('a gateway join answers 201 with the payment url; the share is paid when the gateway confirms', async () => {
  const w = await matchWorld(app)
  const m = await openMatch(app, w.organizer, w.booking.id)
  const player = await createUser(app)
  const res = await post(app, player, `/api/matches/${m.id}/join`, { method: 'gateway_2' })
  assert.equal(res.statusCode, 201, res.body)
  assert.equal(res.json().data.payment.status, 'initiated')
  const callback = await simulate(app, res.json().data.payment_url, 'success')
  assert.equal((await app.inject({ method: 'GET', url: callback })).statusCode, 200)
  const shares = (await get(app, w.organizer, `/api/bookings/${w.booking.id}/shares`)).json().data.shares
  assert.equal(shares[1].status, 'paid')
  assert.equal(shares[1].payer.id, player.id)
})

test('the last spot fills the match (everyone told); leaving refunds the share and reopens it', async () => {
  const w = await matchWorld(app, { total: 80000 })
  const m = await openMatch(app, w.organizer, w.booking.id, { players_total: 2 })
  const player = await createUser(app, { wallet: 100000 })
  const joined = await post(app, player, `/api/matches/${m.id}/join`, {})
  assert.equal(joined.statusCode, 200, joined.body)
  assert.equal(joined.json().data.match.status, 'full')
  assert.ok((await notificationTypes(app, player.id)).includes('MatchFull'))
  const late = await createUser(app, { wallet: 100000 })
  assert.equal((await post(app, late, `/api/matches/${m.id}/join`, {})).statusCode, 409)
  assert.equal(await wallet(player.id), 60000)

  assert.equal((await post(app, late, `/api/matches/${m.id}/leave`)).statusCode, 403)
  const organizerLeaves = await post(app, w.organizer, `/api/matches/${m.id}/leave`)
  assert.equal(organizerLeaves.statusCode, 422, organizerLeaves.body)
  const left = await post(app, player, `/api/matches/${m.id}/leave`)
  assert.equal(left.statusCode, 200, left.body)
  assert.equal(left.json().data.refunded, '400.00')
  assert.equal(left.json().data.match.status, 'open')
  assert.equal(left.json().data.match.spots_left, 1)
  assert.equal(await wallet(player.id), 100000)
  assert.ok((await notificationTypes(app, w.organizer.id)).includes('MatchPlayerLeft'))
  const shares = (await get(app, w.organizer, `/api/bookings/${w.booking.id}/shares`)).json().data.shares
  assert.equal(shares[1].status, 'unpaid')
  // The spot is open again: someone else takes it.
  assert.equal((await post(app, late, `/api/matches/${m.id}/join`, {})).statusCode, 200)
})

test('after the split deadline a player can no longer leave; the deadline-near notice goes once', async () => {
  const w = await matchWorld(app, { days: 1, start: '12:00' })
  const m = await openMatch(app, w.organizer, w.booking.id)
  const player = await createUser(app, { wallet: 100000 })
  assert.equal((await post(app, player, `/api/matches/${m.id}/join`, {})).statusCode, 200)
  const { announceDeadlines } = await import('../../src/modules/matches/notices.ts')
  const split = await app.ctx.db
    .selectFrom('booking_splits')
    .select('deadline')
    .where('booking_id', '=', w.booking.id)
    .executeTakeFirstOrThrow()
  const saved = clock.now()
  try {
    clock.set(new Date(split.deadline.getTime() - 30 * 60_000))
    assert.ok((await announceDeadlines(app.ctx)) >= 1)
    assert.equal(await announceDeadlines(app.ctx), 0)
    assert.ok((await notificationTypes(app, player.id)).includes('MatchDeadlineNear'))
    clock.set(new Date(split.deadline.getTime() + 60_000))
    const res = await post(app, player, `/api/matches/${m.id}/leave`)
    assert.equal(res.statusCode, 422, res.body)
    assert.equal(res.json().message, 'The deadline to leave this match has passed.')
  } finally {
    clock.set(saved)
  }
})

test('a match whose booking the organizer paid in full reads as full: no spot left to join', async () => {
  const w = await matchWorld(app, { total: 100000 })
  const m = await openMatch(app, w.organizer, w.booking.id)
  assert.equal(m.status, 'open')
  const settle = await post(app, w.organizer, `/api/bookings/${w.booking.id}/split/settle`, { method: 'wallet' })
  assert.equal(settle.statusCode, 200, settle.body)
  const shown = (await get(app, w.organizer, `/api/matches/${m.id}`)).json().data
  assert.equal(shown.spots_left, 0)
  assert.equal(shown.status, 'full')
  const player = await createUser(app, { wallet: 100000 })
  const join = await post(app, player, `/api/matches/${m.id}/join`, {})
  assert.equal(join.statusCode, 409, join.body)
  assert.equal(await wallet(player.id), 100000)
})
