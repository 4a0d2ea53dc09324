import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const rolesOf = async (userId: number) =>
  (
    await app.ctx.db
      .selectFrom('user_roles as ur')
      .innerJoin('roles as r', 'r.id', 'ur.role_id')
      .select('r.name')
      .where('ur.user_id', '=', userId)
      .orderBy('r.id')
      .execute()
  ).map((r) => r.name)

test('the owner invites an existing user as manager; they gain the role and the venue only by accepting', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { verification_status: 'unverified' })
  const user = await createUser(app)
  const inviteAs = async (role: string) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/venues/${venue.slug}/staff`,
      headers: owner.headers,
      payload: { email: user.email.toUpperCase(), role },
    })
    assert.equal(res.statusCode, 202, res.body)
    return res.json().data
  }
  const acceptIt = async (id: number) => {
    const res = await app.inject({ method: 'POST', url: `/api/me/invitations/${id}/accept`, headers: user.headers })
    assert.equal(res.statusCode, 200, res.body)
  }
  const inv = await inviteAs('manager')
  assert.equal(inv.email, user.email)
  assert.equal(inv.has_account, true)
  // Not yet: no role, no venue.
  assert.deepEqual(await rolesOf(user.id), ['customer'])
  await acceptIt(inv.id)
  assert.deepEqual(await rolesOf(user.id), ['customer', 'manager'])
  const mine = await app.inject({ method: 'GET', url: '/api/venues/my-venues', headers: user.headers })
  assert.deepEqual(
    mine.json().map((v: { id: number }) => v.id),
    [venue.id],
  )
  const list = await app.inject({ method: 'GET', url: `/api/venues/${venue.id}/staff`, headers: owner.headers })
  assert.deepEqual(
    list.json().data.map((s: { id: number; role: string }) => [s.id, s.role]),
    [[user.id, 'manager']],
  )
  assert.match(list.json().data[0].assigned_at, /^\d{4}-/)
  // The same role again is 409; another role is a new invitation, and accepting it changes the role.
  const same = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/staff`,
    headers: owner.headers,
    payload: { email: user.email, role: 'manager' },
  })
  assert.equal(same.statusCode, 409, same.body)
  assert.deepEqual(same.json(), { message: 'This person already works here as manager.' })
  await acceptIt((await inviteAs('staff')).id)
  assert.deepEqual(await rolesOf(user.id), ['customer', 'staff'])
  const del = await app.inject({
    method: 'DELETE',
    url: `/api/venues/${venue.id}/staff/${user.id}`,
    headers: owner.headers,
  })
  assert.equal(del.statusCode, 200)
  assert.deepEqual(await rolesOf(user.id), ['customer'])
  const gone = await app.inject({
    method: 'DELETE',
    url: `/api/venues/${venue.id}/staff/${user.id}`,
    headers: owner.headers,
  })
  assert.equal(gone.statusCode, 404)
})

test('staff assignment: an unknown email is invited (202), a bad role is 422; managers and strangers get 403', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const manager = await createUser(app, { roles: ['manager'] })
  await assignStaff(app, venue.id, manager.id, 'manager')
  let res = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/staff`,
    headers: owner.headers,
    payload: { email: 'nobody@example.com', role: 'staff' },
  })
  // An email without an account gets an invitation (test/venues/invitations.test.ts).
  assert.equal(res.statusCode, 202, res.body)
  assert.equal(res.json().data.status, 'pending')
  res = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/staff`,
    headers: owner.headers,
    payload: { email: manager.email, role: 'owner' },
  })
  assert.deepEqual(res.json().errors, { role: ['The selected role is invalid.'] })
  for (const user of [manager, await createUser(app, { roles: ['venue_owner'] })]) {
    res = await app.inject({ method: 'GET', url: `/api/venues/${venue.id}/staff`, headers: user.headers })
    assert.equal(res.statusCode, 403)
  }
  assert.equal((await app.inject({ method: 'GET', url: `/api/venues/${venue.id}/staff` })).statusCode, 401)
})

test('holidays: owner and manager add, list and remove; one per date; past dates refused', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const manager = await createUser(app, { roles: ['manager'] })
  const staff = await createUser(app, { roles: ['staff'] })
  const venue = await createVenue(app, owner.id)
  await assignStaff(app, venue.id, manager.id, 'manager')
  await assignStaff(app, venue.id, staff.id, 'staff')
  const date = daysFromFixedNow(10)
  let res = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/holidays`,
    headers: manager.headers,
    payload: { date, name: 'Dashain' },
  })
  assert.equal(res.statusCode, 201)
  const h = res.json().data
  assert.deepEqual(
    { ...h, id: 0, created_at: '' },
    { id: 0, venue_id: venue.id, date, name: 'Dashain', created_at: '' },
  )
  res = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/holidays`,
    headers: owner.headers,
    payload: { date, name: 'Again' },
  })
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, { date: ['The venue already has a holiday on this date.'] })
  res = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/holidays`,
    headers: owner.headers,
    payload: { date: daysFromFixedNow(-1), name: 'Past' },
  })
  assert.deepEqual(res.json().errors, { date: ['The date field must be a date after or equal to today.'] })
  res = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/holidays`,
    headers: owner.headers,
    payload: { date: '2026-02-30', name: 'Bad' },
  })
  assert.deepEqual(res.json().errors, { date: ['The date field must be a valid date.'] })
  const list = await app.inject({ method: 'GET', url: `/api/venues/${venue.id}/holidays`, headers: owner.headers })
  assert.deepEqual(
    list.json().data.map((x: { id: number }) => x.id),
    [h.id],
  )
  assert.equal(
    (await app.inject({ method: 'GET', url: `/api/venues/${venue.id}/holidays`, headers: staff.headers })).statusCode,
    403,
  )
  const del = await app.inject({
    method: 'DELETE',
    url: `/api/venues/${venue.id}/holidays/${h.id}`,
    headers: owner.headers,
  })
  assert.equal(del.statusCode, 200)
  const again = await app.inject({
    method: 'DELETE',
    url: `/api/venues/${venue.id}/holidays/${h.id}`,
    headers: owner.headers,
  })
  assert.equal(again.statusCode, 404)
})
