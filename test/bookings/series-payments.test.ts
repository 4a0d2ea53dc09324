import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { expireLapsedHolds, runSeriesPayments } from '../helpers/sweeps.ts'
import { join, liveBookingsOf, mine } from '../waitlist/helpers.ts'
import { notificationsOf, world } from './helpers.ts'
import { createSeries } from './series-helpers.ts'

// A customer's series is paid week by week: every week after the first must be paid
// SERIES_PAY_BEFORE_HOURS (48) before it starts, or it is released (cancelled, and offered to the
// waitlist); a day before that deadline the customer is told once (SeriesPaymentDue). Staff-made
// series are exempt. Every instant here is on the app's ManualClock.

let app: App
// Monday 1 March 2027, 10:00 in Kathmandu.
const START = '2027-03-01T04:15:00Z'
const clock = new ManualClock(START)
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

const RELEASED = 'Not paid 48 hours before the start: this week of the series was released.'
/** A venue-local wall-clock time as the instant it is. */
const at = (date: string, time: string) => app.ctx.zone.instant(date, time)

async function statusOf(id: number) {
  return app.ctx.db
    .selectFrom('bookings')
    .select(['status', 'cancel_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

test('an unpaid later week is announced a day before its deadline, once, then released and offered to the waitlist', async () => {
  clock.set(START)
  const w = await world(app, { wallet: 10_000_000 })
  // Wednesdays 3, 10, 17 and 24 March, 19:00–20:00, to be paid at the venue.
  const res = await createSeries(app, w.customer, {
    court_id: w.court.id,
    start_date: '2027-03-03',
    weeks: 4,
    start_time: '19:00',
    end_time: '20:00',
    payment_method: 'cash',
  })
  assert.equal(res.statusCode, 201, res.body)
  const [week1, week2, week3, week4] = res.json().data.occurrences as { id: number; booking_number: string }[]
  // A later week shows the deadline it is released at as its hold ("Pay by" 8 March 19:00), the
  // first week the start it is held until (cash).
  const shown = await app.inject({ method: 'GET', url: `/api/bookings/${week2.id}`, headers: w.customer.headers })
  assert.equal(shown.json().data.hold_expires_at, '2027-03-08 19:00:00')
  const first = await app.inject({ method: 'GET', url: `/api/bookings/${week1.id}`, headers: w.customer.headers })
  assert.equal(first.json().data.hold_expires_at, '2027-03-03 19:00:00')
  const listed = await app.inject({ method: 'GET', url: '/api/bookings', headers: w.customer.headers })
  const later = (listed.json().data as { id: number; hold_expires_at: string }[]).find((b) => b.id === week4.id)
  assert.equal(later?.hold_expires_at, '2027-03-22 19:00:00')
  // Someone waits for week 2's slot; week 3 is paid at once.
  const waiter = await createUser(app)
  const joined = await join(app, waiter, {
    court_id: w.court.id,
    date: '2027-03-10',
    start_time: '19:00',
    end_time: '20:00',
  })
  assert.equal(joined.statusCode, 201, joined.body)
  const paid = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_id: week3.id, method: 'wallet' },
  })
  assert.equal(paid.statusCode, 200, paid.body)

  // Week 2 starts on 10 March at 19:00: it must be paid by 8 March 19:00, and is announced from 7 March 19:00.
  clock.set(new Date(at('2027-03-07', '19:00').getTime() - 60_000))
  assert.deepEqual(await runSeriesPayments(app), { reminded: 0, released: 0 })
  clock.set(at('2027-03-07', '19:00'))
  // Two instances running the sweep at once send it once.
  const [r1, r2] = await Promise.all([runSeriesPayments(app), runSeriesPayments(app)])
  assert.equal(r1.reminded + r2.reminded, 1)
  assert.equal(r1.released + r2.released, 0)
  assert.deepEqual(await runSeriesPayments(app), { reminded: 0, released: 0 })
  const due = (await notificationsOf(app, w.customer.id)).filter((n) => n.type === 'SeriesPaymentDue')
  assert.equal(due.length, 1)
  assert.equal(due[0].data.booking_id, week2.id)
  assert.equal(due[0].data.booking_number, week2.booking_number)
  assert.equal(due[0].data.pay_by, '2027-03-08 19:00')
  assert.equal(
    due[0].data.message,
    `Your booking ${week2.booking_number} on 2027-03-10 at 19:00 (a weekly series) is not paid yet. ` +
      'Pay for it by 2027-03-08 19:00 or it will be released.',
  )

  // A minute before the deadline nothing is released.
  clock.set(new Date(at('2027-03-08', '19:00').getTime() - 60_000))
  assert.deepEqual(await runSeriesPayments(app), { reminded: 0, released: 0 })
  assert.equal((await statusOf(week2.id)).status, 'pending')

  // At the deadline it is released, once, even with two sweeps at the same moment.
  clock.set(at('2027-03-08', '19:00'))
  const [s1, s2] = await Promise.all([runSeriesPayments(app), runSeriesPayments(app)])
  assert.equal(s1.released + s2.released, 1)
  assert.deepEqual(await statusOf(week2.id), { status: 'cancelled', cancel_reason: RELEASED })
  const cancelled = (await notificationsOf(app, w.customer.id)).find(
    (n) => n.type === 'BookingCancelled' && n.data.booking_id === week2.id,
  )
  assert.ok(cancelled, 'BookingCancelled sent')
  assert.equal(cancelled.data.cancel_reason, RELEASED)
  // The freed slot went to the waitlist in the same transaction.
  const [offer] = await liveBookingsOf(app, waiter.id, w.court.id)
  assert.ok(offer, 'the waiting customer holds an offer')
  assert.equal(offer.date, '2027-03-10')
  assert.equal(offer.start_time, '19:00:00')
  assert.equal(offer.status, 'pending')
  assert.equal((await mine(app, waiter))[0].status, 'offered')
  assert.ok((await notificationsOf(app, waiter.id)).some((n) => n.type === 'WaitlistOffer'))
  // The paid week and the first week are not this sweep's (the first is held until its start).
  assert.equal((await statusOf(week3.id)).status, 'confirmed')
  assert.equal((await statusOf(week1.id)).status, 'pending')
  assert.equal((await statusOf(week4.id)).status, 'pending')

  // Week 4 (24 March): its reminder window passes unseen (the job was down), its deadline is 22 March.
  clock.set(at('2027-03-22', '19:00'))
  assert.deepEqual(await runSeriesPayments(app), { reminded: 0, released: 1 })
  assert.deepEqual(await statusOf(week4.id), { status: 'cancelled', cancel_reason: RELEASED })
  assert.equal((await statusOf(week3.id)).status, 'confirmed')
  // The hold sweep still owns the first week: held until its start (cash), long past.
  await expireLapsedHolds(app)
  assert.deepEqual(await statusOf(week1.id), { status: 'cancelled', cancel_reason: 'Payment not received' })
})

test('a series staff made for a customer at the desk is never released or announced', async () => {
  clock.set(START)
  const w = await world(app)
  const res = await app.inject({
    method: 'POST',
    url: `/api/venues/${w.venue.id}/bookings/series`,
    headers: w.staff.headers,
    payload: {
      court_id: w.court.id,
      start_date: '2027-03-04',
      weeks: 3,
      start_time: '07:00',
      end_time: '08:00',
      customer_name: 'League team',
    },
  })
  assert.equal(res.statusCode, 201, res.body)
  const weeks = res.json().data.occurrences as { id: number }[]
  clock.set(at('2027-03-17', '07:00'))
  await runSeriesPayments(app)
  for (const week of weeks.slice(1)) assert.equal((await statusOf(week.id)).status, 'pending')
})

test('SERIES_PAY_BEFORE_HOURS sets the deadline: at its largest, 144 h, a week is due 6 days ahead', async () => {
  clock.set(START)
  const strict = await build(undefined, { SERIES_PAY_BEFORE_HOURS: '144' }, { clock })
  try {
    const w = await world(strict)
    const res = await createSeries(strict, w.customer, {
      court_id: w.court.id,
      start_date: '2027-03-01',
      weeks: 2,
      start_time: '20:00',
      end_time: '21:00',
    })
    assert.equal(res.statusCode, 201, res.body)
    const week2 = res.json().data.occurrences[1] as { id: number }
    // Week 2 (8 March 20:00) is due by 2 March 20:00 and announced from 1 March 20:00.
    assert.deepEqual(await runSeriesPayments(strict), { reminded: 0, released: 0 })
    clock.set(strict.ctx.zone.instant('2027-03-01', '20:00'))
    assert.deepEqual(await runSeriesPayments(strict), { reminded: 1, released: 0 })
    const note = (await notificationsOf(strict, w.customer.id)).find((n) => n.type === 'SeriesPaymentDue')
    assert.equal(note?.data.pay_by, '2027-03-02 20:00')
    clock.set(strict.ctx.zone.instant('2027-03-02', '20:00'))
    assert.deepEqual(await runSeriesPayments(strict), { reminded: 0, released: 1 })
    const row = await strict.ctx.db
      .selectFrom('bookings')
      .select(['status', 'cancel_reason'])
      .where('id', '=', week2.id)
      .executeTakeFirstOrThrow()
    assert.deepEqual(row, {
      status: 'cancelled',
      cancel_reason: 'Not paid 144 hours before the start: this week of the series was released.',
    })
  } finally {
    await strict.close()
  }
})
