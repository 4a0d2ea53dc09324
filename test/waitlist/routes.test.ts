import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { join, mine } from './helpers.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('join a taken slot: 201 waiting with a place in line; one entry per user and slot (409)', async () => {
  const w = await world(app)
  const holder = await createUser(app)
  assert.equal((await book(app, holder, fixedSlot(w.court.id, 3, '18:00', '20:00'))).statusCode, 201)
  const a = await createUser(app)
  const b = await createUser(app)
  const res = await join(app, a, fixedSlot(w.court.id, 3, '18:00', '19:00'))
  assert.equal(res.statusCode, 201, res.body)
  const entry = res.json().data
  assert.deepEqual(
    { ...entry, id: 0, created_at: '' },
    {
      id: 0,
      court_id: w.court.id,
      date: daysFromFixedNow(3),
      start_time: '18:00',
      end_time: '19:00',
      status: 'waiting',
      position: 1,
      offer: null,
      created_at: '',
    },
  )
  // B waits for an overlapping range: second in line.
  const second = await join(app, b, fixedSlot(w.court.id, 3, '18:00', '20:00'))
  assert.equal(second.statusCode, 201, second.body)
  assert.equal(second.json().data.position, 2)
  const again = await join(app, a, fixedSlot(w.court.id, 3, '18:00', '19:00'))
  assert.equal(again.statusCode, 409)
  assert.deepEqual(again.json(), { message: 'You are already on the waitlist for this slot.' })
  // GET lists mine only.
  const list = await mine(app, a)
  assert.deepEqual(
    list.map((e) => [e.id, e.status, e.position]),
    [[entry.id, 'waiting', 1]],
  )
  // Staff see the waiting count per slot on the venue booking list.
  const venueList = await app.inject({ url: `/api/venues/${w.venue.id}/bookings`, headers: w.staff.headers })
  assert.equal(venueList.statusCode, 200, venueList.body)
  const held = venueList.json().data.find((x: { user_id: number }) => x.user_id === holder.id)
  assert.equal(held.waitlist_count, 2)
})

test('a free slot is 422 (book it instead); validation errors are 422; no token 401', async () => {
  const w = await world(app)
  const a = await createUser(app)
  const free = await join(app, a, fixedSlot(w.court.id, 3, '10:00', '11:00'))
  assert.equal(free.statusCode, 422)
  assert.deepEqual(free.json(), { message: 'This slot is free: book it instead.' })
  const missing = await join(app, a, {})
  assert.equal(missing.statusCode, 422)
  for (const f of ['court_id', 'date', 'start_time', 'end_time']) assert.ok(missing.json().errors[f], f)
  const cases: [Record<string, unknown>, string][] = [
    [fixedSlot(w.court.id, 3, '11:00', '10:00'), 'end_time'],
    [fixedSlot(w.court.id, -2, '10:00', '11:00'), 'date'],
    [fixedSlot(999999, 3, '10:00', '11:00'), 'court_id'],
    [{ ...fixedSlot(w.court.id, 3), date: '2027-02-30' }, 'date'],
    [{ ...fixedSlot(w.court.id, 3), start_time: '9am' }, 'start_time'],
  ]
  for (const [payload, field] of cases) {
    const res = await join(app, a, payload)
    assert.equal(res.statusCode, 422, `${JSON.stringify(payload)} ${res.body}`)
    assert.ok(res.json().errors?.[field], `${field}: ${res.body}`)
  }
  // Outside opening hours: the booking quote's 409.
  const closed = await join(app, a, fixedSlot(w.court.id, 3, '04:00', '05:00'))
  assert.equal(closed.statusCode, 409)
  assert.equal((await join(app, undefined, fixedSlot(w.court.id, 3))).statusCode, 401)
  assert.equal((await app.inject({ url: '/api/waitlist' })).statusCode, 401)
  const rows = await app.ctx.db.selectFrom('waitlist_entries').select('id').where('user_id', '=', a.id).execute()
  assert.deepEqual(rows, [])
})

test('leave: owner only (403 others, 404 unknown); afterwards the slot can be joined again', async () => {
  const w = await world(app)
  const holder = await createUser(app)
  assert.equal((await book(app, holder, fixedSlot(w.court.id, 4, '07:00', '08:00'))).statusCode, 201)
  const a = await createUser(app)
  const stranger = await createUser(app)
  const id = (await join(app, a, fixedSlot(w.court.id, 4, '07:00', '08:00'))).json().data.id
  const url = `/api/waitlist/${id}`
  assert.equal((await app.inject({ method: 'DELETE', url, headers: stranger.headers })).statusCode, 403)
  assert.equal(
    (await app.inject({ method: 'DELETE', url: '/api/waitlist/999999', headers: a.headers })).statusCode,
    404,
  )
  assert.equal((await app.inject({ method: 'DELETE', url: '/api/waitlist/x', headers: a.headers })).statusCode, 404)
  assert.equal((await app.inject({ method: 'DELETE', url })).statusCode, 401)
  const left = await app.inject({ method: 'DELETE', url, headers: a.headers })
  assert.equal(left.statusCode, 200, left.body)
  assert.deepEqual(left.json(), { message: 'You left the waitlist.' })
  assert.deepEqual(await mine(app, a), [])
  assert.equal((await join(app, a, fixedSlot(w.court.id, 4, '07:00', '08:00'))).statusCode, 201)
})

test('at most MAX_WAITLIST_ENTRIES (5) waitlists per customer, even joined at once; leaving one frees a place', async () => {
  const w = await world(app)
  // Seven hours of one day taken at the desk (staff bookings are not held against any cap).
  const hours = ['08', '09', '10', '11', '12', '13', '14']
  for (const h of hours) {
    const slot = fixedSlot(w.court.id, 5, `${h}:00`, `${String(Number(h) + 1).padStart(2, '0')}:00`)
    const res = await app.inject({
      method: 'POST',
      url: `/api/venues/${w.venue.id}/bookings`,
      headers: w.staff.headers,
      payload: { ...slot, type: 'walkin', customer_name: 'Walk-in' },
    })
    assert.equal(res.statusCode, 201, res.body)
  }
  const a = await createUser(app)
  const slotAt = (h: string) => fixedSlot(w.court.id, 5, `${h}:00`, `${String(Number(h) + 1).padStart(2, '0')}:00`)
  for (const h of hours.slice(0, 4)) assert.equal((await join(app, a, slotAt(h))).statusCode, 201, h)
  // The fifth and sixth at once: one of them fits.
  const [x, y] = await Promise.all([join(app, a, slotAt(hours[4])), join(app, a, slotAt(hours[5]))])
  assert.deepEqual([x.statusCode, y.statusCode].sort(), [201, 422])
  const refused = await join(app, a, slotAt(hours[6]))
  assert.equal(refused.statusCode, 422)
  assert.deepEqual(refused.json(), {
    message: 'You may wait for at most 5 slots at a time. Leave a waitlist to join another.',
  })
  assert.equal((await mine(app, a)).length, 5)
  const first = (await mine(app, a))[0]
  const left = await app.inject({ method: 'DELETE', url: `/api/waitlist/${first.id}`, headers: a.headers })
  assert.equal(left.statusCode, 200)
  assert.equal((await join(app, a, slotAt(hours[6]))).statusCode, 201)
})
