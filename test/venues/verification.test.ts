import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue } from '../helpers/factories.ts'

let app: App
let admin: Awaited<ReturnType<typeof createUser>>
before(async () => {
  app = await build()
  admin = await createUser(app, { roles: ['super_admin'] })
})
after(() => app.close())

const post = (url: string, headers: Record<string, string>, payload: object = {}) =>
  app.inject({ method: 'POST', url, headers, payload })

test('owner requests, super_admin approves: unverified → pending → verified', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { verification_status: 'unverified' })
  let res = await post(`/api/venues/${venue.slug}/verification/request`, owner.headers, { note: 'Licence attached' })
  assert.equal(res.statusCode, 200, res.body)
  let body = res.json()
  assert.equal(typeof body.message, 'string')
  assert.equal(body.data.verification_status, 'pending')
  assert.equal(body.data.is_verified, false)
  assert.equal(body.data.verification_note, 'Licence attached')
  assert.match(body.data.verification_requested_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  assert.equal(body.data.verification_reviewed_at, null)

  const list = await app.inject({
    method: 'GET',
    url: '/api/admin/venues/verification-requests',
    headers: admin.headers,
  })
  assert.equal(list.statusCode, 200)
  assert.ok(list.json().data.some((v: { id: number }) => v.id === venue.id))
  assert.ok(list.json().data.every((v: { verification_status: string }) => v.verification_status === 'pending'))

  res = await post(`/api/admin/venues/${venue.id}/verification/approve`, admin.headers)
  assert.equal(res.statusCode, 200)
  body = res.json()
  assert.equal(body.data.verification_status, 'verified')
  assert.equal(body.data.is_verified, true)
  assert.match(body.data.verification_reviewed_at, /^\d{4}-/)
  // Now public.
  assert.equal((await app.inject({ method: 'GET', url: `/api/venues/${venue.slug}` })).statusCode, 200)
})

test('reject stores the reason; the owner may request again', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { verification_status: 'pending' })
  let res = await post(`/api/admin/venues/${venue.slug}/verification/reject`, admin.headers, {
    reason: 'Blurry licence',
  })
  assert.equal(res.statusCode, 200)
  assert.equal(res.json().data.verification_status, 'rejected')
  assert.equal(res.json().data.is_verified, false)
  assert.equal(res.json().data.verification_note, 'Blurry licence')
  assert.equal((await app.inject({ method: 'GET', url: `/api/venues/${venue.slug}` })).statusCode, 404)
  res = await post(`/api/venues/${venue.id}/verification/request`, owner.headers)
  assert.equal(res.statusCode, 200)
  assert.equal(res.json().data.verification_status, 'pending')
})

test('requesting while pending or verified is 422 saying which', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const pending = await createVenue(app, owner.id, { verification_status: 'pending' })
  const verified = await createVenue(app, owner.id, { verification_status: 'verified' })
  let res = await post(`/api/venues/${pending.id}/verification/request`, owner.headers)
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: 'A verification request for this venue is already pending.' })
  res = await post(`/api/venues/${verified.id}/verification/request`, owner.headers)
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: 'This venue is already verified.' })
})

test('approve or reject of a venue that is not pending is 422', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { verification_status: 'unverified' })
  let res = await post(`/api/admin/venues/${venue.id}/verification/approve`, admin.headers)
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json(), { message: 'Only a pending verification request can be approved.' })
  res = await post(`/api/admin/venues/${venue.id}/verification/reject`, admin.headers)
  assert.deepEqual(res.json(), { message: 'Only a pending verification request can be rejected.' })
})

test('only the venue’s owner may request; only super_admin may list, approve and reject', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const manager = await createUser(app, { roles: ['manager'] })
  const venue = await createVenue(app, owner.id, { verification_status: 'unverified' })
  await assignStaff(app, venue.id, manager.id, 'manager')
  const stranger = await createUser(app, { roles: ['venue_owner'] })
  assert.equal((await post(`/api/venues/${venue.id}/verification/request`, {})).statusCode, 401)
  assert.equal((await post(`/api/venues/${venue.id}/verification/request`, manager.headers)).statusCode, 403)
  assert.equal((await post(`/api/venues/${venue.id}/verification/request`, stranger.headers)).statusCode, 403)
  assert.equal((await post('/api/venues/unknown-venue/verification/request', owner.headers)).statusCode, 404)
  const list = await app.inject({
    method: 'GET',
    url: '/api/admin/venues/verification-requests',
    headers: owner.headers,
  })
  assert.equal(list.statusCode, 403)
  await post(`/api/venues/${venue.id}/verification/request`, owner.headers)
  assert.equal((await post(`/api/admin/venues/${venue.id}/verification/approve`, owner.headers)).statusCode, 403)
  assert.equal((await post(`/api/admin/venues/${venue.id}/verification/reject`, manager.headers)).statusCode, 403)
  assert.equal((await post('/api/admin/venues/999999/verification/approve', admin.headers)).statusCode, 404)
})

test('two racing approvals: one succeeds, the other is refused', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { verification_status: 'pending' })
  const results = await Promise.all([
    post(`/api/admin/venues/${venue.id}/verification/approve`, admin.headers),
    post(`/api/admin/venues/${venue.id}/verification/reject`, admin.headers),
  ])
  assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 422])
})
