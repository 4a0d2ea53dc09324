import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { CLIENT_TYPES, clientTypes, REGENERATE } from '../../scripts/openapi-tools.ts'
import type { App } from '../../src/app.ts'
import { seedDemo } from '../../src/cli/seed.ts'
import { DEMO_PASSWORD, DEMO_USERS, DEMO_VENUES } from '../../src/cli/seed-data.ts'
import { type components, createCourtsideClient } from '../../src/client/index.ts'
import { build } from '../helpers/app.ts'

// The typed client of src/client (openapi-fetch over openapi-typescript's types): its checked-in
// types are what the served document generates, and it signs in and books a slot against a real
// listening server, with the demo data and the document's own example (README, "Typed client").

let app: App
let baseUrl: string

before(async () => {
  app = await build()
  await seedDemo(app.ctx.db)
  await app.listen({ port: 0, host: '127.0.0.1' })
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})
after(() => app.close())

test(`${CLIENT_TYPES} is what openapi-typescript generates from the served document`, async () => {
  const served = (await app.inject({ method: 'GET', url: '/docs/json' })).json()
  const expected = await clientTypes(served)
  const checkedIn = readFileSync(new URL(`../../${CLIENT_TYPES}`, import.meta.url), 'utf8')
  assert.ok(checkedIn === expected, `${CLIENT_TYPES} differs from the served document: run \`${REGENERATE}\``)
})

test('the generated client signs in and books the example slot of the document', async () => {
  const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json()
  const example = doc.paths['/api/bookings'].post.requestBody.content['application/json'].example

  const guest = createCourtsideClient(baseUrl)
  const customer = DEMO_USERS.find((u) => u.role === 'customer')!
  const login = await guest.POST('/api/auth/login', {
    body: { email: customer.email, password: DEMO_PASSWORD, device_name: 'client test' },
  })
  assert.equal(login.response.status, 200, JSON.stringify(login.error))
  assert.ok(login.data)
  const token: string = login.data.token
  assert.equal(login.data.data.email, customer.email)

  // The example's court is the demo's first court, open on the example's date and range.
  const court = await guest.GET('/api/courts/{court}', { params: { path: { court: String(example.court_id) } } })
  assert.equal(court.data?.data.name, DEMO_VENUES[0].courts[0].name)
  const slots = await guest.GET('/api/courts/{court}/availability', {
    params: { path: { court: String(example.court_id) }, query: { date: example.date } },
  })
  assert.equal(slots.response.status, 200, JSON.stringify(slots.error))
  const slot = slots.data?.slots.find((s) => s.start_time === example.start_time)
  assert.equal(slot?.is_available, true, `${example.date} ${example.start_time} is not available`)

  const api = createCourtsideClient(baseUrl, token)
  const created = await api.POST('/api/bookings', { body: example })
  assert.equal(created.response.status, 201, JSON.stringify(created.error))
  const booking: components['schemas']['Booking'] | undefined = created.data?.data
  assert.equal(booking?.status, 'pending')
  assert.equal(booking?.court_id, example.court_id)
  assert.equal(booking?.date, example.date)
  assert.equal(booking?.start_time, example.start_time)

  // The same slot again: the contract's 409, typed as the Message body.
  const again = await api.POST('/api/bookings', { body: example })
  assert.equal(again.response.status, 409)
  assert.equal(again.error?.message, 'The court is not available for the selected time slot.')

  const mine = await api.GET('/api/bookings', { params: { query: { per_page: 5 } } })
  assert.deepEqual(
    mine.data?.data.map((b) => b.id),
    [booking?.id],
  )
  // Without the token the same request is 401.
  const anonymous = await guest.GET('/api/bookings')
  assert.equal(anonymous.response.status, 401)
})
