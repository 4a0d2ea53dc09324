import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createUser, type TestUser } from '../helpers/factories.ts'

// Issue 33, "Owner onboarding without an admin": any signed-in user with a verified email creates a
// venue and becomes its owner; the venue stays out of the catalogue until a super admin approves it.

const clock = new ManualClock('2031-05-06T04:00:00Z')
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

const city = 'Onboardville'
const body = {
  name: 'First Court Arena',
  address: 'Main Road',
  city,
  state: 'Bagmati',
  latitude: 27.7,
  longitude: 85.3,
  opening_time: '06:00',
  closing_time: '21:00',
}

async function verifiedCustomer(): Promise<TestUser> {
  const user = await createUser(app, { roles: ['customer'] })
  await app.ctx.db.updateTable('users').set({ email_verified_at: clock.now() }).where('id', '=', user.id).execute()
  return user
}

const post = (url: string, headers: Record<string, string> | undefined, payload?: object) =>
  app.inject({ method: 'POST', url, headers, payload })

test('a verified customer creates a venue, becomes its owner, and it stays hidden until approved', async () => {
  const user = await verifiedCustomer()
  const res = await post('/api/venues', user.headers, body)
  assert.equal(res.statusCode, 201, res.body)
  const venue = res.json().data
  assert.equal(venue.verification_status, 'unverified')
  assert.equal(venue.is_verified, false)
  const row = await app.ctx.db
    .selectFrom('venues')
    .select('owner_id')
    .where('id', '=', venue.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.owner_id, user.id)

  // The role is theirs at once, on the same token.
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: user.headers })
  assert.deepEqual(me.json().data.roles.sort(), ['customer', 'venue_owner'])

  // Hidden from guests and other customers; the owner sees it.
  const other = await createUser(app)
  for (const headers of [undefined, other.headers]) {
    const list = await app.inject({ method: 'GET', url: `/api/venues?city=${city}`, headers })
    assert.deepEqual(list.json().data, [])
    assert.equal((await app.inject({ method: 'GET', url: `/api/venues/${venue.slug}`, headers })).statusCode, 404)
  }
  const mine = await app.inject({ method: 'GET', url: `/api/venues/${venue.slug}`, headers: user.headers })
  assert.equal(mine.statusCode, 200)

  // As owner: manages staff, requests verification; the super admin approves; then it is public.
  assert.equal(
    (await app.inject({ method: 'GET', url: `/api/venues/${venue.id}/staff`, headers: user.headers })).statusCode,
    200,
  )
  const requested = await post(`/api/venues/${venue.slug}/verification/request`, user.headers, { note: 'Hi' })
  assert.equal(requested.statusCode, 200, requested.body)
  const admin = await createUser(app, { roles: ['super_admin'] })
  const approved = await post(`/api/admin/venues/${venue.id}/verification/approve`, admin.headers)
  assert.equal(approved.statusCode, 200, approved.body)
  const list = await app.inject({ method: 'GET', url: `/api/venues?city=${city}` })
  assert.deepEqual(
    list.json().data.map((v: { id: number }) => v.id),
    [venue.id],
  )
})

test('an unverified email is 403 with a clear message, before validation, and gains no role', async () => {
  const user = await createUser(app, { roles: ['customer'] })
  for (const payload of [body, { name: 'X' }]) {
    const res = await post('/api/venues', user.headers, payload)
    assert.equal(res.statusCode, 403, res.body)
    assert.deepEqual(res.json(), { message: 'Verify your email address before creating a venue.' })
  }
  const roles = await app.ctx.db
    .selectFrom('user_roles as ur')
    .innerJoin('roles as r', 'r.id', 'ur.role_id')
    .select('r.name')
    .where('ur.user_id', '=', user.id)
    .execute()
  assert.deepEqual(
    roles.map((r) => r.name),
    ['customer'],
  )
  assert.equal((await post('/api/venues', undefined, body)).statusCode, 401)
})

test('a verified user with an invalid body gets 422 and no role', async () => {
  const user = await verifiedCustomer()
  const res = await post('/api/venues', user.headers, { ...body, closing_time: '05:00' })
  assert.equal(res.statusCode, 422)
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: user.headers })
  assert.deepEqual(me.json().data.roles, ['customer'])
})

test('venue owners keep creating venues without a verified email', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const res = await post('/api/venues', owner.headers, { ...body, name: 'Owner Arena' })
  assert.equal(res.statusCode, 201, res.body)
  assert.equal(res.json().data.verification_status, 'unverified')
})
