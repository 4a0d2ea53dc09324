import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { checkLedger } from '../../src/modules/ledger/index.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW } from '../helpers/factories.ts'
import { expireLapsedHolds } from '../helpers/sweeps.ts'
import { ledger, simulate } from '../payments/helpers.ts'
import { bookingState, payShare, type ShareOut, split, splitWorld } from './helpers.ts'

// Paying shares: wallet and gateway, the last two at once, one share twice at once, settle, the
// deadline releasing a partly paid split (each payer refunded), and the ledger balanced after each.
// ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time).
let app: App
let clock: ManualClock
before(async () => {
  clock = new ManualClock(FIXED_NOW)
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

async function splitInto(n: number, total = 150000) {
  const w = await splitWorld(app, { total })
  const res = await split(app, w.organizer, w.booking.id, { shares: n })
  assert.equal(res.statusCode, 201, res.body)
  return { ...w, shares: res.json().data.shares as ShareOut[] }
}

async function sharesNow(w: { organizer: { headers: Record<string, string> }; booking: { id: number } }) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/bookings/${w.booking.id}/shares`,
    headers: w.organizer.headers,
  })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data.shares as ShareOut[]
}

async function assertBalanced() {
  const check = await checkLedger(app.ctx.db)
  assert.deepEqual(check.problems, [])
}

test('a wallet pays a share at once: its own payment and receipt by the payer; the last share confirms', async () => {
  const w = await splitInto(3)
  const friend = await createUser(app, { name: 'Friend Tamang', wallet: 100000 })
  const res = await payShare(app, friend, w.shares[1].pay_url, { method: 'wallet' })
  assert.equal(res.statusCode, 200, res.body)
  const body = res.json()
  assert.equal(body.message, 'Payment successful.')
  assert.equal(body.data.payment.amount, '500.00')
  assert.equal(body.data.booking.status, 'pending')
  assert.equal(body.data.booking.paid_amount, '500.00')
  assert.equal((await ledger(app, friend.id)).balance, 50000)
  const payment = await app.ctx.db
    .selectFrom('payments')
    .select(['user_id', 'method', 'status'])
    .where('id', '=', body.data.payment.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(payment, { user_id: friend.id, method: 'wallet', status: 'completed' })
  const receipts = await app.ctx.db
    .selectFrom('receipts')
    .select('id')
    .where('payment_id', '=', body.data.payment.id)
    .execute()
  assert.equal(receipts.length, 1)

  let shares = await sharesNow(w)
  assert.deepEqual(shares[1].payer, { id: friend.id, name: 'Friend Tamang' })
  assert.equal(shares[1].status, 'paid')
  // The organizer is told who paid and how many are left.
  const told = await app.ctx.db
    .selectFrom('notifications')
    .select('data')
    .where('user_id', '=', w.organizer.id)
    .where('type', 'like', '%SplitSharePaid')
    .execute()
  assert.equal(told.length, 1)
  assert.match(
    (told[0].data as { message: string }).message,
    /Friend Tamang paid Rs 500\.00 .* 2 of 3 shares are still unpaid/,
  )

  // Paying a paid share again is 409; one user may pay several shares.
  const again = await payShare(app, friend, w.shares[1].pay_url, { method: 'wallet' })
  assert.equal(again.statusCode, 409, again.body)
  assert.deepEqual(again.json(), { message: 'This share has already been paid.' })
  assert.equal((await payShare(app, friend, w.shares[2].pay_url, { method: 'wallet' })).statusCode, 200)
  const organizerWallet = await createUser(app, { wallet: 0 })
  const short = await payShare(app, organizerWallet, w.shares[0].pay_url, { method: 'wallet' })
  assert.equal(short.statusCode, 422)
  assert.deepEqual(short.json(), { message: 'Insufficient wallet balance.' })
  await app.ctx.db.updateTable('users').set({ wallet_balance: 0 }).where('id', '=', w.organizer.id).execute()
  const last = await payShare(app, await createUser(app, { wallet: 50000 }), w.shares[0].pay_url, { method: 'wallet' })
  assert.equal(last.statusCode, 200, last.body)
  assert.equal(last.json().data.booking.status, 'confirmed')
  shares = await sharesNow(w)
  assert.deepEqual(
    shares.map((s) => s.status),
    ['paid', 'paid', 'paid'],
  )
  assert.equal((await bookingState(app, w.booking.id)).hold_expires_at, null)
  await assertBalanced()
})

test('a gateway pays a share when the gateway confirms it; cash is not a way to pay a share', async () => {
  const w = await splitInto(2)
  const friend = await createUser(app)
  const res = await payShare(app, friend, w.shares[1].pay_url, { method: 'gateway_2' })
  assert.equal(res.statusCode, 201, res.body)
  const { payment, payment_url } = res.json().data
  assert.deepEqual(
    { method: payment.method, amount: payment.amount, status: payment.status },
    { method: 'gateway_2', amount: '750.00', status: 'initiated' },
  )
  assert.equal((await sharesNow(w))[1].status, 'unpaid')
  // The split's hold is not cut to the payment window by the intent.
  const held = await bookingState(app, w.booking.id)
  assert.equal(app.ctx.zone.format(held.hold_expires_at)?.slice(11), '16:00:00')
  const callback = await simulate(app, payment_url, 'success')
  assert.equal((await app.inject({ method: 'GET', url: callback })).statusCode, 200)
  const shares = await sharesNow(w)
  assert.equal(shares[1].status, 'paid')
  assert.equal(shares[1].payer?.id, friend.id)
  assert.equal((await bookingState(app, w.booking.id)).paid_amount, 75000)

  for (const method of ['cash', 'card', 1, null]) {
    const bad = await payShare(app, friend, w.shares[0].pay_url, { method })
    assert.equal(bad.statusCode, 422, `${method}: ${bad.body}`)
    assert.ok(bad.json().errors.method)
  }
  assert.equal((await payShare(app, friend, w.shares[0].pay_url, {})).statusCode, 422)
  const badUrl = await payShare(app, friend, w.shares[0].pay_url, {
    method: 'gateway_1',
    return_url: 'https://evil.example/x',
  })
  assert.equal(badUrl.statusCode, 422)
  assert.ok(badUrl.json().errors.return_url)
  assert.equal((await payShare(app, undefined, w.shares[0].pay_url, { method: 'wallet' })).statusCode, 401)
  const unknown = await app.inject({
    method: 'POST',
    url: '/api/shares/unknown-token/pay',
    headers: friend.headers,
    payload: { method: 'wallet' },
  })
  assert.equal(unknown.statusCode, 404)
  await assertBalanced()
})

test('the last two shares paid at once: the booking is confirmed exactly once, nothing overpaid', async () => {
  for (const method of ['wallet', 'gateway_1'] as const) {
    const w = await splitInto(4, 200002)
    const payers = await Promise.all([1, 2, 3, 4].map(() => createUser(app, { wallet: 100000 })))
    for (const i of [0, 1])
      assert.equal((await payShare(app, payers[i], w.shares[i].pay_url, { method: 'wallet' })).statusCode, 200)
    if (method === 'wallet') {
      const results = await Promise.all([2, 3].map((i) => payShare(app, payers[i], w.shares[i].pay_url, { method })))
      for (const r of results) assert.equal(r.statusCode, 200, r.body)
    } else {
      const started = await Promise.all([2, 3].map((i) => payShare(app, payers[i], w.shares[i].pay_url, { method })))
      const callbacks = await Promise.all(started.map((r) => simulate(app, r.json().data.payment_url, 'success')))
      const results = await Promise.all(callbacks.map((url) => app.inject({ method: 'GET', url })))
      for (const r of results) assert.equal(r.statusCode, 200, r.body)
    }
    const row = await bookingState(app, w.booking.id)
    assert.equal(row.status, 'confirmed', method)
    assert.equal(row.paid_amount, 200002, method)
    const ids = (
      await app.ctx.db
        .selectFrom('notifications')
        .select(['data'])
        .where('user_id', '=', w.organizer.id)
        .where('type', 'like', '%BookingConfirmed')
        .execute()
    ).filter((n) => (n.data as { booking_id: number }).booking_id === w.booking.id)
    assert.equal(ids.length, 1, method)
    assert.deepEqual(
      (await sharesNow(w)).map((s) => s.status),
      ['paid', 'paid', 'paid', 'paid'],
    )
  }
  await assertBalanced()
})

test('one share paid twice at once: one payment takes it, the other is refused or goes back to its payer', async () => {
  const w = await splitInto(2)
  const a = await createUser(app, { wallet: 100000 })
  const b = await createUser(app, { wallet: 100000 })
  const both = await Promise.all([a, b].map((u) => payShare(app, u, w.shares[1].pay_url, { method: 'wallet' })))
  assert.deepEqual(both.map((r) => r.statusCode).sort(), [200, 409])
  const walletsAfter = [(await ledger(app, a.id)).balance, (await ledger(app, b.id)).balance].sort((x, y) => x - y)
  assert.deepEqual(walletsAfter, [25000, 100000])

  // Two gateway payments of one share both confirmed: the second payer's money goes to their wallet.
  const g = await splitInto(2)
  const c = await createUser(app)
  const d = await createUser(app)
  const started = await Promise.all([c, d].map((u) => payShare(app, u, g.shares[1].pay_url, { method: 'gateway_1' })))
  for (const r of started) assert.equal(r.statusCode, 201, r.body)
  const callbacks = await Promise.all(started.map((r) => simulate(app, r.json().data.payment_url, 'success')))
  await Promise.all(callbacks.map((url) => app.inject({ method: 'GET', url })))
  const row = await bookingState(app, g.booking.id)
  assert.equal(row.paid_amount, 75000)
  assert.equal(row.status, 'pending')
  const credited = [(await ledger(app, c.id)).balance, (await ledger(app, d.id)).balance].sort((x, y) => x - y)
  assert.deepEqual(credited, [0, 75000])
  await assertBalanced()
})

test('settle: the organizer pays every unpaid share at once; only the organizer may', async () => {
  const w = await splitInto(5)
  const friend = await createUser(app, { wallet: 30000 })
  assert.equal((await payShare(app, friend, w.shares[4].pay_url, { method: 'wallet' })).statusCode, 200)
  const url = `/api/bookings/${w.booking.id}/split/settle`
  for (const user of [w.staff, w.owner, friend]) {
    const res = await app.inject({ method: 'POST', url, headers: user.headers, payload: { method: 'wallet' } })
    assert.equal(res.statusCode, 403, res.body)
  }
  const bad = await app.inject({ method: 'POST', url, headers: w.organizer.headers, payload: { method: 'cash' } })
  assert.equal(bad.statusCode, 422)
  const gw = await app.inject({ method: 'POST', url, headers: w.organizer.headers, payload: { method: 'gateway_1' } })
  assert.equal(gw.statusCode, 201, gw.body)
  assert.equal(gw.json().data.payment.amount, '1200.00')
  const callback = await simulate(app, gw.json().data.payment_url, 'success')
  assert.equal((await app.inject({ method: 'GET', url: callback })).statusCode, 200)
  const shares = await sharesNow(w)
  assert.deepEqual(
    shares.map((s) => [s.status, s.payer?.id]),
    [
      ['paid', w.organizer.id],
      ['paid', w.organizer.id],
      ['paid', w.organizer.id],
      ['paid', w.organizer.id],
      ['paid', friend.id],
    ],
  )
  assert.equal((await bookingState(app, w.booking.id)).status, 'confirmed')
  const done = await app.inject({ method: 'POST', url, headers: w.organizer.headers, payload: { method: 'wallet' } })
  assert.equal(done.statusCode, 409, done.body)
  assert.deepEqual(done.json(), { message: 'Every share of this booking has been paid.' })
  await assertBalanced()
})

test('at the deadline with shares unpaid the booking is cancelled and each payer refunded the way it came', async () => {
  const w = await splitInto(4, 100000)
  const a = await createUser(app, { wallet: 25000 })
  const b = await createUser(app)
  assert.equal((await payShare(app, a, w.shares[1].pay_url, { method: 'wallet' })).statusCode, 200)
  const gw = await payShare(app, b, w.shares[2].pay_url, { method: 'gateway_2' })
  const callback = await simulate(app, gw.json().data.payment_url, 'success')
  assert.equal((await app.inject({ method: 'GET', url: callback })).statusCode, 200)
  assert.equal((await ledger(app, a.id)).balance, 0)

  // Before the deadline nothing happens; after it, the sweep (twice, and twice at once) cancels once.
  assert.equal(await expireLapsedHolds(app), 0)
  const deadline = (await bookingState(app, w.booking.id)).hold_expires_at as Date
  clock.set(new Date(deadline.getTime() + 60_000))
  await Promise.all([expireLapsedHolds(app), expireLapsedHolds(app)])
  assert.equal(await expireLapsedHolds(app), 0)
  const cancelled = (
    await app.ctx.db
      .selectFrom('notifications')
      .select('data')
      .where('user_id', '=', w.organizer.id)
      .where('type', 'like', '%BookingCancelled')
      .execute()
  ).filter((n) => (n.data as { booking_id: number }).booking_id === w.booking.id)
  assert.equal(cancelled.length, 1)
  const row = await bookingState(app, w.booking.id)
  assert.equal(row.status, 'cancelled')
  assert.equal(row.paid_amount, 0)
  assert.equal(row.refunded_amount, 50000)
  // Online money goes back to each payer's wallet (the project's rule for wallet and gateway money).
  assert.equal((await ledger(app, a.id)).balance, 25000)
  assert.equal((await ledger(app, b.id)).balance, 25000)
  assert.equal((await ledger(app, w.organizer.id)).balance, 0)
  assert.deepEqual(
    (await sharesNow(w)).map((s) => s.status),
    ['unpaid', 'refunded', 'refunded', 'unpaid'],
  )
  const late = await payShare(app, a, w.shares[3].pay_url, { method: 'wallet' })
  assert.equal(late.statusCode, 422)
  assert.deepEqual(late.json(), { message: 'This share can no longer be paid.' })
  await assertBalanced()
})

test('the organizer cancelling in the free-cancellation window refunds each payer their own share', async () => {
  const w = await splitInto(3, 90000)
  const a = await createUser(app, { wallet: 30000 })
  const b = await createUser(app)
  assert.equal((await payShare(app, a, w.shares[1].pay_url, { method: 'wallet' })).statusCode, 200)
  const gw = await payShare(app, b, w.shares[2].pay_url, { method: 'gateway_1' })
  const callback = await simulate(app, gw.json().data.payment_url, 'success')
  assert.equal((await app.inject({ method: 'GET', url: callback })).statusCode, 200)
  const res = await app.inject({
    method: 'PATCH',
    url: `/api/bookings/${w.booking.id}/cancel`,
    headers: w.organizer.headers,
    payload: {},
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().message, 'Booking cancelled. Rs 600.00 refunded to the players who paid their shares.')
  assert.equal((await ledger(app, a.id)).balance, 30000)
  assert.equal((await ledger(app, b.id)).balance, 30000)
  assert.equal((await ledger(app, w.organizer.id)).balance, 0)
  // Each payer is told what came back to them.
  for (const payer of [a, b]) {
    const told = await app.ctx.db
      .selectFrom('notifications')
      .select('data')
      .where('user_id', '=', payer.id)
      .where('type', 'like', '%BookingRefunded')
      .execute()
    assert.equal(told.length, 1)
    assert.match(
      (told[0].data as { message: string }).message,
      /^Rs 300\.00 of your payment for booking .* was refunded to your wallet\.$/,
    )
  }
  assert.deepEqual(
    (await sharesNow(w)).map((s) => s.status),
    ['unpaid', 'refunded', 'refunded'],
  )
  await assertBalanced()
})

test('a split booking paid in full another way: its shares are settled, a later share payer is 409, nothing moves', async () => {
  const w = await splitInto(2)
  const organizerFunds = await createUser(app, { wallet: 150000 })
  // The whole balance through /api/payments/initiate, by the booking's customer (a second account
  // stands in for the organizer for this one call, so its wallet pays).
  await app.ctx.db.updateTable('bookings').set({ user_id: organizerFunds.id }).where('id', '=', w.booking.id).execute()
  const whole = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: organizerFunds.headers,
    payload: { booking_id: w.booking.id, method: 'wallet' },
  })
  assert.equal(whole.statusCode, 200, whole.body)
  await app.ctx.db.updateTable('bookings').set({ user_id: w.organizer.id }).where('id', '=', w.booking.id).execute()
  const friend = await createUser(app, { wallet: 75000 })
  const res = await payShare(app, friend, w.shares[1].pay_url, { method: 'wallet' })
  assert.equal(res.statusCode, 409, res.body)
  assert.deepEqual(res.json(), { message: 'This share has already been paid.' })
  assert.equal((await ledger(app, friend.id)).balance, 75000)
  assert.equal((await bookingState(app, w.booking.id)).paid_amount, 150000)
  await assertBalanced()
})

test('a share paid again with the same Idempotency-Key is answered from the first time, paid once', async () => {
  const w = await splitInto(2)
  const friend = await createUser(app, { wallet: 100000 })
  const token = new URL(w.shares[1].pay_url).pathname.split('/').pop()
  const send = () =>
    app.inject({
      method: 'POST',
      url: `/api/shares/${token}/pay`,
      headers: { ...friend.headers, 'idempotency-key': 'share-key-1' },
      payload: { method: 'wallet' },
    })
  const first = await send()
  const again = await send()
  assert.equal(first.statusCode, 200, first.body)
  assert.equal(again.statusCode, 200, again.body)
  assert.equal(again.headers['idempotent-replayed'], 'true')
  assert.deepEqual(again.json(), first.json())
  assert.equal((await ledger(app, friend.id)).balance, 25000)
})
