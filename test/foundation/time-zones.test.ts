import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { Zone } from '../../src/lib/zone.ts'
import { REMINDER_LEAD_HOURS } from '../../src/modules/booking-core/index.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, createVenue, type TestUser } from '../helpers/factories.ts'
import { expireLapsedHolds, sendDueReminders } from '../helpers/sweeps.ts'

// The booking, availability, reminder and hold rules with APP_TIMEZONE set to a zone with daylight
// saving (Europe/London, across both 2027 transitions) and to Asia/Kathmandu around midnight. The
// app runs on a ManualClock far from the machine's date: a rule that reads the system clock, a
// global time zone or SQL's now() instead of ctx.clock and ctx.zone fails here.

const HOUR = 3_600_000
const HOLD_MINUTES = 15

interface Scene {
  app: App
  clock: ManualClock
  zone: Zone
  venueId: number
}

async function scene(timezone: string, start: string): Promise<Scene> {
  const clock = new ManualClock(start)
  const app = await build(undefined, { APP_TIMEZONE: timezone, BOOKING_HOLD_MINUTES: String(HOLD_MINUTES) }, { clock })
  const owner = await createUser(app, { roles: ['venue_owner'] })
  // Open 06:00–22:00 (venue-local), one-hour slots; a paid booking is refunded up to 24 h before.
  const venue = await createVenue(app, owner.id, { free_cancellation_hours: 24 })
  return { app, clock, zone: new Zone(timezone), venueId: venue.id }
}

const courtOf = async (s: Scene) => (await createCourt(s.app, s.venueId)).id
const customerOf = (s: Scene) => createUser(s.app, { wallet: 500000 })

async function grid(s: Scene, courtId: number, date: string) {
  const res = await s.app.inject({ url: `/api/courts/${courtId}/availability?date=${date}` })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().slots as { start_time: string; end_time: string; is_available: boolean }[]
}

function book(s: Scene, user: TestUser, courtId: number, date: string, start: string, end: string) {
  return s.app.inject({
    method: 'POST',
    url: '/api/bookings',
    headers: user.headers,
    payload: { court_id: courtId, date, start_time: start, end_time: end },
  })
}

async function booked(s: Scene, user: TestUser, courtId: number, date: string, start: string, end: string) {
  const res = await book(s, user, courtId, date, start, end)
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as {
    id: number
    date: string
    start_time: string
    end_time: string
    hold_expires_at: string | null
  }
}

async function payByWallet(s: Scene, user: TestUser, id: number) {
  const res = await s.app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: user.headers,
    payload: { booking_type: 'court', booking_id: id, method: 'wallet' },
  })
  assert.equal(res.statusCode, 200, res.body)
}

const row = (s: Scene, id: number) =>
  s.app.ctx.db
    .selectFrom('bookings')
    .select(['status', 'reminder_sent_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()

const HOURS = Array.from({ length: 16 }, (_, i) => `${String(6 + i).padStart(2, '0')}:00`)

const TRANSITIONS = [
  { name: 'spring forward', day: '2027-03-28', dayAfter: '2027-03-29' },
  { name: 'fall back', day: '2027-10-31', dayAfter: '2027-11-01' },
]

for (const t of TRANSITIONS) {
  describe(`Europe/London, ${t.name} (${t.day})`, () => {
    let s: Scene
    // 00:50 UTC: ten minutes before the clocks change at 01:00 UTC.
    const beforeChange = `${t.day}T00:50:00.000Z`
    before(async () => {
      s = await scene('Europe/London', beforeChange)
    })
    after(() => s.app.close())

    test('availability shows the wall-clock grid and marks past slots by the clock', async () => {
      const courtId = await courtOf(s)
      // 12:30 local on the transition day.
      s.clock.set(s.zone.instant(t.day, '12:30'))
      const slots = await grid(s, courtId, t.day)
      assert.deepEqual(
        slots.map((x) => x.start_time),
        HOURS,
      )
      assert.deepEqual(
        slots.filter((x) => !x.is_available).map((x) => x.start_time),
        ['06:00', '07:00', '08:00', '09:00', '10:00', '11:00', '12:00'],
        'the slots that started before 12:30 local',
      )
      assert.ok(
        (await grid(s, courtId, t.dayAfter)).every((x) => x.is_available),
        'tomorrow is all free',
      )
    })

    test('a booking at 19:00 on the transition day and the day after stays 19:00 on the wire', async () => {
      s.clock.set(beforeChange)
      const courtId = await courtOf(s)
      const customer = await customerOf(s)
      for (const date of [t.day, t.dayAfter]) {
        const b = await booked(s, customer, courtId, date, '19:00', '20:00')
        assert.deepEqual([b.date, b.start_time, b.end_time], [date, '19:00', '20:00'])
        const shown = await s.app.inject({ url: `/api/bookings/${b.id}`, headers: customer.headers })
        assert.equal(shown.statusCode, 200, shown.body)
        assert.deepEqual([shown.json().data.date, shown.json().data.start_time], [date, '19:00'])
        const taken = (await grid(s, courtId, date)).filter((x) => !x.is_available).map((x) => x.start_time)
        assert.deepEqual(taken, ['19:00'])
      }
    })

    test('a payment hold made at the clock time expires by the clock, not before', async () => {
      s.clock.set(beforeChange)
      const courtId = await courtOf(s)
      const customer = await customerOf(s)
      const b = await booked(s, customer, courtId, t.day, '10:00', '11:00')
      const until = new Date(Date.parse(beforeChange) + HOLD_MINUTES * 60_000)
      // The hold ends after the change: shown on the new wall clock.
      assert.equal(b.hold_expires_at, s.zone.format(until))
      s.clock.set(new Date(until.getTime() - 60_000))
      await expireLapsedHolds(s.app)
      assert.equal((await row(s, b.id)).status, 'pending', 'a minute before the hold ends')
      s.clock.set(new Date(until.getTime() + 60_000))
      await expireLapsedHolds(s.app)
      assert.equal((await row(s, b.id)).status, 'cancelled', 'a minute after the hold ended')
    })

    test(`a reminder is due ${REMINDER_LEAD_HOURS} hours before the venue-local start, by the clock`, async () => {
      const start = s.zone.instant(t.day, '19:00').getTime()
      s.clock.set(new Date(start - 30 * HOUR))
      const courtId = await courtOf(s)
      const customer = await customerOf(s)
      const b = await booked(s, customer, courtId, t.day, '19:00', '20:00')
      await payByWallet(s, customer, b.id)
      assert.equal((await row(s, b.id)).status, 'confirmed')
      s.clock.set(new Date(start - REMINDER_LEAD_HOURS * HOUR - 60_000))
      await sendDueReminders(s.app)
      assert.equal((await row(s, b.id)).reminder_sent_at, null, 'a minute before it is due')
      s.clock.set(new Date(start - REMINDER_LEAD_HOURS * HOUR + 60_000))
      await sendDueReminders(s.app)
      assert.notEqual((await row(s, b.id)).reminder_sent_at, null, 'a minute after it is due')
    })

    test('free-cancellation hours count real elapsed hours across the change', async () => {
      // 24.5 and 23.5 real hours before 19:00 on the transition day; counted on the wall clock
      // they would be an hour more (spring) or less (autumn).
      const start = s.zone.instant(t.day, '19:00').getTime()
      s.clock.set(new Date(start - 30 * HOUR))
      const courtId = await courtOf(s)
      const customer = await customerOf(s)
      const b = await booked(s, customer, courtId, t.day, '19:00', '20:00')
      await payByWallet(s, customer, b.id)
      const preview = async () => {
        const res = await s.app.inject({ url: `/api/bookings/${b.id}/cancellation`, headers: customer.headers })
        assert.equal(res.statusCode, 200, res.body)
        return res.json().data as { cancellable: boolean; refund_amount: string; reason: string }
      }
      s.clock.set(new Date(start - 24.5 * HOUR))
      const early = await preview()
      assert.equal(early.refund_amount, '1500.00', early.reason)
      s.clock.set(new Date(start - 23.5 * HOUR))
      const late = await preview()
      assert.deepEqual([late.refund_amount, late.reason], ['0.00', 'No refund: less than 24 hours before the start.'])
    })
  })
}

describe('Asia/Kathmandu around midnight (23:59 is 18:14 UTC, 00:01 is 18:16 UTC)', () => {
  let s: Scene
  const lastMinute = '2027-03-27T18:14:00.000Z'
  const firstMinute = '2027-03-27T18:16:00.000Z'
  before(async () => {
    s = await scene('Asia/Kathmandu', lastMinute)
  })
  after(() => s.app.close())

  test('at 23:59 today is still the 27th and every slot of it has started', async () => {
    s.clock.set(lastMinute)
    const courtId = await courtOf(s)
    const slots = await grid(s, courtId, '2027-03-27')
    assert.deepEqual(
      slots.map((x) => x.start_time),
      HOURS,
    )
    assert.ok(
      slots.every((x) => !x.is_available),
      'every slot of the 27th has started',
    )
    assert.ok((await grid(s, courtId, '2027-03-28')).every((x) => x.is_available))
  })

  test('at 00:01 the 27th is in the past and the 28th is today, all free', async () => {
    s.clock.set(firstMinute)
    const courtId = await courtOf(s)
    const res = await s.app.inject({ url: `/api/courts/${courtId}/availability?date=2027-03-27` })
    assert.equal(res.statusCode, 422, res.body)
    assert.ok((await grid(s, courtId, '2027-03-28')).every((x) => x.is_available))
  })

  test('bookings: a started slot at 23:59 and yesterday at 00:01 are refused, tomorrow morning is not', async () => {
    const courtId = await courtOf(s)
    const customer = await customerOf(s)
    s.clock.set(lastMinute)
    const started = await book(s, customer, courtId, '2027-03-27', '21:00', '22:00')
    assert.equal(started.statusCode, 422, started.body)
    assert.ok(started.json().errors.start_time, 'the start time is in the past')
    await booked(s, customer, courtId, '2027-03-28', '06:00', '07:00')
    s.clock.set(firstMinute)
    const yesterday = await book(s, customer, courtId, '2027-03-27', '21:00', '22:00')
    assert.equal(yesterday.statusCode, 422, yesterday.body)
    assert.ok(yesterday.json().errors.date, 'the date is before today')
    await booked(s, customer, courtId, '2027-03-28', '07:00', '08:00')
  })
})
