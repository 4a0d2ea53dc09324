import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import type { App } from '../../src/app.ts'
import { expireUnpaidHolds } from '../../src/modules/bookings/jobs.ts'
import { reconcilePayments } from '../../src/modules/payments/reconcile.ts'
import { build } from '../helpers/app.ts'
import {
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromNow,
  type TestUser,
} from '../helpers/factories.ts'
import {
  bookingRow,
  insertBooking,
  ledger,
  notificationsOf,
  openPaymentPage,
  payWithoutReturning,
  simulate,
} from './helpers.ts'

// Callbacks that never arrive: GET /api/payments/{id}, the reconciliation job and the hold sweep
// ask the gateway's status API instead (src/modules/payments/reconcile.ts).

const GATEWAY_LIST = ['gateway_1', 'gateway_2', 'gateway_3'] as const
const AFTER_SECONDS = 1

let app: App
before(async () => {
  app = await build(undefined, { PAYMENT_RECONCILE_AFTER_SECONDS: String(AFTER_SECONDS) })
})
after(() => app.close())

let day = 0
async function setup(opts: { indoor?: boolean } = {}) {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const user = await createUser(app)
  const date = daysFromNow(2 + day++)
  const game = opts.indoor ? await createIndoorGame(app, venue.id) : undefined
  const booking = await insertBooking(app, {
    userId: user.id,
    venueId: venue.id,
    courtId: court.id,
    indoorGameId: game?.id,
    total: 120000,
    date,
  })
  return { owner, venue, court, user, booking, date }
}

async function startGateway(user: TestUser, bookingId: number, method: string, kind: 'court' | 'indoor' = 'court') {
  const res = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: user.headers,
    payload: { booking_id: bookingId, method, booking_type: kind },
  })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { payment: { id: number }; payment_url: string }
}

async function startTopup(user: TestUser, method: string, amount = '500.00') {
  const res = await app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    headers: user.headers,
    payload: { amount, method },
  })
  assert.equal(res.statusCode, 201, res.body)
  const payment = await app.ctx.db
    .selectFrom('payments')
    .select('id')
    .where('payable_type', '=', 'topup')
    .where('payable_id', '=', res.json().data.id)
    .executeTakeFirstOrThrow()
  return { paymentId: payment.id, transactionId: res.json().data.id as number, payment_url: res.json().payment_url }
}

const getPayment = (user: TestUser, id: number) =>
  app.inject({ method: 'GET', url: `/api/payments/${id}`, headers: user.headers })

const paymentRow = (id: number) =>
  app.ctx.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

async function expireHold(kind: 'court' | 'indoor', id: number) {
  await app.ctx.db
    .updateTable(kind === 'court' ? 'bookings' : 'indoor_game_bookings')
    .set({ hold_expires_at: new Date(Date.now() - 60_000) })
    .where('id', '=', id)
    .execute()
}

async function assertLedgerHolds(userId: number) {
  const l = await ledger(app, userId)
  assert.equal(l.balance, l.sum, 'balance == sum(ledger)')
  return l
}

test('a lost callback is settled by GET /api/payments/{id} (all three gateways)', async () => {
  for (const method of GATEWAY_LIST) {
    const { user, booking } = await setup()
    const { payment, payment_url } = await startGateway(user, booking.id, method)
    await payWithoutReturning(app, payment_url)
    assert.equal((await bookingRow(app, 'court', booking.id)).status, 'pending', method)

    const res = await getPayment(user, payment.id)
    assert.equal(res.statusCode, 200, res.body)
    const data = res.json().data
    assert.equal(data.status, 'completed', method)
    assert.equal(data.method, method)
    assert.equal(data.amount, '1200.00')
    assert.equal(data.booking.status, 'confirmed')
    assert.equal(data.booking.is_paid, true)
    assert.ok(data.paid_at)
    assert.equal((await bookingRow(app, 'court', booking.id)).paid_amount, 120000)
    // Asking again changes nothing.
    assert.equal((await getPayment(user, payment.id)).json().data.status, 'completed')
    const confirmed = (await notificationsOf(app, user.id)).filter((n) => n.type === 'BookingConfirmed')
    assert.equal(confirmed.length, 1, method)
    const l = await assertLedgerHolds(user.id)
    assert.equal(l.balance, 0)
  }
})

test('the reconciliation job settles lost top-ups once they are PAYMENT_RECONCILE_AFTER_SECONDS old', async () => {
  const user = await createUser(app)
  const started = []
  for (const method of GATEWAY_LIST) {
    const t = await startTopup(user, method, '300.00')
    await payWithoutReturning(app, t.payment_url)
    started.push(t)
  }
  // Too young: not asked about yet.
  const early = await reconcilePayments(app.ctx)
  assert.equal(early.checked, 0)
  for (const t of started) assert.equal((await paymentRow(t.paymentId)).status, 'initiated')
  assert.equal((await ledger(app, user.id)).balance, 0)

  await sleep(AFTER_SECONDS * 1000 + 200)
  // Through the job queue: proves the job is registered.
  await app.ctx.jobs.runDue()
  for (const t of started) {
    const p = await paymentRow(t.paymentId)
    assert.equal(p.status, 'completed', p.method)
    assert.equal(p.reconcile_attempts, 1)
    const tx = await app.ctx.db
      .selectFrom('wallet_transactions')
      .select(['status'])
      .where('id', '=', t.transactionId)
      .executeTakeFirstOrThrow()
    assert.equal(tx.status, 'completed')
  }
  const l = await assertLedgerHolds(user.id)
  assert.equal(l.balance, 90000)
  // A second pass has nothing to do.
  assert.equal((await reconcilePayments(app.ctx)).checked, 0)
})

test('a payment pending at the gateway stays initiated, fails after the link lifetime, and a later confirmed success still counts', async () => {
  const user = await createUser(app)
  const { user: bookingUser, booking } = await setup()
  const topups = []
  for (const method of GATEWAY_LIST) {
    const t = await startTopup(user, method, '200.00')
    await openPaymentPage(app, t.payment_url) // at the gateway, not paid
    topups.push(t)
  }
  const courtPayment = await startGateway(bookingUser, booking.id, 'gateway_2')
  await sleep(AFTER_SECONDS * 1000 + 200)

  const first = await reconcilePayments(app.ctx)
  assert.equal(first.checked, 4)
  assert.equal(first.completed + first.failed, 0)
  for (const id of [...topups.map((t) => t.paymentId), courtPayment.payment.id]) {
    const p = await paymentRow(id)
    assert.equal(p.status, 'initiated')
    assert.equal(p.reconcile_attempts, 1)
    // Next check backs off: after the first wait, at least AFTER_SECONDS later.
    assert.ok(p.reconcile_at && new Date(p.reconcile_at).getTime() > Date.now())
  }
  assert.equal((await getPayment(user, topups[0].paymentId)).json().data.status, 'initiated')
  // Not due again yet.
  assert.equal((await reconcilePayments(app.ctx)).checked, 0)

  // Two hours later every link (1 h) has expired: the next check fails them.
  const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000)
  await app.ctx.db
    .updateTable('payments')
    .set({ created_at: twoHoursAgo, reconcile_at: twoHoursAgo })
    .where('id', 'in', [...topups.map((t) => t.paymentId), courtPayment.payment.id])
    .execute()
  const last = await reconcilePayments(app.ctx)
  assert.equal(last.failed, 4)
  for (const t of topups) {
    assert.equal((await paymentRow(t.paymentId)).status, 'failed')
    const tx = await app.ctx.db
      .selectFrom('wallet_transactions')
      .select('status')
      .where('id', '=', t.transactionId)
      .executeTakeFirstOrThrow()
    assert.equal(tx.status, 'failed')
  }
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'pending')
  assert.equal((await assertLedgerHolds(user.id)).balance, 0)

  // The customer pays after all and the gateway confirms: never dropped because we said failed.
  const cb = await app.inject({ method: 'GET', url: await simulate(app, topups[1].payment_url, 'success') })
  assert.equal(cb.statusCode, 200, cb.body)
  assert.equal(cb.json().data.status, 'completed')
  assert.equal((await assertLedgerHolds(user.id)).balance, 20000)
  const again = await app.inject({ method: 'GET', url: await simulate(app, courtPayment.payment_url, 'success') })
  assert.equal(again.json().data.status, 'completed')
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'confirmed')
  // A failure callback for a failed payment changes nothing.
  const failure = await app.inject({ method: 'GET', url: await simulate(app, topups[2].payment_url, 'failure') })
  assert.equal(failure.json().data.status, 'failed')
  assert.equal((await assertLedgerHolds(user.id)).balance, 20000)
})

test('the hold sweep asks the gateway first: a lost-but-paid booking is confirmed, not cancelled', async () => {
  const court = await setup()
  const indoor = await setup({ indoor: true })
  const unpaid = await setup()
  const a = await startGateway(court.user, court.booking.id, 'gateway_3')
  const b = await startGateway(indoor.user, indoor.booking.id, 'gateway_1', 'indoor')
  await startGateway(unpaid.user, unpaid.booking.id, 'gateway_2')
  await payWithoutReturning(app, a.payment_url)
  await payWithoutReturning(app, b.payment_url)
  await expireHold('court', court.booking.id)
  await expireHold('indoor', indoor.booking.id)
  await expireHold('court', unpaid.booking.id)

  assert.equal(await expireUnpaidHolds(app.ctx), 1) // only the one nobody paid
  assert.equal((await bookingRow(app, 'court', court.booking.id)).status, 'confirmed')
  assert.equal((await bookingRow(app, 'indoor', indoor.booking.id)).status, 'confirmed')
  assert.equal((await bookingRow(app, 'court', unpaid.booking.id)).status, 'cancelled')
  assert.equal((await paymentRow(a.payment.id)).status, 'completed')
  assert.deepEqual(
    (await notificationsOf(app, court.user.id)).map((n) => n.type),
    ['BookingConfirmed'],
  )
  assert.deepEqual(
    (await notificationsOf(app, indoor.user.id)).map((n) => n.type),
    ['IndoorGameBookingConfirmed'],
  )
  for (const u of [court.user, indoor.user, unpaid.user]) assert.equal((await assertLedgerHolds(u.id)).balance, 0)
})

test('a success after the hold sweep cancelled the booking reinstates it when the slot is still free', async () => {
  // Once by a late callback, once by a status check of a lost one.
  for (const how of ['callback', 'status check'] as const) {
    const { user, booking } = await setup()
    const { payment, payment_url } = await startGateway(
      user,
      booking.id,
      how === 'callback' ? 'gateway_2' : 'gateway_1',
    )
    await openPaymentPage(app, payment_url)
    await expireHold('court', booking.id)
    assert.equal(await expireUnpaidHolds(app.ctx), 1) // the gateway said "not paid yet"
    assert.equal((await bookingRow(app, 'court', booking.id)).status, 'cancelled')

    if (how === 'callback') {
      const cb = await app.inject({ method: 'GET', url: await simulate(app, payment_url, 'success') })
      assert.equal(cb.statusCode, 200, cb.body)
    } else {
      await payWithoutReturning(app, payment_url)
      assert.equal((await getPayment(user, payment.id)).json().data.status, 'completed')
    }
    const row = await bookingRow(app, 'court', booking.id)
    assert.equal(row.status, 'confirmed', how)
    assert.equal(row.paid_amount, 120000)
    const full = await app.ctx.db
      .selectFrom('bookings')
      .select(['cancel_reason', 'cancelled_at'])
      .where('id', '=', booking.id)
      .executeTakeFirstOrThrow()
    assert.equal(full.cancel_reason, null)
    assert.equal(full.cancelled_at, null)
    assert.equal((await paymentRow(payment.id)).status, 'completed')
    assert.deepEqual(
      (await notificationsOf(app, user.id)).map((n) => n.type),
      ['BookingCancelled', 'BookingConfirmed'],
    )
    assert.equal((await assertLedgerHolds(user.id)).balance, 0)
  }
})

test('a success after the slot went to someone else is credited to the wallet, with a notification', async () => {
  const { venue, court, user, booking, date } = await setup()
  const { payment, payment_url } = await startGateway(user, booking.id, 'gateway_3')
  await openPaymentPage(app, payment_url)
  await expireHold('court', booking.id)
  assert.equal(await expireUnpaidHolds(app.ctx), 1)
  const other = await createUser(app)
  await insertBooking(app, {
    userId: other.id,
    venueId: venue.id,
    courtId: court.id,
    total: 120000,
    date,
    status: 'confirmed',
    paid: 120000,
  })

  const cb = await app.inject({ method: 'GET', url: await simulate(app, payment_url, 'success') })
  assert.equal(cb.statusCode, 200, cb.body)
  assert.equal(cb.json().data.payment.status, 'refunded')
  assert.equal((await bookingRow(app, 'court', booking.id)).status, 'cancelled')
  const l = await assertLedgerHolds(user.id)
  assert.equal(l.balance, 120000)
  const credit = l.rows.filter((r) => r.type === 'credit')
  assert.equal(credit.length, 1)
  assert.equal(credit[0].amount, 120000)
  const notes = await notificationsOf(app, user.id)
  assert.deepEqual(
    notes.map((n) => n.type),
    ['BookingCancelled', 'BookingCancelled'],
  )
  const late = notes.find((n) => n.data.late_payment)!
  assert.match(String(late.data.message), /booked by someone else/)
  assert.match(String(late.data.message), /1200\.00 has been credited to your wallet/)
  assert.equal(late.data.refund_amount, '1200.00')
  assert.equal((await getPayment(user, payment.id)).json().data.status, 'refunded')
})

test('callback, GET and job racing on one payment: one completion, one ledger row', async () => {
  // A top-up: exactly one topup row may complete.
  const user = await createUser(app)
  const t = await startTopup(user, 'gateway_2', '700.00')
  const callback = await simulate(app, t.payment_url, 'success')
  // A booking the sweep cancelled: exactly one reinstatement and one confirmation.
  const s = await setup()
  const b = await startGateway(s.user, s.booking.id, 'gateway_1')
  await openPaymentPage(app, b.payment_url)
  await expireHold('court', s.booking.id)
  await expireUnpaidHolds(app.ctx)
  const bookingCallback = await simulate(app, b.payment_url, 'success')
  await sleep(AFTER_SECONDS * 1000 + 200)

  const racers = await Promise.allSettled([
    ...[callback, bookingCallback, callback, bookingCallback].map((url) => app.inject({ method: 'GET', url })),
    getPayment(user, t.paymentId),
    getPayment(s.user, b.payment.id),
    getPayment(user, t.paymentId),
    reconcilePayments(app.ctx),
    reconcilePayments(app.ctx),
    expireUnpaidHolds(app.ctx),
  ])
  for (const r of racers) {
    assert.equal(r.status, 'fulfilled', r.status === 'rejected' ? String(r.reason) : '')
    const value = (r as PromiseFulfilledResult<unknown>).value as { statusCode?: number; body?: string }
    if (value?.statusCode !== undefined) assert.equal(value.statusCode, 200, value.body)
  }

  assert.equal((await paymentRow(t.paymentId)).status, 'completed')
  const l = await assertLedgerHolds(user.id)
  assert.equal(l.balance, 70000)
  assert.equal(l.rows.length, 1)
  assert.equal(l.rows[0].status, 'completed')

  assert.equal((await bookingRow(app, 'court', s.booking.id)).status, 'confirmed')
  assert.equal((await bookingRow(app, 'court', s.booking.id)).paid_amount, 120000)
  const types = (await notificationsOf(app, s.user.id)).map((n) => n.type)
  assert.deepEqual(types, ['BookingCancelled', 'BookingConfirmed'])
  const sl = await assertLedgerHolds(s.user.id)
  assert.equal(sl.rows.length, 0)
})
