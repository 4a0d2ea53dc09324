import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { insertTournament, ownerWithVenue } from './helpers.ts'

// Entry fees paid online and refunded when the tournament is cancelled: the wallet, the venue's
// balance in the ledger, and who may do what. The app checks the whole ledger when it closes.

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const wallet = async (u: TestUser) =>
  (await app.inject({ method: 'GET', url: '/api/wallet', headers: u.headers })).json().balance as string
const venueBalance = async (venueId: number) => {
  const row = await app.ctx.db
    .selectFrom('ledger_lines')
    .select((eb) => eb.fn.sum<string>('amount').as('s'))
    .where('account', '=', `venue:${venueId}:balance`)
    .executeTakeFirst()
  return 0 - Number(row?.s ?? 0)
}
const register = async (t: number, u: TestUser, name: string) => {
  const res = await app.inject({
    method: 'POST',
    url: `/api/tournaments/${t}/teams`,
    headers: u.headers,
    payload: { name, captain_name: `${name} captain` },
  })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { id: number; fee_status: string; fee_paid: string }
}
const pay = (t: number, team: number, u: TestUser) =>
  app.inject({ method: 'POST', url: `/api/tournaments/${t}/teams/${team}/pay`, headers: u.headers })

test('a team pays its fee from the wallet; cancelling refunds it to the wallet from the venue balance', async () => {
  const { owner, venue } = await ownerWithVenue(app)
  const t = await insertTournament(app, venue.id, { registration_fee: 200_000 })
  const a = await createUser(app, { wallet: 500_000 })
  const b = await createUser(app, { wallet: 500_000 })
  const c = await createUser(app, { wallet: 500_000 })
  const teamA = await register(t.id, a, 'Alpha')
  const teamB = await register(t.id, b, 'Bravo')
  const teamC = await register(t.id, c, 'Charlie')
  assert.equal(teamA.fee_status, 'unpaid')
  assert.equal(teamA.fee_paid, '0.00')

  const paidA = await pay(t.id, teamA.id, a)
  assert.equal(paidA.statusCode, 200, paidA.body)
  assert.equal(paidA.json().data.fee_status, 'paid')
  assert.equal(paidA.json().data.fee_paid, '2000.00')
  assert.equal((await pay(t.id, teamB.id, b)).statusCode, 200)
  assert.equal(await wallet(a), '3000.00')
  assert.equal(await venueBalance(venue.id), 400_000)

  // Twice is 422; someone else's team is 403; a team of another tournament is 404.
  const twice = await pay(t.id, teamA.id, a)
  assert.equal(twice.statusCode, 422)
  assert.equal(twice.json().message, 'The registration fee is already paid.')
  assert.equal((await pay(t.id, teamC.id, a)).statusCode, 403)
  const other = await insertTournament(app, venue.id, { registration_fee: 100 })
  assert.equal((await pay(other.id, teamC.id, c)).statusCode, 404)

  const detail = (await app.inject({ method: 'GET', url: `/api/tournaments/${t.id}` })).json().data
  assert.deepEqual(
    detail.teams.map((x: { name: string; fee_status: string }) => [x.name, x.fee_status]),
    [
      ['Alpha', 'paid'],
      ['Bravo', 'paid'],
      ['Charlie', 'unpaid'],
    ],
  )

  // Staff cannot cancel; the owner cancels: both paid fees go back, Charlie had nothing to refund.
  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, venue.id, staff.id, 'staff')
  const status = (who: TestUser) =>
    app.inject({
      method: 'PATCH',
      url: `/api/tournaments/${t.id}/status`,
      headers: who.headers,
      payload: { status: 'cancelled' },
    })
  assert.equal((await status(staff)).statusCode, 403)
  const cancelled = await status(owner)
  assert.equal(cancelled.statusCode, 200, cancelled.body)
  assert.equal(cancelled.json().data.status, 'cancelled')
  assert.deepEqual(
    cancelled.json().data.teams.map((x: { fee_status: string }) => x.fee_status),
    ['refunded', 'refunded', 'unpaid'],
  )
  assert.equal(await wallet(a), '5000.00')
  assert.equal(await wallet(b), '5000.00')
  assert.equal(await venueBalance(venue.id), 0)
  const kinds = await app.ctx.db
    .selectFrom('ledger_entries')
    .select('kind')
    .where('venue_id', '=', venue.id)
    .orderBy('id')
    .execute()
  assert.deepEqual(
    kinds.map((k) => k.kind),
    ['wallet_payment', 'wallet_payment', 'refund_to_wallet', 'refund_to_wallet'],
  )
  const history = (await app.inject({ method: 'GET', url: '/api/wallet', headers: a.headers })).json().transactions
  assert.match(JSON.stringify(history.data), /Refund of the registration fee of Alpha/)

  // A cancelled tournament takes no fee.
  const late = await pay(t.id, teamC.id, c)
  assert.equal(late.statusCode, 422)
  assert.equal(late.json().message, 'The tournament no longer takes registration fees.')
})

test('a free tournament takes no fee; a short wallet is 422 and nothing moves', async () => {
  const { venue } = await ownerWithVenue(app)
  const free = await insertTournament(app, venue.id)
  const u = await createUser(app, { wallet: 10_000 })
  const team = await register(free.id, u, 'Free')
  const res = await pay(free.id, team.id, u)
  assert.equal(res.statusCode, 422)
  assert.equal(res.json().message, 'This tournament has no registration fee.')

  const dear = await insertTournament(app, venue.id, { registration_fee: 50_000 })
  const poor = await register(dear.id, u, 'Poor')
  const short = await pay(dear.id, poor.id, u)
  assert.equal(short.statusCode, 422)
  assert.equal(short.json().message, 'Insufficient wallet balance.')
  assert.equal(await wallet(u), '100.00')
  assert.equal(await venueBalance(venue.id), 0)
  assert.equal(
    (await app.inject({ method: 'POST', url: `/api/tournaments/${dear.id}/teams/${poor.id}/pay` })).statusCode,
    401,
  )
})

test('the people who run a hidden venue list its tournaments; the public list does not', async () => {
  const { owner, venue } = await ownerWithVenue(app, { verification_status: 'pending' })
  const t = await insertTournament(app, venue.id)
  const url = `/api/tournaments?venue_id=${venue.id}`
  assert.deepEqual((await app.inject({ method: 'GET', url })).json().data, [])
  const mine = (await app.inject({ method: 'GET', url, headers: owner.headers })).json().data
  assert.deepEqual(
    mine.map((x: { id: number }) => x.id),
    [t.id],
  )
})
