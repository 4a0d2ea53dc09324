import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, FIXED_NOW } from '../helpers/factories.ts'
import { book, fixedSlot, world } from './helpers.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('20 concurrent bookings of one slot: exactly one 201, nineteen 409', async () => {
  const w = await world(app)
  const users = await Promise.all(Array.from({ length: 20 }, () => createUser(app)))
  const results = await Promise.all(users.map((u) => book(app, u, fixedSlot(w.court.id, 3, '17:00', '18:00'))))
  const codes = results.map((r) => r.statusCode)
  assert.equal(codes.filter((c) => c === 201).length, 1, codes.join(','))
  assert.equal(codes.filter((c) => c === 409).length, 19, codes.join(','))
  for (const r of results.filter((x) => x.statusCode === 409)) {
    assert.deepEqual(r.json(), { message: 'The court is not available for the selected time slot.' })
  }
  const rows = await app.ctx.db.selectFrom('bookings').select('status').where('court_id', '=', w.court.id).execute()
  assert.deepEqual(rows, [{ status: 'pending' }])
})

test('20 concurrent overlapping-but-different ranges: the accepted ones never overlap', async () => {
  const w = await world(app)
  const users = await Promise.all(Array.from({ length: 20 }, () => createUser(app)))
  const ranges = users.map((_, i) => {
    const start = 8 + (i % 10)
    return [start, start + 1 + (i % 3)] as const
  })
  const results = await Promise.all(
    users.map((u, i) =>
      book(
        app,
        u,
        fixedSlot(
          w.court.id,
          4,
          `${String(ranges[i][0]).padStart(2, '0')}:00`,
          `${String(ranges[i][1]).padStart(2, '0')}:00`,
        ),
      ),
    ),
  )
  for (const r of results) assert.ok([201, 409].includes(r.statusCode), r.body)
  const rows = await app.ctx.db
    .selectFrom('bookings')
    .select(['start_time', 'end_time'])
    .where('court_id', '=', w.court.id)
    .orderBy('start_time')
    .execute()
  assert.equal(rows.length, results.filter((r) => r.statusCode === 201).length)
  assert.ok(rows.length >= 1)
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].end_time <= rows[i].start_time, JSON.stringify(rows))
})

test('booking numbers stay unique under concurrency', async () => {
  const w = await world(app)
  const courts = await Promise.all(Array.from({ length: 4 }, () => createCourt(app, w.venue.id)))
  // One customer each: a customer holds at most MAX_UNPAID_BOOKINGS unpaid bookings, and their own
  // requests take their turn on the customer's lock (docs/bookings.md, "Unpaid bookings and series").
  const users = await Promise.all(Array.from({ length: 25 }, () => createUser(app)))
  const attempts = courts.flatMap((c, i) =>
    [8, 9, 10, 11, 12].map((h, j) =>
      book(
        app,
        users[i * 5 + j],
        fixedSlot(c.id, 5, `${String(h).padStart(2, '0')}:00`, `${String(h + 1).padStart(2, '0')}:00`),
      ),
    ),
  )
  // Plus five that lose the race for a taken slot (a lost race may burn a number: docs/bookings.md).
  attempts.push(...users.slice(20).map((u) => book(app, u, fixedSlot(courts[0].id, 5, '08:00', '09:00'))))
  const results = await Promise.all(attempts)
  const created = results.filter((r) => r.statusCode === 201).map((r) => r.json().data)
  assert.equal(created.length, 20)
  assert.equal(results.filter((r) => r.statusCode === 409).length, 5)
  assert.equal(new Set(created.map((b) => b.booking_number)).size, 20)
  for (const b of created) assert.match(b.booking_number, /^BK-\d{4}-\d{6,}$/)
})
