import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { daysFromFixedNow, FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { book as bookIndoor } from '../indoor-bookings/helpers.ts'
import { staffApi } from '../indoor-bookings/staff-helpers.ts'

// Limits on what the desk may record (issue 30): staff never record a payment on a booking of their
// own (403), an extra charge is at most MAX_CHARGE_AMOUNT (default 100000.00; 422 on amount), and a
// desk payment at most the balance due. Before, staff recorded a "gateway" payment nobody made on
// their own booking and charged 10,000,000 at a time.

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); booking
// dates count from that day, never from the machine's date.
let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const INVALID = 'The given data was invalid.'
const OWN = { message: 'You may not record a payment on your own booking.' }
const FAKE = { method: 'gateway_1', amount: 1500, reference: 'NOTHING-RECEIVED' }

function post(url: string, user: TestUser, payload: object) {
  return app.inject({ method: 'POST', url, headers: user.headers, payload })
}

async function paymentsOf(kind: 'court' | 'indoor', id: number) {
  return app.ctx.db
    .selectFrom('payments')
    .select(['amount', 'method', 'recorded_by'])
    .where('payable_type', '=', kind)
    .where('payable_id', '=', id)
    .execute()
}

test('staff recording a payment on their own court booking are refused (403) and nothing is recorded', async () => {
  const w = await world(app)
  for (const [who, start, end] of [
    [w.staff, '10:00', '11:00'],
    [w.manager, '12:00', '13:00'],
    [w.owner, '14:00', '15:00'],
  ] as const) {
    // Each books for themself as a customer, then works the desk on that booking.
    const own = await book(app, who, fixedSlot(w.court.id, 5, start, end))
    assert.equal(own.statusCode, 201, own.body)
    const id = own.json().data.id
    const res = await post(`/api/bookings/${id}/payments`, who, FAKE)
    assert.equal(res.statusCode, 403, res.body)
    assert.deepEqual(res.json(), OWN)
    // Who may act is decided before the body is read: a bad body on one's own booking is 403 too.
    const bad = await post(`/api/bookings/${id}/payments`, who, { amount: 'lots' })
    assert.equal(bad.statusCode, 403, bad.body)
    assert.deepEqual(await paymentsOf('court', id), [])
    const shown = await app.inject({ method: 'GET', url: `/api/bookings/${id}`, headers: who.headers })
    assert.equal(shown.json().data.paid_amount, '0.00')
    assert.equal(shown.json().data.status, 'pending')
    // A colleague at the same desk may record it (the customer paid someone else).
    const colleague = who === w.staff ? w.manager : w.staff
    const paid = await post(`/api/bookings/${id}/payments`, colleague, { method: 'cash', amount: '1500.00' })
    assert.equal(paid.statusCode, 201, paid.body)
  }
  // The customer's booking is the desk's ordinary work.
  const theirs = (await book(app, w.customer, fixedSlot(w.court.id, 6))).json().data
  const ok = await post(`/api/bookings/${theirs.id}/payments`, w.staff, FAKE)
  assert.equal(ok.statusCode, 201, ok.body)
  // A gateway method is a desk QR payment the gateway must confirm: nothing is paid yet.
  assert.equal(ok.json().data.payment.status, 'initiated')
  const after = await app.inject({ method: 'GET', url: `/api/bookings/${theirs.id}`, headers: w.customer.headers })
  assert.equal(after.json().data.paid_amount, '0.00')
})

test('staff recording a payment on their own indoor booking are refused (403)', async () => {
  const { withStaff, pay } = staffApi(() => app)
  const s = await withStaff()
  const own = await bookIndoor(app, s.staff, {
    indoor_game_id: s.game.id,
    date: daysFromFixedNow(4),
    start_time: '10:00',
    end_time: '11:00',
  })
  assert.equal(own.statusCode, 201, own.body)
  const id = own.json().data.id
  const res = await pay(s.staff, id, { ...FAKE, amount: 300 })
  assert.equal(res.statusCode, 403, res.body)
  assert.deepEqual(res.json(), OWN)
  assert.equal((await pay(s.staff, id, { amount: 'lots' })).statusCode, 403)
  assert.deepEqual(await paymentsOf('indoor', id), [])
  const byManager = await pay(s.manager, id, { amount: 300 })
  assert.equal(byManager.statusCode, 201, byManager.body)
  assert.deepEqual(
    (await paymentsOf('indoor', id)).map((p) => p.recorded_by),
    [s.manager.id],
  )
})

test('an extra charge above MAX_CHARGE_AMOUNT (default 100000.00) is 422 on amount; 100000.00 is taken', async () => {
  const w = await world(app)
  const id = (await book(app, w.customer, fixedSlot(w.court.id, 7))).json().data.id
  for (const amount of [10_000_000, '10000000.00', '100000.01', 100000.01]) {
    const res = await post(`/api/bookings/${id}/charges`, w.staff, { description: 'Extra', amount })
    assert.equal(res.statusCode, 422, `${amount}: ${res.body}`)
    assert.deepEqual(res.json(), {
      message: INVALID,
      errors: { amount: ['The amount field must not be greater than 100000.00.'] },
    })
  }
  const max = await post(`/api/bookings/${id}/charges`, w.staff, { description: 'Hall hire', amount: '100000.00' })
  assert.equal(max.statusCode, 201, max.body)
  assert.equal(max.json().data.extras_total, '100000.00')
  assert.equal(max.json().data.balance_due, '101500.00')
  // A desk payment is bounded by what is due.
  const over = await post(`/api/bookings/${id}/payments`, w.staff, { amount: '101500.01' })
  assert.equal(over.statusCode, 422, over.body)
  assert.deepEqual(over.json(), {
    message: INVALID,
    errors: { amount: ['The amount must not be greater than the balance due of 101500.00.'] },
  })

  // Indoor charges have the same bound.
  const { withStaff, charge } = staffApi(() => app)
  const s = await withStaff()
  const indoor = await bookIndoor(app, s.customer, {
    indoor_game_id: s.game.id,
    date: daysFromFixedNow(7),
    start_time: '10:00',
    end_time: '11:00',
  })
  const big = await charge(s.staff, indoor.json().data.id, { description: 'Extra', amount: 10_000_000 })
  assert.equal(big.statusCode, 422, big.body)
  assert.deepEqual(big.json().errors, { amount: ['The amount field must not be greater than 100000.00.'] })
  assert.equal(
    (await charge(s.staff, indoor.json().data.id, { description: 'Snacks', amount: 100000 })).statusCode,
    201,
  )
})

test('MAX_CHARGE_AMOUNT sets the bound', async (t) => {
  const small = await build(t, { MAX_CHARGE_AMOUNT: '500.50' }, { clock: new ManualClock(FIXED_NOW) })
  const w = await world(small)
  const id = (await book(small, w.customer, fixedSlot(w.court.id, 8))).json().data.id
  const charge = (amount: string) =>
    small.inject({
      method: 'POST',
      url: `/api/bookings/${id}/charges`,
      headers: w.staff.headers,
      payload: { description: 'Extra', amount },
    })
  const over = await charge('500.51')
  assert.equal(over.statusCode, 422, over.body)
  assert.deepEqual(over.json().errors, { amount: ['The amount field must not be greater than 500.50.'] })
  assert.equal((await charge('500.50')).statusCode, 201)

  assert.equal(loadConfig({}).maxChargeAmount, 10_000_000)
  assert.equal(loadConfig({ MAX_CHARGE_AMOUNT: '250' }).maxChargeAmount, 25_000)
  for (const bad of ['0', '-5', '10.005', 'lots', '10000000.01', '1e6']) {
    assert.throws(
      () => loadConfig({ MAX_CHARGE_AMOUNT: bad }),
      (err) => err instanceof ConfigError && /^MAX_CHARGE_AMOUNT must be an amount between 0\.01 and/.test(err.message),
      bad,
    )
  }
})
