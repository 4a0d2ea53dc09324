import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { notificationsOf, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'

// Issue 32: a maintenance block is never laid silently over live bookings (docs/bookings.md,
// "Maintenance blocks"). On a ManualClock: Wednesday 10 March 2027, 18:05 in Kathmandu.

const DAY = '2027-03-12'

test('a block over live bookings is 409 naming them; cancel_bookings (owner, manager) cancels them with refunds and the reason', async (t) => {
  const clock = new ManualClock('2027-03-10T12:20:00Z')
  const app = await build(t, { MAX_UNPAID_BOOKINGS: '100' }, { clock })
  const w = await world(app, { wallet: 300_000 })
  const other = await createUser(app)
  const inject = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
    app.inject({ method, url, headers, payload })
  const slot = (start: string, end: string, extra: object = {}) => ({
    court_id: w.court.id,
    date: DAY,
    start_time: start,
    end_time: end,
    ...extra,
  })

  // 10–11 paid from the wallet (confirmed); 11–12 a desk booking paid in cash; 12–13 pending cash.
  const online = await inject('POST', '/api/bookings', w.customer.headers, slot('10:00', '11:00'))
  assert.equal(online.statusCode, 201, online.body)
  const paid = await inject('POST', '/api/payments/initiate', w.customer.headers, {
    booking_id: online.json().data.id,
    method: 'wallet',
  })
  assert.equal(paid.statusCode, 200, paid.body)
  const desk = await inject('POST', `/api/venues/${w.venue.id}/bookings`, w.staff.headers, {
    ...slot('11:00', '12:00'),
    customer_name: 'Desk Customer',
  })
  assert.equal(desk.statusCode, 201, desk.body)
  const cash = await inject('POST', `/api/bookings/${desk.json().data.id}/payments`, w.staff.headers, {
    amount: '1500.00',
    method: 'cash',
  })
  assert.equal(cash.statusCode, 201, cash.body)
  const pending = await inject(
    'POST',
    '/api/bookings',
    other.headers,
    slot('12:00', '13:00', { payment_method: 'cash' }),
  )
  assert.equal(pending.statusCode, 201, pending.body)
  // 13–14 an online hold that lapses: not live, not in the way.
  const lapsed = await inject('POST', '/api/bookings', other.headers, slot('13:00', '14:00'))
  assert.equal(lapsed.statusCode, 201, lapsed.body)
  // Someone waits for 10–11.
  const waiting = await inject('POST', '/api/waitlist', other.headers, slot('10:00', '11:00'))
  assert.equal(waiting.statusCode, 201, waiting.body)
  clock.advance(20 * 60_000)

  const numbers = [online, desk, pending].map((r) => r.json().data.booking_number as string)
  const block = { date: DAY, start_time: '10:00', end_time: '14:00', reason: 'Floor repair' }
  const url = `/api/courts/${w.court.id}/blocks`

  const refused = await inject('POST', url, w.staff.headers, block)
  assert.equal(refused.statusCode, 409, refused.body)
  assert.deepEqual(refused.json().errors.bookings, numbers)
  for (const n of numbers) assert.ok(refused.json().message.includes(n), refused.body)
  // Staff may add blocks, not cancel customers' bookings with them.
  assert.equal((await inject('POST', url, w.staff.headers, { ...block, cancel_bookings: true })).statusCode, 403)
  // Nothing changed.
  const blocks = await app.ctx.db.selectFrom('court_blocks').select('id').execute()
  assert.equal(blocks.length, 0)

  // A block beside them is accepted as before.
  const beside = await inject('POST', url, w.staff.headers, { date: DAY, start_time: '15:00', end_time: '16:00' })
  assert.equal(beside.statusCode, 201, beside.body)
  assert.equal(beside.json().cancelled_bookings, undefined)

  const done = await inject('POST', url, w.manager.headers, { ...block, cancel_bookings: true })
  assert.equal(done.statusCode, 201, done.body)
  assert.equal(done.json().data.reason, 'Floor repair')
  assert.deepEqual(
    done
      .json()
      .cancelled_bookings.map((c: { booking_number: string; refund_amount: string }) => [
        c.booking_number,
        c.refund_amount,
      ]),
    [
      [numbers[0], '1500.00'],
      [numbers[1], '1500.00'],
      [numbers[2], '0.00'],
    ],
  )
  const rows = await app.ctx.db
    .selectFrom('bookings')
    .select(['booking_number', 'status', 'cancel_reason'])
    .where('booking_number', 'in', numbers)
    .orderBy('id')
    .execute()
  for (const r of rows) {
    assert.equal(r.status, 'cancelled')
    assert.equal(r.cancel_reason, 'Maintenance: Floor repair')
  }
  // Online money back to the wallet, desk money as a cash-back due at the desk.
  const customer = await app.ctx.db
    .selectFrom('users')
    .select('wallet_balance')
    .where('id', '=', w.customer.id)
    .executeTakeFirstOrThrow()
  assert.equal(Number(customer.wallet_balance), 300_000)
  const due = await inject('GET', `/api/venues/${w.venue.id}/cash-backs`, w.staff.headers)
  assert.equal(due.statusCode, 200, due.body)
  assert.deepEqual(
    due.json().data.map((c: { amount: string; booking_id: number }) => [c.booking_id, c.amount]),
    [[desk.json().data.id, '1500.00']],
  )
  // The customer is told why.
  const told = (await notificationsOf(app, w.customer.id)).filter((n) => n.type === 'BookingCancelled')
  assert.equal(told.length, 1)
  assert.match(
    String(told[0].data.message),
    /was cancelled\. The court is closed for maintenance \(10:00–14:00\): Floor repair\./,
  )
  assert.match(String(told[0].data.message), /refunded to your wallet/)
  // The freed slot is not offered to the waitlist: the block holds it.
  const entry = await app.ctx.db.selectFrom('waitlist_entries').select('status').executeTakeFirstOrThrow()
  assert.equal(entry.status, 'waiting')
  const rebook = await inject('POST', '/api/bookings', other.headers, slot('10:00', '11:00'))
  assert.equal(rebook.statusCode, 409, rebook.body)
})

test('a block over a booking being played is refused even with cancel_bookings', async (t) => {
  const clock = new ManualClock('2027-03-10T12:20:00Z')
  const app = await build(t, {}, { clock })
  const w = await world(app)
  const desk = await app.inject({
    method: 'POST',
    url: `/api/venues/${w.venue.id}/bookings`,
    headers: w.staff.headers,
    payload: { court_id: w.court.id, date: '2027-03-10', start_time: '18:00', end_time: '19:00', customer_name: 'Now' },
  })
  assert.equal(desk.statusCode, 201, desk.body)
  const id = desk.json().data.id
  await app.inject({
    method: 'POST',
    url: `/api/bookings/${id}/payments`,
    headers: w.staff.headers,
    payload: { amount: '1500.00' },
  })
  const playing = await app.inject({
    method: 'PATCH',
    url: `/api/bookings/${id}/status`,
    headers: w.staff.headers,
    payload: { status: 'playing' },
  })
  assert.equal(playing.statusCode, 200, playing.body)
  const res = await app.inject({
    method: 'POST',
    url: `/api/courts/${w.court.id}/blocks`,
    headers: w.owner.headers,
    payload: { date: '2027-03-10', start_time: '18:00', end_time: '20:00', cancel_bookings: true },
  })
  assert.equal(res.statusCode, 409, res.body)
  assert.match(res.json().message, /being played/)
  assert.deepEqual(res.json().errors.bookings, [desk.json().data.booking_number])
})
