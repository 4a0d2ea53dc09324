import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { checkLedger } from '../../src/modules/ledger/index.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { get, openMatch, post } from '../matches/helpers.ts'
import { ledger, simulate } from '../payments/helpers.ts'
import { bookingState, payShare, type ShareOut, split, splitWorld } from './helpers.ts'

// A split booking paid by a payment that is not for shares (docs/payments.md, "Split payment",
// "Paid another way"): the organizer's /api/payments/initiate for the whole balance (wallet, a
// gateway) or cash at the desk bringing it to fully paid settles the unpaid shares, paid by that
// payment's payer, so the shares, the share page, the desk board and a match's spots agree with the
// money; a partial desk payment leaves the shares as they are and a share larger than the balance due
// is refused with that balance. ManualClock at FIXED_NOW; the ledger balanced after each.
let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

async function splitInto(n: number, total: number, organizerWallet?: number) {
  const w = await splitWorld(app, { total, organizerWallet })
  const res = await split(app, w.organizer, w.booking.id, { shares: n })
  assert.equal(res.statusCode, 201, res.body)
  return { ...w, shares: res.json().data.shares as ShareOut[] }
}

async function sharesNow(w: { organizer: TestUser; booking: { id: number } }) {
  const res = await get(app, w.organizer, `/api/bookings/${w.booking.id}/shares`)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data.shares as ShareOut[]
}

async function assertBalanced() {
  assert.deepEqual((await checkLedger(app.ctx.db)).problems, [])
}

async function boardShares(w: { venue: { id: number }; staff: TestUser; booking: { id: number } }) {
  const { date } = await app.ctx.db
    .selectFrom('bookings')
    .select(sql<string>`date::text`.as('date'))
    .where('id', '=', w.booking.id)
    .executeTakeFirstOrThrow()
  const res = await get(app, w.staff, `/api/venues/${w.venue.id}/board?date=${date}`)
  assert.equal(res.statusCode, 200, res.body)
  const b = res.json().data.bookings.find((x: { id: number; booking_type: string }) => x.id === w.booking.id)
  return b.shares as { paid: number; total: number }
}

async function settledNotice(organizerId: number) {
  const rows = await app.ctx.db
    .selectFrom('notifications')
    .select('data')
    .where('user_id', '=', organizerId)
    .where('type', 'like', '%SplitSharePaid')
    .execute()
  return rows.map((r) => (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as { message: string })
}

test('the organizer pays the whole balance from the wallet: the unpaid shares are settled by that payment', async () => {
  const w = await splitInto(3, 150000, 200000)
  const friend = await createUser(app, { name: 'Friend Tamang', wallet: 100000 })
  assert.equal((await payShare(app, friend, w.shares[1].pay_url, { method: 'wallet' })).statusCode, 200)
  const whole = await post(app, w.organizer, '/api/payments/initiate', { booking_id: w.booking.id, method: 'wallet' })
  assert.equal(whole.statusCode, 200, whole.body)
  assert.equal(whole.json().data.payment.amount, '1000.00')
  const paymentId = whole.json().data.payment.id
  assert.equal((await bookingState(app, w.booking.id)).status, 'confirmed')
  assert.equal((await bookingState(app, w.booking.id)).paid_amount, 150000)

  const shares = await sharesNow(w)
  assert.deepEqual(
    shares.map((s) => [s.status, s.payer?.id]),
    [
      ['paid', w.organizer.id],
      ['paid', friend.id],
      ['paid', w.organizer.id],
    ],
  )
  const rows = await app.ctx.db
    .selectFrom('booking_shares')
    .select(['id', 'payment_id'])
    .where('id', 'in', [shares[0].id, shares[2].id])
    .execute()
  assert.deepEqual(
    rows.map((r) => r.payment_id),
    [paymentId, paymentId],
  )
  // The share page and the desk board agree.
  const token = new URL(w.shares[2].pay_url).pathname.split('/').pop()
  const page = (await get(app, undefined, `/api/shares/${token}`)).json().data
  assert.equal(page.shares_paid, 3)
  assert.equal(page.share.status, 'paid')
  assert.deepEqual(await boardShares(w), { paid: 3, total: 3 })
  // The organizer is told the shares are settled.
  const notices = await settledNotice(w.organizer.id)
  assert.ok(
    notices.some(
      (n) =>
        n.message.includes('is paid in full by a payment of Rs 1000.00') &&
        n.message.includes('the shares still unpaid (2) are settled'),
    ),
    JSON.stringify(notices),
  )
  // A later share payer: 409, nothing taken.
  const late = await createUser(app, { wallet: 50000 })
  const res = await payShare(app, late, w.shares[2].pay_url, { method: 'wallet' })
  assert.equal(res.statusCode, 409, res.body)
  assert.deepEqual(res.json(), { message: 'This share has already been paid.' })
  assert.equal((await ledger(app, late.id)).balance, 50000)
  const settle = await post(app, w.organizer, `/api/bookings/${w.booking.id}/split/settle`, { method: 'wallet' })
  assert.equal(settle.statusCode, 409, settle.body)
  await assertBalanced()
})

test('the organizer pays the whole balance through a gateway: the shares are settled when it confirms', async () => {
  const w = await splitInto(4, 200000)
  const started = await post(app, w.organizer, '/api/payments/initiate', {
    booking_id: w.booking.id,
    method: 'gateway_2',
  })
  assert.equal(started.statusCode, 201, started.body)
  // A friend starts a gateway payment for a share meanwhile; it arrives after the whole payment.
  const friend = await createUser(app, { name: 'Late Friend' })
  const friendStart = await payShare(app, friend, w.shares[3].pay_url, { method: 'gateway_1' })
  assert.equal(friendStart.statusCode, 201, friendStart.body)
  assert.deepEqual(
    (await sharesNow(w)).map((s) => s.status),
    ['unpaid', 'unpaid', 'unpaid', 'unpaid'],
  )
  const callback = await simulate(app, started.json().data.payment_url, 'success')
  assert.equal((await app.inject({ method: 'GET', url: callback })).statusCode, 200)
  assert.equal((await bookingState(app, w.booking.id)).status, 'confirmed')
  assert.deepEqual(
    (await sharesNow(w)).map((s) => [s.status, s.payer?.id]),
    [
      ['paid', w.organizer.id],
      ['paid', w.organizer.id],
      ['paid', w.organizer.id],
      ['paid', w.organizer.id],
    ],
  )
  // The friend's share money arrives after: the booking takes none of it, it goes to their wallet.
  const back = await simulate(app, friendStart.json().data.payment_url, 'success')
  assert.equal((await app.inject({ method: 'GET', url: back })).statusCode, 200)
  assert.equal((await ledger(app, friend.id)).balance, 50000)
  assert.equal((await bookingState(app, w.booking.id)).paid_amount, 200000)
  assert.deepEqual(await boardShares(w), { paid: 4, total: 4 })
  await assertBalanced()
})

test('desk cash for the whole balance settles the unpaid shares, paid by the booking’s customer', async () => {
  const w = await splitInto(3, 150000)
  const friend = await createUser(app, { wallet: 50000 })
  assert.equal((await payShare(app, friend, w.shares[2].pay_url, { method: 'wallet' })).statusCode, 200)
  const cash = await post(app, w.staff, `/api/bookings/${w.booking.id}/payments`, { method: 'cash', amount: 1000 })
  assert.equal(cash.statusCode, 201, cash.body)
  const state = await bookingState(app, w.booking.id)
  assert.equal(state.status, 'confirmed')
  assert.equal(state.paid_amount, 150000)
  assert.deepEqual(
    (await sharesNow(w)).map((s) => [s.status, s.payer?.id]),
    [
      ['paid', w.organizer.id],
      ['paid', w.organizer.id],
      ['paid', friend.id],
    ],
  )
  assert.deepEqual(await boardShares(w), { paid: 3, total: 3 })
  assert.equal((await settledNotice(w.organizer.id)).filter((n) => n.message.includes('paid in full')).length, 1)
  await assertBalanced()
})

test('partial desk cash leaves the shares unpaid; a share larger than the balance due is 422 with that balance', async () => {
  const w = await splitInto(2, 150000, 100000)
  const cash = await post(app, w.staff, `/api/bookings/${w.booking.id}/payments`, { method: 'cash', amount: 50 })
  assert.equal(cash.statusCode, 201, cash.body)
  assert.equal((await bookingState(app, w.booking.id)).status, 'pending')
  assert.deepEqual(
    (await sharesNow(w)).map((s) => s.status),
    ['unpaid', 'unpaid'],
  )
  assert.deepEqual(await boardShares(w), { paid: 0, total: 2 })
  const friend = await createUser(app, { wallet: 100000 })
  const first = await payShare(app, friend, w.shares[1].pay_url, { method: 'wallet' })
  assert.equal(first.statusCode, 200, first.body)
  // 1500 − 50 cash − 750 share: 700 left, less than the organizer's 750 share.
  const over = await payShare(app, w.organizer, w.shares[0].pay_url, { method: 'wallet' })
  assert.equal(over.statusCode, 422, over.body)
  assert.deepEqual(over.json(), {
    message:
      'This booking has only Rs 700.00 left to pay, less than this share (Rs 750.00): part of it was paid another way. The organizer can pay the balance from the booking.',
  })
  const settle = await post(app, w.organizer, `/api/bookings/${w.booking.id}/split/settle`, { method: 'wallet' })
  assert.equal(settle.statusCode, 422, settle.body)
  assert.equal((await ledger(app, w.organizer.id)).balance, 100000)
  // The organizer pays the balance: the booking is confirmed and the last share settled by it.
  const rest = await post(app, w.organizer, '/api/payments/initiate', { booking_id: w.booking.id, method: 'wallet' })
  assert.equal(rest.statusCode, 200, rest.body)
  assert.equal(rest.json().data.payment.amount, '700.00')
  assert.equal((await bookingState(app, w.booking.id)).status, 'confirmed')
  assert.deepEqual(
    (await sharesNow(w)).map((s) => [s.status, s.payer?.id]),
    [
      ['paid', w.organizer.id],
      ['paid', friend.id],
    ],
  )
  await assertBalanced()
})

test("a share paid from a wallet is that payer's share only; the share the desk's cash paid is the customer's; one notice", async () => {
  // 1000 in two shares of 500; 500 cash at the desk first, then a friend's wallet pays their share and
  // so completes the booking. The friend paid 500: the organizer's share is not theirs.
  const w = await splitInto(2, 100000)
  const cash = await post(app, w.staff, `/api/bookings/${w.booking.id}/payments`, { method: 'cash', amount: 500 })
  assert.equal(cash.statusCode, 201, cash.body)
  const friend = await createUser(app, { wallet: 100000 })
  const paid = await payShare(app, friend, w.shares[1].pay_url, { method: 'wallet' })
  assert.equal(paid.statusCode, 200, paid.body)
  assert.equal((await bookingState(app, w.booking.id)).status, 'confirmed')
  const shares = await sharesNow(w)
  assert.deepEqual([shares[1].status, shares[1].payer?.id], ['paid', friend.id])
  // The organizer's share was paid by the desk's cash (the booking's customer's), not by the friend.
  assert.deepEqual([shares[0].status, shares[0].payer?.id], ['paid', w.organizer.id])
  assert.deepEqual(await boardShares(w), { paid: 2, total: 2 })
  assert.equal((await ledger(app, friend.id)).balance, 50000)
  // One notice for the friend's share; none saying the booking was paid whole by it.
  const notices = await settledNotice(w.organizer.id)
  assert.equal(notices.length, 1, JSON.stringify(notices))
  assert.doesNotMatch(notices[0].message, /paid in full by a payment/)
  await assertBalanced()
})

test('the last share paid from a wallet: the organizer is told once that every share is paid', async () => {
  const w = await splitInto(2, 100000, 100000)
  const friend = await createUser(app, { wallet: 100000 })
  assert.equal((await payShare(app, w.organizer, w.shares[0].pay_url, { method: 'wallet' })).statusCode, 200)
  assert.equal((await payShare(app, friend, w.shares[1].pay_url, { method: 'wallet' })).statusCode, 200)
  assert.equal((await bookingState(app, w.booking.id)).status, 'confirmed')
  const notices = await settledNotice(w.organizer.id)
  assert.equal(notices.length, 1, JSON.stringify(notices))
  assert.doesNotMatch(notices[0].message, /paid in full by a payment/)
  assert.deepEqual(
    (await sharesNow(w)).map((s) => [s.status, s.payer?.id]),
    [
      ['paid', w.organizer.id],
      ['paid', friend.id],
    ],
  )
  await assertBalanced()
})

test('a match whose booking is paid in full another way has no spot left: join is 409 and takes no money', async () => {
  const w = await splitWorld(app, { total: 100000, organizerWallet: 200000 })
  const m = await openMatch(app, w.organizer, w.booking.id)
  const player = await createUser(app, { wallet: 100000 })
  assert.equal((await post(app, player, `/api/matches/${m.id}/join`, {})).statusCode, 200)
  const whole = await post(app, w.organizer, '/api/payments/initiate', { booking_id: w.booking.id, method: 'wallet' })
  assert.equal(whole.statusCode, 200, whole.body)
  const after = (await get(app, undefined, `/api/matches/${m.id}`)).json().data
  assert.equal(after.spots_left, 0)
  assert.equal(after.players.length, 2)
  const late = await createUser(app, { wallet: 100000 })
  const res = await post(app, late, `/api/matches/${m.id}/join`, {})
  assert.equal(res.statusCode, 409, res.body)
  assert.deepEqual(res.json(), {
    message:
      'The whole booking of this match has been paid another way: no spot is left to join and pay for. Ask the organizer.',
  })
  assert.equal((await ledger(app, late.id)).balance, 100000)
  assert.equal((await bookingState(app, w.booking.id)).paid_amount, 100000)
  await assertBalanced()
})
