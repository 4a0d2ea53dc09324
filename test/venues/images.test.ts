import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue } from '../helpers/factories.ts'
import { multipart, PNG } from './multipart.ts'

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

async function upload(venue: string | number, headers: Record<string, string>, collection?: string, file = PNG) {
  const form = await multipart([
    ['image', { file }],
    ...(collection ? [['collection', collection] as [string, string]] : []),
  ])
  return app.inject({
    method: 'POST',
    url: `/api/venues/${venue}/images`,
    headers: { ...headers, ...form.headers },
    payload: form.payload,
  })
}

test('the owner uploads gallery photos and a thumbnail; the response is the image item', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const g = await upload(venue.id, owner.headers)
  assert.equal(g.statusCode, 201, g.body)
  const item = g.json().data
  assert.deepEqual(Object.keys(item).sort(), ['collection', 'id', 'is_primary', 'sort_order', 'thumb_url', 'url'])
  assert.equal(item.collection, 'gallery')
  assert.equal(item.is_primary, false)
  assert.equal(item.thumb_url, item.url)
  assert.equal(item.sort_order, 1)
  const t1 = (await upload(venue.slug, owner.headers, 'thumbnail')).json().data
  assert.equal(t1.is_primary, true)
  // A second thumbnail replaces the first.
  const t2 = (await upload(venue.slug, owner.headers, 'thumbnail')).json().data
  const shown = (await app.inject({ method: 'GET', url: `/api/venues/${venue.slug}` })).json().data
  assert.equal(shown.thumbnail.id, t2.id)
  assert.deepEqual(
    shown.images.map((i: { id: number }) => i.id),
    [t2.id, item.id],
  )
  assert.notEqual(t1.id, t2.id)
})

test('a manager may upload and delete; staff and strangers get 403; guests 401', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const manager = await createUser(app, { roles: ['manager'] })
  const staff = await createUser(app, { roles: ['staff'] })
  const venue = await createVenue(app, owner.id)
  await assignStaff(app, venue.id, manager.id, 'manager')
  await assignStaff(app, venue.id, staff.id, 'staff')
  const res = await upload(venue.id, manager.headers)
  assert.equal(res.statusCode, 201)
  assert.equal((await upload(venue.id, staff.headers)).statusCode, 403)
  assert.equal((await upload(venue.id, (await createUser(app, { roles: ['venue_owner'] })).headers)).statusCode, 403)
  assert.equal((await upload(venue.id, {})).statusCode, 401)
  const id = res.json().data.id
  const del = await app.inject({
    method: 'DELETE',
    url: `/api/venues/${venue.id}/images/${id}`,
    headers: staff.headers,
  })
  assert.equal(del.statusCode, 403)
  const ok = await app.inject({
    method: 'DELETE',
    url: `/api/venues/${venue.id}/images/${id}`,
    headers: manager.headers,
  })
  assert.equal(ok.statusCode, 200)
  const again = await app.inject({
    method: 'DELETE',
    url: `/api/venues/${venue.id}/images/${id}`,
    headers: manager.headers,
  })
  assert.equal(again.statusCode, 404)
})

test('an image of another venue cannot be deleted through this one', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const a = await createVenue(app, owner.id)
  const b = await createVenue(app, owner.id)
  const id = (await upload(a.id, owner.headers)).json().data.id
  const res = await app.inject({ method: 'DELETE', url: `/api/venues/${b.id}/images/${id}`, headers: owner.headers })
  assert.equal(res.statusCode, 404)
  const bad = await app.inject({ method: 'DELETE', url: `/api/venues/${b.id}/images/abc`, headers: owner.headers })
  assert.equal(bad.statusCode, 404)
})

test('a missing or non-image file and an unknown collection are 422', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  let res = await upload(venue.id, owner.headers, undefined, Buffer.from('GIF89a-not-really'))
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { image: ['The image field must be a file of type: jpg, jpeg, png, webp.'] })
  res = await upload(venue.id, owner.headers, 'cover')
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { collection: ['The selected collection is invalid.'] })
  const form = await multipart([['collection', 'gallery']])
  res = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/images`,
    headers: { ...owner.headers, ...form.headers },
    payload: form.payload,
  })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { image: ['The image field is required.'] })
})
