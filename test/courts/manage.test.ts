import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import {
  assignStaff,
  createCourt,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
  type TestUser,
} from '../helpers/factories.ts'
import { payInsertedBookings } from '../helpers/ledger.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

async function team() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const manager = await createUser(app, { roles: ['manager'] })
  const staff = await createUser(app, { roles: ['staff'] })
  const venue = await createVenue(app, owner.id)
  await assignStaff(app, venue.id, manager.id, 'manager')
  await assignStaff(app, venue.id, staff.id, 'staff')
  return { owner, manager, staff, venue }
}

const send = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET', url: string, who?: TestUser, payload?: object) =>
  app.inject({ method, url, headers: who?.headers, payload })

test('GET /venues/{venue}/courts lists the active courts with sport, price_per_hour and starting_price', async () => {
  const { owner, venue } = await team()
  const a = await createCourt(app, venue.id, { name: 'A', price_per_hour: 150000 })
  await createCourt(app, venue.id, { name: 'Off', is_active: false })
  const res = await send('GET', `/api/venues/${venue.id}/courts`)
  assert.equal(res.statusCode, 200)
  const data = res.json().data
  assert.equal(data.length, 1)
  assert.equal(data[0].id, a.id)
  assert.equal(data[0].venue_id, venue.id)
  assert.equal(data[0].name, 'A')
  assert.equal(data[0].type, 'futsal')
  assert.deepEqual(data[0].sport, {
    id: 1,
    name: 'Futsal',
    name_ne: 'फुटसल',
    slug: 'futsal',
    key: 'futsal',
    label: 'Futsal',
  })
  assert.equal(data[0].price_per_hour, '1500.00')
  assert.equal(data[0].starting_price, 1500)
  assert.equal(data[0].capacity, 10)
  assert.equal(data[0].slot_minutes, 60)
  assert.equal(data[0].is_active, true)
  assert.equal(data[0].description, null)
  assert.match(data[0].created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)

  // An off-peak rule lowers starting_price; holiday rules do not count.
  await send('POST', `/api/courts/${a.id}/pricing`, owner, {
    type: 'off_peak',
    start_time: '06:00',
    end_time: '09:00',
    price_per_hour: 1000,
  })
  await send('POST', `/api/courts/${a.id}/pricing`, owner, {
    type: 'holiday',
    start_time: '06:00',
    end_time: '22:00',
    price_per_hour: 500,
  })
  const again = (await send('GET', `/api/venues/${venue.id}/courts`)).json().data[0]
  assert.equal(again.starting_price, 1000)
  assert.equal(again.price_per_hour, '1500.00')

  // Hidden venues: 404 to the public, visible to their people; unknown ids 404.
  const hidden = await createVenue(app, owner.id, { verification_status: 'pending' })
  await createCourt(app, hidden.id)
  assert.equal((await send('GET', `/api/venues/${hidden.id}/courts`)).statusCode, 404)
  assert.equal((await send('GET', `/api/venues/${hidden.id}/courts`, owner)).json().data.length, 1)
  assert.equal((await send('GET', '/api/venues/999999/courts')).statusCode, 404)
})

test('owner and manager create, update and delete courts; staff, strangers and guests cannot', async () => {
  const { owner, manager, staff, venue } = await team()
  const body = {
    name: ' Court One ',
    sport_id: 4,
    description: 'Wooden floor',
    capacity: 10,
    slot_minutes: 90,
    price_per_hour: '1200.50',
  }
  let res = await send('POST', `/api/venues/${venue.id}/courts`, owner, body)
  assert.equal(res.statusCode, 201)
  const court = res.json().data
  assert.equal(court.name, 'Court One')
  assert.equal(court.type, 'basketball')
  assert.equal(court.sport.key, 'basketball')
  assert.equal(court.price_per_hour, '1200.50')
  assert.equal(court.slot_minutes, 90)
  assert.equal(court.is_active, true)
  assert.deepEqual(court.schedules, [])
  assert.deepEqual(court.pricing, [])

  res = await send('POST', `/api/venues/${venue.slug}/courts`, manager, {
    name: 'Two',
    type: 'cricket',
    price_per_hour: 900,
  })
  assert.equal(res.statusCode, 201)
  assert.equal(res.json().data.sport, null)
  assert.equal(res.json().data.type, 'cricket')

  const { owner: stranger } = await team()
  for (const who of [staff, stranger, await createUser(app)]) {
    assert.equal((await send('POST', `/api/venues/${venue.id}/courts`, who, body)).statusCode, 403)
    assert.equal((await send('PUT', `/api/courts/${court.id}`, who, { name: 'X' })).statusCode, 403)
    assert.equal((await send('DELETE', `/api/courts/${court.id}`, who)).statusCode, 403)
  }
  assert.equal((await send('POST', `/api/venues/${venue.id}/courts`, undefined, body)).statusCode, 401)
  assert.equal((await send('POST', '/api/venues/999999/courts', owner, body)).statusCode, 404)

  res = await send('PATCH', `/api/courts/${court.id}`, manager, { price_per_hour: 1500, is_active: false })
  assert.equal(res.statusCode, 200)
  assert.equal(res.json().data.price_per_hour, '1500.00')
  assert.equal(res.json().data.is_active, false)
  assert.equal(res.json().data.name, 'Court One')
  // An inactive court is hidden from the public but not from its venue's people.
  assert.equal((await send('GET', `/api/courts/${court.id}`)).statusCode, 404)
  assert.equal((await send('GET', `/api/courts/${court.id}`, staff)).statusCode, 200)
  res = await send('PUT', `/api/courts/${court.id}`, owner, { is_active: true, name: 'Renamed' })
  assert.equal(res.json().data.name, 'Renamed')
  assert.equal((await send('GET', `/api/courts/${court.id}`)).json().data.name, 'Renamed')

  res = await send('DELETE', `/api/courts/${court.id}`, manager)
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { message: 'Court deleted.' })
  assert.equal((await send('GET', `/api/courts/${court.id}`)).statusCode, 404)
  assert.equal((await send('DELETE', `/api/courts/${court.id}`, owner)).statusCode, 404)
  assert.equal((await send('GET', '/api/courts/abc')).statusCode, 404)
})

test('court validation: name, price, slot_minutes, sport_id and a type are checked (422)', async () => {
  const { owner, venue } = await team()
  const url = `/api/venues/${venue.id}/courts`
  let res = await send('POST', url, owner, {})
  assert.equal(res.statusCode, 422)
  assert.equal(res.json().message, 'The given data was invalid.')
  assert.ok(res.json().errors.name && res.json().errors.price_per_hour)
  for (const bad of [
    { slot_minutes: 50 },
    { price_per_hour: -5 },
    { price_per_hour: 'abc' },
    { capacity: 0 },
    { sport_id: 'x' },
  ]) {
    res = await send('POST', url, owner, { name: 'X', type: 'futsal', price_per_hour: 100, ...bad })
    assert.equal(res.statusCode, 422, JSON.stringify(bad))
  }
  res = await send('POST', url, owner, { name: 'X', sport_id: 9999, price_per_hour: 100 })
  assert.deepEqual(res.json().errors, { sport_id: ['The selected sport id is invalid.'] })
  res = await send('POST', url, owner, { name: 'X', price_per_hour: 100 })
  assert.deepEqual(res.json().errors, { type: ['The type field is required when sport id is not present.'] })
})

test('a court with an upcoming confirmed booking cannot be deleted (409)', async () => {
  const { owner, venue } = await team()
  const court = await createCourt(app, venue.id)
  const customer = await createUser(app)
  const booking = await app.ctx.db
    .insertInto('bookings')
    .values({
      booking_number: `BK-C-${court.id}`,
      user_id: customer.id,
      court_id: court.id,
      venue_id: venue.id,
      status: 'confirmed',
      date: daysFromFixedNow(3),
      start_time: '10:00',
      end_time: '11:00',
      base_amount: 150000,
      total_amount: 150000,
      paid_amount: 150000,
      customer_name: 'C',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await payInsertedBookings(app)
  let res = await send('DELETE', `/api/courts/${court.id}`, owner)
  assert.equal(res.statusCode, 409)
  assert.deepEqual(res.json(), { message: 'The court has upcoming confirmed bookings and cannot be deleted.' })
  await app.ctx.db.updateTable('bookings').set({ status: 'cancelled' }).where('id', '=', booking.id).execute()
  res = await send('DELETE', `/api/courts/${court.id}`, owner)
  assert.equal(res.statusCode, 200)
})

test('schedule: owner and manager replace it; overnight or inverted hours and duplicate days are 422', async () => {
  const { owner, manager, staff, venue } = await team()
  const court = await createCourt(app, venue.id)
  const url = `/api/courts/${court.id}/schedule`
  assert.deepEqual((await send('GET', url)).json(), { data: [] })
  let res = await send('PUT', url, owner, {
    schedules: [
      { day_of_week: 6, open_time: '07:00', close_time: '21:30' },
      { day_of_week: 0, is_closed: true },
      { day_of_week: 1 },
    ],
  })
  assert.equal(res.statusCode, 200)
  const data = res.json().data
  assert.deepEqual(
    data.map((d: Record<string, unknown>) => ({ ...d, id: 0 })),
    [
      { id: 0, day_of_week: 0, day_name: 'Sunday', open_time: '06:00:00', close_time: '22:00:00', is_closed: true },
      { id: 0, day_of_week: 1, day_name: 'Monday', open_time: '06:00:00', close_time: '22:00:00', is_closed: false },
      { id: 0, day_of_week: 6, day_name: 'Saturday', open_time: '07:00:00', close_time: '21:30:00', is_closed: false },
    ],
  )
  assert.deepEqual((await send('GET', url)).json().data, data)

  res = await send('PUT', url, owner, { schedules: [{ day_of_week: 2, open_time: '22:00', close_time: '02:00' }] })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { 'schedules.0.close_time': ['The close time must be a time after open time.'] })
  res = await send('PUT', url, owner, {
    schedules: [{ day_of_week: 3, is_closed: true, open_time: '12:00', close_time: '10:00' }],
  })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { 'schedules.0.close_time': ['The close time must be a time after open time.'] })
  res = await send('PUT', url, owner, { schedules: [{ day_of_week: 2 }, { day_of_week: 2 }] })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, {
    'schedules.1.day_of_week': ['The schedules day of week field has a duplicate value.'],
  })
  res = await send('PUT', url, owner, { schedules: [{ day_of_week: 7 }] })
  assert.equal(res.statusCode, 422)
  res = await send('PUT', url, owner, { schedules: [{ day_of_week: 1, open_time: '25:00' }] })
  assert.equal(res.statusCode, 422)
  // The refused requests changed nothing.
  assert.deepEqual((await send('GET', url)).json().data, data)

  res = await send('PUT', url, manager, { schedules: [] })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json().data, [])
  assert.equal((await send('PUT', url, staff, { schedules: [] })).statusCode, 403)
  assert.equal((await send('PUT', url, undefined, { schedules: [] })).statusCode, 401)
})

test('pricing rules: add, list, change and remove (owner, manager); ranges and types are checked', async () => {
  const { owner, manager, staff, venue } = await team()
  const court = await createCourt(app, venue.id)
  const url = `/api/courts/${court.id}/pricing`
  let res = await send('POST', url, owner, {
    type: 'peak',
    day_of_week: 5,
    start_time: '17:00',
    end_time: '21:00:00',
    price_per_hour: 2000,
  })
  assert.equal(res.statusCode, 201)
  const rule = res.json().data
  assert.deepEqual(
    { ...rule, id: 0 },
    {
      id: 0,
      type: 'peak',
      day_of_week: 5,
      start_time: '17:00:00',
      end_time: '21:00:00',
      price_per_hour: '2000.00',
      is_active: true,
    },
  )
  res = await send('POST', url, manager, {
    type: 'standard',
    start_time: '06:00',
    end_time: '17:00',
    price_per_hour: 1400,
  })
  assert.equal(res.statusCode, 201)
  assert.equal(res.json().data.day_of_week, null)
  const list = (await send('GET', url)).json().data
  assert.deepEqual(
    list.map((r: { type: string }) => r.type),
    ['standard', 'peak'],
  )

  res = await send('PUT', `${url}/${rule.id}`, manager, { price_per_hour: '2100.00', is_active: false })
  assert.equal(res.statusCode, 200)
  assert.equal(res.json().data.price_per_hour, '2100.00')
  assert.equal(res.json().data.is_active, false)
  assert.equal(res.json().data.start_time, '17:00:00')
  res = await send('PUT', `${url}/${rule.id}`, owner, { end_time: '16:00' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { end_time: ['The end time must be a time after start time.'] })

  for (const bad of [
    { type: 'happy_hour' },
    { day_of_week: 7 },
    { start_time: '9am' },
    { start_time: '20:00', end_time: '19:00' },
    { price_per_hour: -1 },
  ]) {
    res = await send('POST', url, owner, {
      type: 'peak',
      start_time: '17:00',
      end_time: '21:00',
      price_per_hour: 2000,
      ...bad,
    })
    assert.equal(res.statusCode, 422, JSON.stringify(bad))
  }
  assert.equal(
    (await send('POST', url, staff, { type: 'peak', start_time: '17:00', end_time: '21:00', price_per_hour: 1 }))
      .statusCode,
    403,
  )
  assert.equal((await send('DELETE', `${url}/${rule.id}`, staff)).statusCode, 403)

  // A rule of another court is not reachable through this one.
  const other = await createCourt(app, venue.id)
  assert.equal((await send('DELETE', `/api/courts/${other.id}/pricing/${rule.id}`, owner)).statusCode, 404)
  res = await send('DELETE', `${url}/${rule.id}`, owner)
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { message: 'Pricing rule deleted.' })
  assert.equal((await send('DELETE', `${url}/${rule.id}`, owner)).statusCode, 404)
  assert.equal((await send('GET', url)).json().data.length, 1)
})

test('maintenance blocks: owner, manager and staff add, list and remove; past dates and bad ranges are 422', async () => {
  const { owner, staff, venue } = await team()
  const court = await createCourt(app, venue.id)
  const url = `/api/courts/${court.id}/blocks`
  const date = daysFromFixedNow(2)
  let res = await send('POST', url, staff, { date, start_time: '10:00', end_time: '12:00', reason: ' Resurfacing ' })
  assert.equal(res.statusCode, 201)
  const block = res.json().data
  assert.deepEqual(
    { ...block, id: 0, created_at: '' },
    { id: 0, court_id: court.id, date, start_time: '10:00', end_time: '12:00', reason: 'Resurfacing', created_at: '' },
  )
  res = await send('GET', url, owner)
  assert.deepEqual(
    res.json().data.map((b: { id: number }) => b.id),
    [block.id],
  )
  assert.deepEqual((await send('GET', `${url}?date=${daysFromFixedNow(3)}`, owner)).json().data, [])

  res = await send('POST', url, owner, { date: daysFromFixedNow(-1), start_time: '10:00', end_time: '12:00' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { date: ['The date field must be a date after or equal to today.'] })
  res = await send('POST', url, owner, { date, start_time: '12:00', end_time: '10:00' })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { end_time: ['The end time field must be a time after start time.'] })

  const customer = await createUser(app)
  assert.equal((await send('GET', url, customer)).statusCode, 403)
  assert.equal((await send('GET', url)).statusCode, 401)
  assert.equal((await send('DELETE', `${url}/${block.id}`, customer)).statusCode, 403)
  res = await send('DELETE', `${url}/${block.id}`, staff)
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { message: 'Block deleted.' })
  assert.equal((await send('DELETE', `${url}/${block.id}`, staff)).statusCode, 404)
})
