import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { assertUserShape } from '../accounts/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, type TestUser } from '../helpers/factories.ts'

let app: App
let admin: TestUser
before(async () => {
  app = await build()
  admin = await createUser(app, { roles: ['super_admin'], name: 'Root Admin', email: 'root@admin.test' })
  await createUser(app, { name: 'Sita Sharma', email: 'sita@shop.test', phone: '9801234567' })
  await createUser(app, { name: 'Ram Owner', email: 'ram@venues.test', roles: ['venue_owner'] })
  await createUser(app, { name: 'Hari Staff', email: 'hari@venues.test', roles: ['staff'] })
  await createUser(app, { name: '100%_literal', email: 'literal@x.test' })
})
after(() => app.close())

const list = (query: string, headers = admin.headers) =>
  app.inject({ method: 'GET', url: `/api/admin/users${query}`, headers })

test('super_admin lists users paginated as User', async () => {
  const res = await list('?per_page=2')
  assert.equal(res.statusCode, 200)
  const body = res.json()
  assert.equal(body.data.length, 2)
  assert.equal(body.meta.total, 5)
  assert.equal(body.meta.per_page, 2)
  assert.equal(body.meta.last_page, 3)
  assert.equal(body.meta.current_page, 1)
  assert.equal(body.links.next, 'http://localhost:8000/api/admin/users?per_page=2&page=2')
  assert.equal(body.links.prev, null)
  for (const u of body.data) assertUserShape(u)
  assert.equal(body.data[0].email, 'root@admin.test')
  assert.deepEqual(body.data[0].roles, ['super_admin'])
  assert.ok(body.data[0].permissions.includes('users.manage'))
})

test('filters: search by name, email or phone; role', async () => {
  const names = async (q: string) => (await list(q)).json().data.map((u: { name: string }) => u.name)
  assert.deepEqual(await names('?search=sharma'), ['Sita Sharma'])
  assert.deepEqual(await names('?search=VENUES.test'), ['Ram Owner', 'Hari Staff'])
  assert.deepEqual(await names('?search=98012'), ['Sita Sharma'])
  assert.deepEqual(await names('?search=%25_'), ['100%_literal'])
  assert.deepEqual(await names('?role=venue_owner'), ['Ram Owner'])
  assert.deepEqual(await names('?role=staff&search=hari'), ['Hari Staff'])
  assert.deepEqual(await names('?role=manager'), [])
  const bad = await list('?role=wizard')
  assert.equal(bad.statusCode, 422)
  assert.deepEqual(bad.json().errors.role, ['The selected role is invalid.'])
})

test('only super_admin may list or change users', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const target = await createUser(app)
  assert.equal((await list('', owner.headers)).statusCode, 403)
  assert.deepEqual((await list('', owner.headers)).json(), { message: 'This action is unauthorized.' })
  assert.equal((await list('', {} as never)).statusCode, 401)
  const patch = await app.inject({
    method: 'PATCH',
    url: `/api/admin/users/${target.id}`,
    headers: owner.headers,
    payload: { is_active: false },
  })
  assert.equal(patch.statusCode, 403)
  await app.ctx.db.deleteFrom('users').where('id', 'in', [owner.id, target.id]).execute()
})

test('suspending blocks the user’s existing token at once; restoring lets it back in', async () => {
  const user = await createUser(app, { password: 'password123' })
  const res = await app.inject({
    method: 'PATCH',
    url: `/api/admin/users/${user.id}`,
    headers: admin.headers,
    payload: { is_active: false },
  })
  assert.equal(res.statusCode, 200)
  assertUserShape(res.json().data)
  assert.equal(res.json().data.is_active, false)

  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: user.headers })
  assert.equal(me.statusCode, 403)
  assert.deepEqual(me.json(), { message: 'Your account is suspended.' })
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: 'password123' },
  })
  assert.deepEqual(login.json(), { message: 'Invalid credentials.' })

  await app.inject({
    method: 'PATCH',
    url: `/api/admin/users/${user.id}`,
    headers: admin.headers,
    payload: { is_active: true },
  })
  assert.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: user.headers })).statusCode, 200)
  await app.ctx.db.deleteFrom('users').where('id', '=', user.id).execute()
})

test('roles are replaced; permissions follow the roles', async () => {
  const user = await createUser(app)
  const res = await app.inject({
    method: 'PATCH',
    url: `/api/admin/users/${user.id}`,
    headers: admin.headers,
    payload: { roles: ['venue_owner', 'manager'] },
  })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json().data.roles, ['venue_owner', 'manager'])
  assert.ok(res.json().data.permissions.includes('staff.manage'))
  assert.ok(!res.json().data.permissions.includes('bookings.create'))
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: user.headers })
  assert.deepEqual(me.json().data.roles, ['venue_owner', 'manager'])

  const invalid = await app.inject({
    method: 'PATCH',
    url: `/api/admin/users/${user.id}`,
    headers: admin.headers,
    payload: { roles: ['pirate'], is_active: 'maybe' },
  })
  assert.equal(invalid.statusCode, 422)
  assert.deepEqual(invalid.json().errors['roles.0'], ['The selected roles.0 is invalid.'])
  assert.deepEqual(invalid.json().errors.is_active, ['The is active field must be true or false.'])
  const empty = await app.inject({
    method: 'PATCH',
    url: `/api/admin/users/${user.id}`,
    headers: admin.headers,
    payload: { roles: [] },
  })
  assert.equal(empty.statusCode, 422)
  await app.ctx.db.deleteFrom('users').where('id', '=', user.id).execute()
})

test('a super_admin cannot suspend or demote themself; unknown users are 404', async () => {
  const self = (payload: Record<string, unknown>) =>
    app.inject({ method: 'PATCH', url: `/api/admin/users/${admin.id}`, headers: admin.headers, payload })
  const suspend = await self({ is_active: false })
  assert.equal(suspend.statusCode, 422)
  assert.deepEqual(suspend.json().errors, { is_active: ['You cannot suspend your own account.'] })
  const demote = await self({ roles: ['customer'] })
  assert.equal(demote.statusCode, 422)
  assert.deepEqual(demote.json().errors, { roles: ['You cannot remove your own super_admin role.'] })
  const keep = await self({ roles: ['super_admin', 'customer'] })
  assert.equal(keep.statusCode, 200)
  assert.deepEqual(keep.json().data.roles, ['customer', 'super_admin'])
  assert.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: admin.headers })).statusCode, 200)

  for (const id of ['999999', 'abc']) {
    const res = await app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${id}`,
      headers: admin.headers,
      payload: { is_active: true },
    })
    assert.equal(res.statusCode, 404)
    assert.deepEqual(res.json(), { message: 'Not found.' })
  }
  await self({ roles: ['super_admin'] })
})
