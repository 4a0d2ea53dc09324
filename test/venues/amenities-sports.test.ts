import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, createVenue } from '../helpers/factories.ts'

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

test('amenities and sports are public catalogues', async () => {
  const a = await app.inject({ method: 'GET', url: '/api/amenities' })
  assert.equal(a.statusCode, 200)
  assert.deepEqual(a.json().data[0], { id: 1, name: 'Parking', name_ne: 'पार्किङ', icon: 'parking' })
  const s = await app.inject({ method: 'GET', url: '/api/sports' })
  assert.deepEqual(s.json().data[0], {
    id: 1,
    name: 'Futsal',
    name_ne: 'फुटसल',
    slug: 'futsal',
    key: 'futsal',
    label: 'Futsal',
    category: 'outdoor',
  })
})

test('super_admin manages amenities', async () => {
  const admin = await createUser(app, { roles: ['super_admin'] })
  let res = await app.inject({
    method: 'POST',
    url: '/api/admin/amenities',
    headers: admin.headers,
    payload: { name: 'Lockers', icon: 'lock' },
  })
  assert.equal(res.statusCode, 201)
  const id = res.json().data.id
  res = await app.inject({
    method: 'POST',
    url: '/api/admin/amenities',
    headers: admin.headers,
    payload: { name: 'Lockers' },
  })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { name: ['The name has already been taken.'] })
  res = await app.inject({
    method: 'PUT',
    url: `/api/admin/amenities/${id}`,
    headers: admin.headers,
    payload: { icon: 'key' },
  })
  assert.deepEqual(res.json().data, { id, name: 'Lockers', name_ne: null, icon: 'key' })
  res = await app.inject({ method: 'DELETE', url: `/api/admin/amenities/${id}`, headers: admin.headers })
  assert.equal(res.statusCode, 200)
  assert.equal(
    (await app.inject({ method: 'DELETE', url: `/api/admin/amenities/${id}`, headers: admin.headers })).statusCode,
    404,
  )
})

test('super_admin manages sports; a sport in use cannot be deleted', async () => {
  const admin = await createUser(app, { roles: ['super_admin'] })
  let res = await app.inject({
    method: 'POST',
    url: '/api/admin/sports',
    headers: admin.headers,
    payload: { name: 'Squash Court', category: 'indoor' },
  })
  assert.equal(res.statusCode, 201)
  const sport = res.json().data
  assert.deepEqual(
    { ...sport, id: 0 },
    {
      id: 0,
      name: 'Squash Court',
      name_ne: null,
      slug: 'squash-court',
      key: 'squash_court',
      label: 'Squash Court',
      category: 'indoor',
    },
  )
  res = await app.inject({
    method: 'PUT',
    url: `/api/admin/sports/${sport.id}`,
    headers: admin.headers,
    payload: { label: 'Squash' },
  })
  assert.equal(res.json().data.label, 'Squash')
  const owner = await createUser(app, { roles: ['venue_owner'] })
  await createCourt(app, (await createVenue(app, owner.id)).id)
  res = await app.inject({ method: 'DELETE', url: '/api/admin/sports/1', headers: admin.headers })
  assert.equal(res.statusCode, 409)
  assert.equal((await app.inject({ method: 'GET', url: '/api/sports' })).json().data[0].id, 1)
  res = await app.inject({ method: 'DELETE', url: `/api/admin/sports/${sport.id}`, headers: admin.headers })
  assert.equal(res.statusCode, 200)
})

test('only super_admin reaches the admin catalogue routes', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  for (const [method, url] of [
    ['GET', '/api/admin/amenities'],
    ['POST', '/api/admin/amenities'],
    ['PUT', '/api/admin/sports/1'],
    ['DELETE', '/api/admin/sports/1'],
  ] as const) {
    assert.equal((await app.inject({ method, url, payload: {} })).statusCode, 401, url)
    assert.equal((await app.inject({ method, url, headers: owner.headers, payload: {} })).statusCode, 403, url)
  }
})

test('an update naming no field it may change is 422 on the first of them, and changes nothing', async () => {
  const admin = await createUser(app, { roles: ['super_admin'] })
  const put = (url: string, payload: object) => app.inject({ method: 'PUT', url, headers: admin.headers, payload })
  for (const [url, field] of [
    ['/api/admin/amenities/1', 'name'],
    ['/api/admin/sports/1', 'name'],
  ] as const) {
    for (const payload of [{}, { colour: 'red' }]) {
      const res = await put(url, payload)
      assert.equal(res.statusCode, 422, `${url} ${JSON.stringify(payload)}: ${res.body}`)
      assert.equal(res.json().message, 'The given data was invalid.')
      assert.ok(res.json().errors[field][0].startsWith('Give at least one of name'), res.body)
    }
  }
  // The body is checked before the row is looked up; a path that cannot name a row is 404 first.
  assert.equal((await put('/api/admin/sports/999999', {})).statusCode, 422)
  assert.equal((await put('/api/admin/sports/abc', {})).statusCode, 404)
  const s = await app.inject({ method: 'GET', url: '/api/sports' })
  assert.equal(s.json().data[0].name, 'Futsal')
})
