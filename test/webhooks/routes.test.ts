import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, createVenue, type TestUser } from '../helpers/factories.ts'

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

const FORBIDDEN = { message: 'This action is unauthorized.' }
const URL_OK = 'https://hooks.example.com/courtside'

function post(user: TestUser | undefined, venue: string | number, payload: unknown) {
  return app.inject({
    method: 'POST',
    url: `/api/venues/${venue}/webhooks`,
    headers: user?.headers,
    payload: payload as object,
  })
}
function get(user: TestUser | undefined, url: string) {
  return app.inject({ method: 'GET', url, headers: user?.headers })
}
function del(user: TestUser | undefined, url: string) {
  return app.inject({ method: 'DELETE', url, headers: user?.headers })
}

test('POST /api/venues/{venue}/webhooks: 201 with the endpoint and its secret, shown only once', async () => {
  const w = await world(app)
  const res = await post(w.owner, w.venue.slug, { url: URL_OK, events: ['booking.created', 'payment.refunded'] })
  assert.equal(res.statusCode, 201, res.body)
  const data = res.json().data
  assert.equal(typeof data.id, 'number')
  assert.equal(data.venue_id, w.venue.id)
  assert.equal(data.url, URL_OK)
  assert.deepEqual(data.events, ['booking.created', 'payment.refunded'])
  assert.equal(data.status, 'active')
  assert.equal(data.disabled_at, null)
  assert.equal(data.failing_since, null)
  assert.match(data.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/)
  assert.match(data.secret, /^whsec_[A-Za-z0-9+/]{32}$/)
  assert.equal(Buffer.from(data.secret.slice(6), 'base64').length, 24)

  // A manager may too; each endpoint has its own secret.
  const second = await post(w.manager, w.venue.id, { url: `${URL_OK}/2`, events: ['booking.cancelled'] })
  assert.equal(second.statusCode, 201, second.body)
  assert.notEqual(second.json().data.secret, data.secret)

  const list = await get(w.owner, `/api/venues/${w.venue.id}/webhooks`)
  assert.equal(list.statusCode, 200)
  const items = list.json().data
  assert.deepEqual(
    items.map((i: { id: number }) => i.id),
    [data.id, second.json().data.id],
  )
  for (const item of items) assert.equal('secret' in item, false)
  assert.equal(list.body.includes(data.secret), false)
  assert.equal((await get(w.manager, `/api/venues/${w.venue.slug}/webhooks`)).statusCode, 200)
})

test('validation: url http(s) without credentials, events from the list, at least one, no duplicates', async () => {
  const w = await world(app)
  const cases: Array<[unknown, string]> = [
    [{ url: 'ftp://example.com/x', events: ['booking.created'] }, 'url'],
    [{ url: 'https://user:secret@example.com/x', events: ['booking.created'] }, 'url'],
    [{ url: 'not a url', events: ['booking.created'] }, 'url'],
    [{ url: '', events: ['booking.created'] }, 'url'],
    [{ events: ['booking.created'] }, 'url'],
    [{ url: URL_OK, events: [] }, 'events'],
    [{ url: URL_OK, events: ['booking.deleted'] }, 'events'],
    [{ url: URL_OK, events: ['booking.created', 'booking.created'] }, 'events'],
    [{ url: URL_OK, events: 'booking.created' }, 'events'],
    [{ url: URL_OK }, 'events'],
    [{ url: 42, events: ['booking.created'] }, 'url'],
  ]
  for (const [payload, field] of cases) {
    const res = await post(w.owner, w.venue.id, payload)
    assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`)
    const errors = res.json().errors as Record<string, string[]>
    assert.ok(
      Object.keys(errors).some((k) => k === field || k.startsWith(`${field}.`)),
      `${JSON.stringify(payload)}: ${res.body}`,
    )
  }
  const list = await get(w.owner, `/api/venues/${w.venue.id}/webhooks`)
  assert.deepEqual(list.json().data, [])
})

test('who may: 401 signed out; 403 for customers, staff and another venue’s owner; 404 for an unknown venue or webhook', async () => {
  const w = await world(app)
  const other = await createUser(app, { roles: ['venue_owner'] })
  await createVenue(app, other.id)
  const created = await post(w.owner, w.venue.id, { url: URL_OK, events: ['booking.created'] })
  const id = created.json().data.id
  const base = `/api/venues/${w.venue.id}/webhooks`

  assert.equal((await post(undefined, w.venue.id, { url: URL_OK, events: ['booking.created'] })).statusCode, 401)
  assert.equal((await get(undefined, base)).statusCode, 401)
  assert.equal((await del(undefined, `${base}/${id}`)).statusCode, 401)
  assert.equal((await get(undefined, `${base}/${id}/deliveries`)).statusCode, 401)

  for (const user of [w.customer, w.staff, other]) {
    // 403 before the body is validated: a stranger learns nothing from validation errors.
    const refused = await post(user, w.venue.id, { url: 'ftp://x', events: [] })
    assert.equal(refused.statusCode, 403, refused.body)
    assert.deepEqual(refused.json(), FORBIDDEN)
    assert.equal((await post(user, w.venue.id, { url: URL_OK, events: ['booking.created'] })).statusCode, 403)
    assert.equal((await get(user, base)).statusCode, 403)
    assert.equal((await del(user, `${base}/${id}`)).statusCode, 403)
    assert.equal((await get(user, `${base}/${id}/deliveries`)).statusCode, 403)
  }
  assert.equal((await get(w.owner, base)).json().data.length, 1)

  assert.equal((await post(w.owner, 999999999, { url: URL_OK, events: ['booking.created'] })).statusCode, 404)
  assert.equal((await post(w.owner, 'no-such-venue', { url: URL_OK, events: ['booking.created'] })).statusCode, 404)
  assert.equal((await get(w.owner, '/api/venues/999999999/webhooks')).statusCode, 404)
  for (const missing of ['999999999', 'abc', '0', '1e3']) {
    assert.equal((await del(w.owner, `${base}/${missing}`)).statusCode, 404, missing)
    assert.equal((await get(w.owner, `${base}/${missing}/deliveries`)).statusCode, 404, missing)
  }
  // Another venue's webhook id through this venue's path is not found.
  const otherWorld = await world(app)
  const foreign = await post(otherWorld.owner, otherWorld.venue.id, { url: URL_OK, events: ['booking.created'] })
  const foreignId = foreign.json().data.id
  assert.equal((await del(w.owner, `${base}/${foreignId}`)).statusCode, 404)
  assert.equal((await get(w.owner, `${base}/${foreignId}/deliveries`)).statusCode, 404)
  assert.equal((await get(otherWorld.owner, `/api/venues/${otherWorld.venue.id}/webhooks`)).json().data.length, 1)
})

test('a super_admin may manage any venue’s webhooks', async () => {
  const w = await world(app)
  const admin = await createUser(app, { roles: ['super_admin'] })
  const res = await post(admin, w.venue.id, { url: URL_OK, events: ['payment.completed'] })
  assert.equal(res.statusCode, 201, res.body)
})

test('DELETE /api/venues/{venue}/webhooks/{webhook}: gone from the list, a second delete is 404', async () => {
  const w = await world(app)
  const created = await post(w.owner, w.venue.id, { url: URL_OK, events: ['booking.created'] })
  const id = created.json().data.id
  const res = await del(w.manager, `/api/venues/${w.venue.id}/webhooks/${id}`)
  assert.equal(res.statusCode, 200, res.body)
  assert.deepEqual(res.json(), { message: 'Webhook deleted.' })
  assert.deepEqual((await get(w.owner, `/api/venues/${w.venue.id}/webhooks`)).json().data, [])
  assert.equal((await del(w.owner, `/api/venues/${w.venue.id}/webhooks/${id}`)).statusCode, 404)
})

test('GET …/deliveries of a new endpoint: an empty page', async () => {
  const w = await world(app)
  const created = await post(w.owner, w.venue.id, { url: URL_OK, events: ['booking.created'] })
  const res = await get(
    w.owner,
    `/api/venues/${w.venue.id}/webhooks/${created.json().data.id}/deliveries?page=1&per_page=5`,
  )
  assert.equal(res.statusCode, 200, res.body)
  const body = res.json()
  assert.deepEqual(body.data, [])
  assert.equal(body.meta.total, 0)
  assert.equal(body.meta.per_page, 5)
  const bad = await get(w.owner, `/api/venues/${w.venue.id}/webhooks/${created.json().data.id}/deliveries?page=0`)
  assert.equal(bad.statusCode, 422)
})

test('a venue has at most 20 webhooks', async () => {
  const w = await world(app)
  for (let i = 0; i < 20; i++) {
    assert.equal(
      (await post(w.owner, w.venue.id, { url: `${URL_OK}/${i}`, events: ['booking.created'] })).statusCode,
      201,
    )
  }
  const res = await post(w.owner, w.venue.id, { url: `${URL_OK}/21`, events: ['booking.created'] })
  assert.equal(res.statusCode, 422)
  assert.match(res.json().errors.url[0], /at most 20/)
})
