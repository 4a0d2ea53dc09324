import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import {
  completionEvent,
  movePayment,
  PAYMENT_EVENTS,
  PAYMENT_STATUSES,
  PAYMENT_TRANSITIONS,
  type PaymentMove,
} from '../../src/modules/booking-core/index.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { insertBooking } from '../payments/helpers.ts'

// The payment state machine, enumerated like the booking's (transitions.test.ts): every status ×
// every event is moved as PAYMENT_TRANSITIONS says, through the one writer (movePayment), or refused
// and left as it was. And the source holds no other writer of a payment's status.

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('the payment transition table is what docs/payments.md describes', () => {
  assert.deepEqual(
    Object.fromEntries(
      PAYMENT_EVENTS.map((e) => [
        e,
        `${PAYMENT_TRANSITIONS[e].from.join('|')} -> ${PAYMENT_TRANSITIONS[e].to.join('|')}`,
      ]),
    ),
    {
      complete: 'initiated -> completed',
      fail: 'initiated -> failed',
      expire: 'initiated -> failed',
      late_success: 'failed -> completed',
      refund: 'completed|partially_refunded -> partially_refunded|refunded',
    },
  )
  // refunded is final; a failed payment comes back only by late_success.
  assert.ok(PAYMENT_EVENTS.every((e) => !PAYMENT_TRANSITIONS[e].from.includes('refunded')))
  assert.deepEqual(
    PAYMENT_EVENTS.filter((e) => PAYMENT_TRANSITIONS[e].from.includes('failed')),
    ['late_success'],
  )
  assert.equal(completionEvent('initiated'), 'complete')
  assert.equal(completionEvent('failed'), 'late_success')
  for (const settled of ['completed', 'partially_refunded', 'refunded']) assert.equal(completionEvent(settled), null)
})

test('every payment status × event is moved as the table says or refused', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const customer = await createUser(app)
  const booking = await insertBooking(app, {
    userId: customer.id,
    venueId: venue.id,
    courtId: court.id,
    total: 100000,
    date: daysFromFixedNow(3),
  })
  const refundedBefore = { initiated: 0, completed: 0, failed: 0, partially_refunded: 10000, refunded: 100000 }
  let moved = 0
  let refused = 0
  for (const from of PAYMENT_STATUSES) {
    for (const event of PAYMENT_EVENTS) {
      const payment = await app.ctx.db
        .insertInto('payments')
        .values({
          user_id: customer.id,
          payable_type: 'court',
          payable_id: booking.id,
          method: 'gateway_1',
          amount: 100000,
          refunded_amount: refundedBefore[from],
          status: from,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      const move: PaymentMove = event === 'refund' ? { event, amount: 10000 } : { event }
      const row = await movePayment(app.ctx.db, payment.id, move, app.ctx.clock.now())
      const after = await app.ctx.db
        .selectFrom('payments')
        .select(['status', 'refunded_amount'])
        .where('id', '=', payment.id)
        .executeTakeFirstOrThrow()
      const label = `${from} --${event}-->`
      if (!PAYMENT_TRANSITIONS[event].from.includes(from)) {
        assert.equal(row, undefined, `${label} refused`)
        assert.deepEqual(after, { status: from, refunded_amount: refundedBefore[from] }, `${label} left alone`)
        refused++
        continue
      }
      moved++
      assert.equal(row?.status, after.status, label)
      if (event === 'refund') {
        assert.equal(after.status, 'partially_refunded', label)
        assert.equal(after.refunded_amount, refundedBefore[from] + 10000, label)
      } else assert.equal(after.status, PAYMENT_TRANSITIONS[event].to[0], label)
    }
  }
  assert.equal(moved, 6)
  assert.equal(refused, PAYMENT_STATUSES.length * PAYMENT_EVENTS.length - 6)
})

test('a refund of all that is left leads to refunded, which nothing moves again', async () => {
  const p = await paymentOfRs500(4, 'cash', 'completed')
  const now = app.ctx.clock.now()
  assert.equal(
    (await movePayment(app.ctx.db, p.id, { event: 'refund', amount: 20000 }, now))?.status,
    'partially_refunded',
  )
  assert.equal((await movePayment(app.ctx.db, p.id, { event: 'refund', amount: 30000 }, now))?.status, 'refunded')
  for (const event of PAYMENT_EVENTS) {
    const move: PaymentMove = event === 'refund' ? { event, amount: 1 } : { event }
    assert.equal(await movePayment(app.ctx.db, p.id, move, now), undefined, event)
  }
})

test('of racers completing one payment, exactly one wins the row', async () => {
  const p = await paymentOfRs500(5, 'gateway_2', 'initiated')
  const now = app.ctx.clock.now()
  const results = await Promise.all(
    Array.from({ length: 8 }, () =>
      app.ctx.db.transaction().execute((trx) => movePayment(trx, p.id, { event: 'complete' }, now)),
    ),
  )
  assert.equal(results.filter((r) => r !== undefined).length, 1)
})

/** A Rs 500 payment in `status` for a walk-in booking `day` days after FIXED_NOW, at a new venue. */
async function paymentOfRs500(day: number, method: string, status: 'initiated' | 'completed') {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const b = await insertBooking(app, {
    userId: null,
    venueId: venue.id,
    courtId: court.id,
    total: 50000,
    date: daysFromFixedNow(day),
  })
  return app.ctx.db
    .insertInto('payments')
    .values({ payable_type: 'court', payable_id: b.id, method, amount: 50000, status })
    .returning('id')
    .executeTakeFirstOrThrow()
}

/** Source files under `dir`, relative to the repository. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : []
  })
}

test('the source has one writer of a payment status and one caller chain for a received payment', () => {
  const root = new URL('../..', import.meta.url).pathname
  const src = join(root, 'src')
  const writers: string[] = []
  const inserters: string[] = []
  const receivers: string[] = []
  for (const file of sources(src)) {
    const text = readFileSync(file, 'utf8')
    const rel = relative(root, file)
    if (/updateTable\('payments'\)[^;]*?\bstatus: /.test(text)) writers.push(rel)
    if (/insertInto\('payments'\)/.test(text)) inserters.push(rel)
    // The steps of a payment arriving, written once: the receipt and the commission on a payment.
    if (/\bissueReceipt\(|\btakeCommission\(/.test(text) && !rel.includes('/receipts/') && !rel.includes('/ledger/'))
      receivers.push(rel)
  }
  assert.deepEqual(writers, ['src/modules/booking-core/repository/payments.ts'])
  // The demo history (npm run seed) writes past payments as they ended, in bulk; nothing else inserts.
  assert.deepEqual(inserters.sort(), ['src/cli/seed-history.ts', 'src/modules/booking-core/repository/payments.ts'])
  // (The demo history posts its past payments' commission in bulk too.)
  assert.deepEqual(receivers.sort(), ['src/cli/seed-history.ts', 'src/modules/booking-core/receive.ts'])
})
