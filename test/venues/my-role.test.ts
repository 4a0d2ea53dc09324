import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue, type TestUser } from '../helpers/factories.ts'

// GET /venues/my-venues: each item says what the caller is at that venue (my_role).

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

interface MyVenue {
  id: number
  name: string
  slug: string
  my_role: string
}

async function mine(who: TestUser): Promise<MyVenue[]> {
  const res = await app.inject({ method: 'GET', url: '/api/venues/my-venues', headers: who.headers })
  assert.equal(res.statusCode, 200, res.body)
  return res.json()
}

const roles = (list: MyVenue[]) => list.map((v) => [v.id, v.my_role])

test('my_role is owner at an owned venue, manager or staff where assigned, per venue', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const other = await createUser(app, { roles: ['venue_owner'] })
  const a = await createVenue(app, owner.id)
  const b = await createVenue(app, other.id, { verification_status: 'unverified' })
  const c = await createVenue(app, other.id, { is_active: false })
  const person = await createUser(app, { roles: ['staff', 'manager'] })
  await assignStaff(app, a.id, person.id, 'staff')
  await assignStaff(app, b.id, person.id, 'manager')

  // Newest first; the person is staff at A and manager at B, whatever the account's roles say.
  assert.deepEqual(roles(await mine(person)), [
    [b.id, 'manager'],
    [a.id, 'staff'],
  ])
  assert.deepEqual(roles(await mine(owner)), [[a.id, 'owner']])
  assert.deepEqual(roles(await mine(other)), [
    [c.id, 'owner'],
    [b.id, 'owner'],
  ])
  // The rest of the item is the Venue as before.
  const [item] = await mine(owner)
  assert.equal(item?.slug, a.slug)
  assert.equal(item?.name, a.name)
})

test('an owner who is also assigned at their own venue is its owner', async () => {
  const owner = await createUser(app, { roles: ['venue_owner', 'staff'] })
  const venue = await createVenue(app, owner.id)
  await assignStaff(app, venue.id, owner.id, 'staff')
  assert.deepEqual(roles(await mine(owner)), [[venue.id, 'owner']])
})

test('a super_admin sees every venue: super_admin where not attached, the attached role elsewhere', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const admin = await createUser(app, { roles: ['super_admin'] })
  const theirs = await createVenue(app, owner.id, { verification_status: 'pending' })
  const managed = await createVenue(app, owner.id)
  const own = await createVenue(app, admin.id)
  await assignStaff(app, managed.id, admin.id, 'manager')
  const byId = new Map((await mine(admin)).map((v) => [v.id, v.my_role]))
  assert.equal(byId.get(theirs.id), 'super_admin')
  assert.equal(byId.get(managed.id), 'manager')
  assert.equal(byId.get(own.id), 'owner')
  const all = await app.ctx.db.selectFrom('venues').select('id').where('deleted_at', 'is', null).execute()
  assert.equal(byId.size, all.length)
})

test('a deleted venue is not listed; a customer has none; a guest is refused', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const gone = await createVenue(app, owner.id)
  const kept = await createVenue(app, owner.id)
  await app.ctx.db.updateTable('venues').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute()
  assert.deepEqual(roles(await mine(owner)), [[kept.id, 'owner']])
  const customer = await createUser(app)
  assert.deepEqual(await mine(customer), [])
  const guest = await app.inject({ method: 'GET', url: '/api/venues/my-venues' })
  assert.equal(guest.statusCode, 401)
})

test('only my-venues carries my_role: the catalogue and the venue page do not', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const show = await app.inject({ method: 'GET', url: `/api/venues/${venue.slug}`, headers: owner.headers })
  assert.equal(show.statusCode, 200, show.body)
  assert.equal('my_role' in show.json().data, false)
  const list = await app.inject({ method: 'GET', url: '/api/venues', headers: owner.headers })
  assert.equal(list.statusCode, 200, list.body)
  for (const v of list.json().data) assert.equal('my_role' in v, false)
})
