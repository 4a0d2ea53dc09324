import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import {
  assignStaff,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
} from '../helpers/factories.ts'
import { insertBooking } from '../payments/helpers.ts'
import { get, matchWorld, openMatch, post } from './helpers.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('opening a match splits the booking into players_total shares, the organizer holding the first', async () => {
  const w = await matchWorld(app, { total: 100001 })
  const res = await post(app, w.organizer, '/api/matches', {
    booking_id: w.booking.id,
    players_total: 4,
    level_min: 2.5,
    level_max: 5,
    visibility: 'public',
    note: 'Friendly game',
  })
  assert.equal(res.statusCode, 201, res.body)
  const m = res.json().data
  assert.equal(m.sport, 'futsal')
  assert.equal(m.status, 'open')
  assert.equal(m.players_total, 4)
  assert.equal(m.spots_left, 3)
  assert.equal(m.price_per_player, '250.00')
  assert.deepEqual(m.players, [{ id: w.organizer.id, name: 'Organizer Rai', level: 3.5 }])
  assert.equal(m.level_min, 2.5)
  assert.equal(m.level_max, 5)
  assert.equal(m.venue.id, w.venue.id)
  assert.equal(m.start, `${w.date} 18:00:00`)
  assert.equal(m.booking.booking_number, w.booking.booking_number)
  assert.match(m.link, /\/matches\/\d+$/)
  const shares = await get(app, w.organizer, `/api/bookings/${w.booking.id}/shares`)
  assert.equal(shares.statusCode, 200, shares.body)
  assert.deepEqual(
    shares.json().data.shares.map((s: { amount: string }) => s.amount),
    ['250.01', '250.00', '250.00', '250.00'],
  )
  const held = await app.ctx.db.selectFrom('match_players').select(['user_id', 'share_id']).execute()
  const mine = held.find((h) => h.user_id === w.organizer.id)
  assert.equal(mine?.share_id, shares.json().data.shares[0].id)
})

test('who may open a match, and validation (422 with the contract body)', async () => {
  const w = await matchWorld(app)
  const other = await createUser(app)
  const body = { booking_id: w.booking.id, players_total: 4, visibility: 'public' }
  assert.equal((await post(app, undefined, '/api/matches', body)).statusCode, 401)
  const forbidden = await post(app, other, '/api/matches', body)
  assert.equal(forbidden.statusCode, 403, forbidden.body)
  for (const [patch, field] of [
    [{ players_total: 1 }, 'players_total'],
    [{ players_total: 23 }, 'players_total'],
    [{ players_total: '4' }, 'players_total'],
    [{ visibility: 'secret' }, 'visibility'],
    [{ level_min: 7.5 }, 'level_min'],
    [{ level_min: 5, level_max: 3 }, 'level_min'],
    [{ booking_id: 999999 }, 'booking_id'],
  ] as const) {
    const res = await post(app, w.organizer, '/api/matches', { ...body, ...patch })
    assert.equal(res.statusCode, 422, `${JSON.stringify(patch)} ${res.body}`)
    assert.equal(res.json().message, 'The given data was invalid.')
    assert.ok(res.json().errors[field], `${field}: ${res.body}`)
  }
  assert.equal((await post(app, w.organizer, '/api/matches', body)).statusCode, 201)
  const again = await post(app, w.organizer, '/api/matches', body)
  assert.equal(again.statusCode, 409, again.body)
})

test('the list: public matches only, with sport, date, place and level filters', async () => {
  const a = await matchWorld(app, { days: 3, lat: 27.7, lng: 85.33 })
  const b = await matchWorld(app, { days: 4, lat: 28.2, lng: 83.98 }) // Pokhara, ~140 km away
  const c = await matchWorld(app, { days: 3 })
  const ma = await openMatch(app, a.organizer, a.booking.id, { level_min: 3, level_max: 4 })
  const mb = await openMatch(app, b.organizer, b.booking.id, { level_min: 5 })
  const mc = await openMatch(app, c.organizer, c.booking.id, { visibility: 'private' })
  const ids = async (q: string) => {
    const res = await get(app, undefined, `/api/matches${q}`)
    assert.equal(res.statusCode, 200, res.body)
    return res.json().data.map((m: { id: number }) => m.id) as number[]
  }
  const all = await ids('')
  assert.ok(all.includes(ma.id) && all.includes(mb.id))
  assert.ok(!all.includes(mc.id), 'a private match is never listed')
  assert.deepEqual(
    (await ids(`?date=${a.date}`)).filter((id) => [ma.id, mb.id].includes(id)),
    [ma.id],
  )
  const near = await ids('?lat=27.7&lng=85.33&radius=20')
  assert.ok(near.includes(ma.id) && !near.includes(mb.id))
  const level6 = await ids('?level=6')
  assert.ok(level6.includes(mb.id) && !level6.includes(ma.id))
  assert.deepEqual(await ids('?sport=tennis'), [])
  for (const q of ['?level=abc', '?lat=27.7', '?radius=-1', '?date=2026-02-30', '?level=8']) {
    const res = await get(app, undefined, `/api/matches${q}`)
    assert.equal(res.statusCode, 422, `${q} ${res.body}`)
  }
})

test('a private match is reachable only by its link (token), by its players and the invited', async () => {
  const w = await matchWorld(app)
  const m = await openMatch(app, w.organizer, w.booking.id, { visibility: 'private' })
  const token = new URL(m.link!).searchParams.get('token')
  assert.ok(token)
  const stranger = await createUser(app, { email: `friend${Date.now()}@example.com` })
  assert.equal((await get(app, stranger, `/api/matches/${m.id}`)).statusCode, 404)
  assert.equal((await get(app, undefined, `/api/matches/${m.id}?token=wrong`)).statusCode, 404)
  const byLink = await get(app, undefined, `/api/matches/${m.id}?token=${token}`)
  assert.equal(byLink.statusCode, 200, byLink.body)
  assert.equal(byLink.json().data.link, null, 'the link is shown to players only')
  assert.equal((await get(app, w.organizer, `/api/matches/${m.id}`)).statusCode, 200)
  // The organizer invites the stranger, who may now see it.
  const notOrganizer = await post(app, stranger, `/api/matches/${m.id}/invites`, { email: stranger.email })
  assert.equal(notOrganizer.statusCode, 403)
  const unknown = await post(app, w.organizer, `/api/matches/${m.id}/invites`, { email: 'nobody@example.com' })
  assert.equal(unknown.statusCode, 422)
  assert.ok(unknown.json().errors.email)
  const invited = await post(app, w.organizer, `/api/matches/${m.id}/invites`, { email: stranger.email })
  assert.equal(invited.statusCode, 201, invited.body)
  assert.deepEqual(invited.json().data.id, stranger.id)
  assert.equal((await get(app, stranger, `/api/matches/${m.id}`)).statusCode, 200)
  assert.equal((await get(app, undefined, '/api/matches/abc')).statusCode, 404)
  assert.equal((await get(app, undefined, '/api/matches/99999999')).statusCode, 404)
})

test("the venue's desk reads the match on a booking; others 403, no match 404", async () => {
  const w = await matchWorld(app)
  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, w.venue.id, staff.id, 'staff')
  assert.equal((await get(app, staff, `/api/bookings/${w.booking.id}/match`)).statusCode, 404)
  const m = await openMatch(app, w.organizer, w.booking.id, { visibility: 'private' })
  const res = await get(app, staff, `/api/bookings/${w.booking.id}/match`)
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().data.id, m.id)
  assert.deepEqual(
    res.json().data.players.map((p: { id: number }) => p.id),
    [w.organizer.id],
  )
  const outsider = await createUser(app, { roles: ['staff'] })
  assert.equal((await get(app, outsider, `/api/bookings/${w.booking.id}/match`)).statusCode, 403)
  assert.equal((await get(app, undefined, `/api/bookings/${w.booking.id}/match`)).statusCode, 401)
})

test('an indoor-game booking opens a match too; its sport is the game type', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const game = await createIndoorGame(app, venue.id, { game_type: 'carrom', price_per_hour: 40000 })
  const organizer = await createUser(app)
  const booking = await insertBooking(app, {
    userId: organizer.id,
    venueId: venue.id,
    indoorGameId: game.id,
    total: 40000,
    date: daysFromFixedNow(3),
    start: '15:00',
    end: '16:00',
  })
  const res = await post(app, organizer, '/api/matches', {
    booking_id: booking.id,
    booking_type: 'indoor',
    players_total: 4,
    visibility: 'public',
  })
  assert.equal(res.statusCode, 201, res.body)
  assert.equal(res.json().data.sport, 'carrom')
  assert.equal(res.json().data.booking.type, 'indoor')
  assert.equal(res.json().data.price_per_player, '100.00')
  const listed = await get(app, undefined, '/api/matches?sport=carrom')
  assert.deepEqual(
    listed.json().data.map((m: { id: number }) => m.id),
    [res.json().data.id],
  )
  const wrongKind = await post(app, organizer, '/api/matches', {
    booking_id: booking.id,
    booking_type: 'court',
    players_total: 4,
    visibility: 'public',
  })
  assert.ok([403, 422].includes(wrongKind.statusCode), wrongKind.body)
})

test('an 11-a-side match: 22 players, the booking split into 22 shares to the paisa (the split route stays 2..20)', async () => {
  const w = await matchWorld(app, { total: 220005 })
  const m = await openMatch(app, w.organizer, w.booking.id, { players_total: 22 })
  assert.equal(m.players.length, 1)
  const shares = await get(app, w.organizer, `/api/bookings/${w.booking.id}/shares`)
  assert.equal(shares.statusCode, 200, shares.body)
  const amounts = (shares.json().data.shares as { amount: string }[]).map((s) => s.amount)
  assert.equal(amounts.length, 22)
  assert.equal(amounts[0], '100.05')
  assert.ok(amounts.slice(1).every((a) => a === '100.00'))
  const other = await matchWorld(app)
  const split = await post(app, other.organizer, `/api/bookings/${other.booking.id}/split`, { shares: 21 })
  assert.equal(split.statusCode, 422, split.body)
})
