import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { daysFromFixedNow, FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { expireLapsedHolds } from '../helpers/sweeps.ts'
import { scene } from '../indoor-bookings/helpers.ts'
import { ledger } from '../payments/helpers.ts'
import { book, fixedSlot, notificationsOf, world } from './helpers.ts'

// A refund made by the venue lowers what a later cancel credits, and never makes the cancel fail:
// staff take 10.00 cash on a pending booking, the owner refunds 1.00 of it, then the booking is
// cancelled (by the customer, by staff, or by the hold sweep) and 9.00 is refunded at the desk: cash
// goes back the way it came and never becomes platform wallet money.

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

type Kind = 'court' | 'indoor'
const base = (kind: Kind) => (kind === 'court' ? '/api/bookings' : '/api/indoor-game-bookings')

function inject(method: 'GET' | 'POST' | 'PATCH', url: string, user: TestUser | undefined, payload?: object) {
  return app.inject({ method, url, headers: user?.headers, payload })
}

async function assertLedger(userId: number) {
  const l = await ledger(app, userId)
  assert.equal(l.balance, l.sum, 'balance == sum(ledger)')
  return l.balance
}

/**
 * A pending booking of `kind` with 10.00 cash recorded by venue staff and 1.00 of it refunded by the owner.
 * Desk money goes back the way it came, at the desk: none of it ever reaches the customer's wallet.
 */
async function partlyRefunded(kind: Kind, opts: { days?: number; start?: string } = {}) {
  const days = opts.days ?? 3
  const start = opts.start ?? '10:00'
  const end = `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:00`
  let staff: TestUser
  let owner: TestUser
  let customer: TestUser
  let id: number
  let rebook: () => Promise<number>
  if (kind === 'court') {
    const w = await world(app)
    ;({ staff, owner, customer } = w)
    const res = await book(app, customer, fixedSlot(w.court.id, days, start, end))
    assert.equal(res.statusCode, 201, res.body)
    id = res.json().data.id
    rebook = async () => (await book(app, w.customer, fixedSlot(w.court.id, days, start, end))).statusCode
  } else {
    const s = await scene(app)
    ;({ owner, customer } = s)
    staff = owner
    const body = { indoor_game_id: s.game.id, date: daysFromFixedNow(days), start_time: start, end_time: end }
    const res = await inject('POST', '/api/indoor-game-bookings', customer, body)
    assert.equal(res.statusCode, 201, res.body)
    id = res.json().data.id
    rebook = async () => (await inject('POST', '/api/indoor-game-bookings', s.customer, body)).statusCode
  }
  const paid = await inject('POST', `${base(kind)}/${id}/payments`, staff, { method: 'cash', amount: 10 })
  assert.equal(paid.statusCode, 201, paid.body)
  const payment = paid.json().data.payments.at(-1)
  assert.equal(payment.amount, '10.00')
  const refund = await inject('POST', `/api/payments/${payment.id}/refund`, owner, { amount: '1.00' })
  assert.equal(refund.statusCode, 200, refund.body)
  assert.equal(refund.json().data.status, 'partially_refunded')
  assert.equal(await assertLedger(customer.id), 0, 'cash refunded at the desk, not to the wallet')
  return { id, paymentId: payment.id as number, staff, owner, customer, rebook }
}

async function paymentRow(id: number) {
  return app.ctx.db
    .selectFrom('payments')
    .select(['amount', 'refunded_amount', 'status'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

for (const kind of ['court', 'indoor'] as const) {
  test(`${kind}: the customer cancels after a partial refund; what is left (9.00) is refunded at the desk`, async () => {
    const b = await partlyRefunded(kind)
    const before = await inject('GET', `${base(kind)}/${b.id}/cancellation`, b.customer)
    assert.equal(before.statusCode, 200, before.body)
    assert.equal(before.json().data.cancellable, true)
    assert.equal(before.json().data.refund_amount, '9.00')
    assert.match(
      before.json().data.reason,
      /Rs 9\.00 paid at the venue is refunded at its desk\. Rs 1\.00 was refunded earlier\./,
    )

    const res = await inject('PATCH', `${base(kind)}/${b.id}/cancel`, b.customer, {})
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().data.status, 'cancelled')
    assert.equal(res.json().refund_amount, '9.00')
    assert.equal(res.json().message, 'Booking cancelled. Rs 9.00 paid at the venue is refunded at its desk.')
    assert.deepEqual(await paymentRow(b.paymentId), { amount: 1000, refunded_amount: 1000, status: 'refunded' })
    assert.equal(await assertLedger(b.customer.id), 0)
    const note = (await notificationsOf(app, b.customer.id)).find((n) => n.type === 'BookingCancelled')
    assert.ok(note)
    assert.equal(note.data.refund_amount, '9.00')
    assert.match(String(note.data.message), /was cancelled\. Rs 9\.00 paid at the venue is refunded at its desk\.$/)
    // The slot is free for the next booking.
    assert.equal(await b.rebook(), 201)
  })

  test(`${kind}: venue staff cancel after a partial refund; what is left is refunded at the desk`, async () => {
    const b = await partlyRefunded(kind, { start: '13:00' })
    const res = await inject('PATCH', `${base(kind)}/${b.id}/status`, b.staff, { status: 'cancelled' })
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().data.status, 'cancelled')
    assert.deepEqual(await paymentRow(b.paymentId), { amount: 1000, refunded_amount: 1000, status: 'refunded' })
    assert.equal(await assertLedger(b.customer.id), 0)
    const note = (await notificationsOf(app, b.customer.id)).find((n) => n.type === 'BookingCancelled')
    assert.match(String(note?.data.message), /Rs 9\.00 paid at the venue is refunded at its desk\.$/)
    assert.equal(await b.rebook(), 201)
  })

  test(`${kind}: everything refunded before the cancel: the cancel succeeds and credits nothing`, async () => {
    const b = await partlyRefunded(kind, { start: '15:00' })
    const rest = await inject('POST', `/api/payments/${b.paymentId}/refund`, b.owner, {})
    assert.equal(rest.statusCode, 200, rest.body)
    assert.equal(await assertLedger(b.customer.id), 0)
    const preview = await inject('GET', `${base(kind)}/${b.id}/cancellation`, b.customer)
    assert.deepEqual(preview.json().data, {
      cancellable: true,
      refund_amount: '0.00',
      reason: 'No refund: what was paid for this booking has already been refunded.',
    })
    const res = await inject('PATCH', `${base(kind)}/${b.id}/cancel`, b.customer, {})
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().refund_amount, '0.00')
    assert.equal(
      res.json().message,
      'Booking cancelled. No refund: what was paid for this booking has already been refunded.',
    )
    assert.equal(await assertLedger(b.customer.id), 0)
    const credits = await app.ctx.db
      .selectFrom('wallet_transactions')
      .select('amount')
      .where('user_id', '=', b.customer.id)
      .where('type', '=', 'credit')
      .orderBy('id')
      .execute()
    assert.deepEqual(
      credits.map((c) => c.amount),
      [],
      'desk money never becomes wallet money',
    )
  })
}

test('the hold sweep expires a partly refunded booking; what is left is refunded at the desk', async () => {
  const b = await partlyRefunded('court', { start: '17:00' })
  // This one hold lapses a minute ago by the app's clock. Advancing the shared ManualClock instead
  // would also lapse the holds of the slots rebooked by the tests above, and the sweep would count them.
  await app.ctx.db
    .updateTable('bookings')
    .set({ hold_expires_at: new Date(app.ctx.clock.now().getTime() - 60_000) })
    .where('id', '=', b.id)
    .execute()
  assert.equal(await expireLapsedHolds(app), 1)
  const row = await app.ctx.db
    .selectFrom('bookings')
    .select(['status', 'cancel_reason'])
    .where('id', '=', b.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual(row, { status: 'cancelled', cancel_reason: 'Payment not received' })
  assert.equal(await assertLedger(b.customer.id), 0)
  assert.deepEqual(await paymentRow(b.paymentId), { amount: 1000, refunded_amount: 1000, status: 'refunded' })
  assert.equal(await b.rebook(), 201)
})

test('a wallet-paid booking cancelled in time: the message states the amount with a thousands separator', async () => {
  const w = await world(app, { wallet: 150000 })
  const created = (await book(app, w.customer, fixedSlot(w.court.id, 4))).json().data
  const paid = await inject('POST', '/api/payments/initiate', w.customer, { booking_id: created.id, method: 'wallet' })
  assert.equal(paid.statusCode, 200, paid.body)
  assert.equal(await assertLedger(w.customer.id), 0)
  const res = await inject('PATCH', `/api/bookings/${created.id}/cancel`, w.customer, {})
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().message, 'Booking cancelled. Rs 1,500.00 refunded to your wallet.')
  assert.equal(res.json().refund_amount, '1500.00')
  assert.equal(await assertLedger(w.customer.id), 150000)
  const note = (await notificationsOf(app, w.customer.id)).find((n) => n.type === 'BookingCancelled')
  assert.match(String(note?.data.message), /Rs 1,500\.00 refunded to your wallet\.$/)
})

test('a booking cancelled inside the window says why nothing was refunded', async () => {
  const w = await world(app, { wallet: 150000, freeCancellationHours: 720 })
  const created = (await book(app, w.customer, fixedSlot(w.court.id, 4))).json().data
  await inject('POST', '/api/payments/initiate', w.customer, { booking_id: created.id, method: 'wallet' })
  const res = await inject('PATCH', `/api/bookings/${created.id}/cancel`, w.customer, {})
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().message, 'Booking cancelled. No refund: less than 720 hours before the start.')
  assert.equal(res.json().refund_amount, '0.00')
  assert.equal(await assertLedger(w.customer.id), 0)
  const note = (await notificationsOf(app, w.customer.id)).find((n) => n.type === 'BookingCancelled')
  assert.match(String(note?.data.message), /was cancelled\. No refund: less than 720 hours before the start\.$/)
})

test('POST /api/payments/{payment}/refund parses its id like every other route', async () => {
  const b = await partlyRefunded('court', { start: '19:00' })
  for (const bad of ['0x10', '1e1', '0', '-1', '%201', '1.0', '9999999999999999']) {
    const res = await inject('POST', `/api/payments/${bad}/refund`, b.owner, { amount: '1.00' })
    assert.equal(res.statusCode, 404, `${bad}: ${res.body}`)
    assert.deepEqual(res.json(), { message: 'Not found.' })
  }
  assert.equal((await inject('POST', `/api/payments/${b.paymentId}/refund`, undefined, {})).statusCode, 401)
  assert.equal(await assertLedger(b.customer.id), 0)
})
