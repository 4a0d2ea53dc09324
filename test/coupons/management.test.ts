import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue } from '../helpers/factories.ts'

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

let n = 0
const code = (p = 'SAVE') => `${p}${process.pid}X${++n}`

async function setup() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  return { owner, venue }
}

test('the owner creates a venue coupon; every field comes back', async () => {
  const { owner, venue } = await setup()
  const c = code()
  const res = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.slug}/coupons`,
    headers: owner.headers,
    payload: {
      code: c,
      type: 'percent',
      value: '12.5',
      max_discount: 300,
      min_amount: '1000.00',
      starts_at: '2026-01-01',
      expires_at: '2030-12-31 18:00',
      usage_limit: 100,
      per_user_limit: 2,
    },
  })
  assert.equal(res.statusCode, 201, res.body)
  const d = res.json().data
  assert.ok(d.id > 0)
  assert.equal(d.venue_id, venue.id)
  assert.equal(d.code, c)
  assert.equal(d.type, 'percent')
  assert.equal(d.value, '12.50')
  assert.equal(d.max_discount, '300.00')
  assert.equal(d.min_amount, '1000.00')
  assert.equal(d.starts_at, '2026-01-01 00:00:00')
  assert.equal(d.expires_at, '2030-12-31 18:00:00')
  assert.equal(d.usage_limit, 100)
  assert.equal(d.per_user_limit, 2)
  assert.equal(d.used_count, 0)
  assert.equal(d.is_active, true)
  assert.match(d.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)

  const list = await app.inject({ method: 'GET', url: `/api/venues/${venue.id}/coupons`, headers: owner.headers })
  assert.equal(list.statusCode, 200)
  assert.deepEqual(
    list.json().data.map((x: { code: string }) => x.code),
    [c],
  )
})

test('codes are unique case-insensitively; values and windows are validated', async () => {
  const { owner, venue } = await setup()
  const c = code()
  const url = `/api/venues/${venue.id}/coupons`
  await app.inject({ method: 'POST', url, headers: owner.headers, payload: { code: c, type: 'fixed', value: 100 } })
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ code: c.toLowerCase(), type: 'fixed', value: 100 }, 'code', 'The code has already been taken.'],
    [{ type: 'fixed', value: 100 }, 'code', 'The code field is required.'],
    [{ code: code(), type: 'percent', value: 100.01 }, 'value', 'The value field must not be greater than 100.'],
    [{ code: code(), type: 'fixed', value: 0 }, 'value', 'The value field must be greater than 0.'],
    [{ code: code(), type: 'bogus', value: 1 }, 'type', 'The selected type is invalid.'],
    [
      { code: code(), type: 'fixed', value: 1, starts_at: '2030-01-02', expires_at: '2030-01-01' },
      'expires_at',
      'The expires at field must be a date after starts at.',
    ],
    [
      { code: code(), type: 'fixed', value: 1, usage_limit: 0 },
      'usage_limit',
      'The usage limit field must be at least 1.',
    ],
  ]
  for (const [payload, field, message] of cases) {
    const res = await app.inject({ method: 'POST', url, headers: owner.headers, payload })
    assert.equal(res.statusCode, 422, JSON.stringify(payload))
    assert.deepEqual(res.json().errors[field], [message], res.body)
  }
})

test('managers may manage coupons; staff, other owners and customers may not', async () => {
  const { owner, venue } = await setup()
  const manager = await createUser(app, { roles: ['manager'] })
  const staff = await createUser(app, { roles: ['staff'] })
  const stranger = await createUser(app, { roles: ['venue_owner'] })
  const customer = await createUser(app)
  await assignStaff(app, venue.id, manager.id, 'manager')
  await assignStaff(app, venue.id, staff.id, 'staff')
  const url = `/api/venues/${venue.id}/coupons`
  const made = await app.inject({
    method: 'POST',
    url,
    headers: manager.headers,
    payload: { code: code(), type: 'fixed', value: 50 },
  })
  assert.equal(made.statusCode, 201)
  for (const u of [staff, stranger, customer]) {
    const res = await app.inject({
      method: 'POST',
      url,
      headers: u.headers,
      payload: { code: code(), type: 'fixed', value: 50 },
    })
    assert.equal(res.statusCode, 403)
    assert.deepEqual(res.json(), { message: 'This action is unauthorized.' })
    assert.equal((await app.inject({ method: 'GET', url, headers: u.headers })).statusCode, 403)
    const put = await app.inject({
      method: 'PUT',
      url: `/api/coupons/${made.json().data.id}`,
      headers: u.headers,
      payload: { value: 1 },
    })
    assert.equal(put.statusCode, 403)
  }
  assert.equal((await app.inject({ method: 'GET', url })).statusCode, 401)
  assert.equal(
    (await app.inject({ method: 'GET', url: '/api/venues/999999/coupons', headers: owner.headers })).statusCode,
    404,
  )
})

test('update is partial; delete removes an unused coupon and refuses a used one (409)', async () => {
  const { owner, venue } = await setup()
  const made = (
    await app.inject({
      method: 'POST',
      url: `/api/venues/${venue.id}/coupons`,
      headers: owner.headers,
      payload: { code: code(), type: 'fixed', value: 50 },
    })
  ).json().data
  const upd = await app.inject({
    method: 'PUT',
    url: `/api/coupons/${made.id}`,
    headers: owner.headers,
    payload: { is_active: false, max_discount: null, value: '75.50' },
  })
  assert.equal(upd.statusCode, 200)
  assert.equal(upd.json().data.is_active, false)
  assert.equal(upd.json().data.value, '75.50')
  assert.equal(upd.json().data.code, made.code)

  await app.ctx.db.updateTable('coupons').set({ used_count: 1 }).where('id', '=', made.id).execute()
  const used = await app.inject({ method: 'DELETE', url: `/api/coupons/${made.id}`, headers: owner.headers })
  assert.equal(used.statusCode, 409)
  await app.ctx.db.updateTable('coupons').set({ used_count: 0 }).where('id', '=', made.id).execute()
  const del = await app.inject({ method: 'DELETE', url: `/api/coupons/${made.id}`, headers: owner.headers })
  assert.equal(del.statusCode, 200)
  assert.equal(typeof del.json().message, 'string')
  assert.equal(
    (await app.inject({ method: 'DELETE', url: `/api/coupons/${made.id}`, headers: owner.headers })).statusCode,
    404,
  )
  assert.equal(
    (await app.inject({ method: 'PUT', url: '/api/coupons/abc', headers: owner.headers, payload: {} })).statusCode,
    404,
  )
})

test('a super_admin creates platform-wide coupons; only super_admins manage them', async () => {
  const admin = await createUser(app, { roles: ['super_admin'] })
  const { owner } = await setup()
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/coupons',
    headers: admin.headers,
    payload: { code: code('ALL'), type: 'percent', value: 10 },
  })
  assert.equal(res.statusCode, 201, res.body)
  assert.equal(res.json().data.venue_id, null)
  const denied = await app.inject({
    method: 'POST',
    url: '/api/admin/coupons',
    headers: owner.headers,
    payload: { code: code('ALL'), type: 'percent', value: 10 },
  })
  assert.equal(denied.statusCode, 403)
  const put = await app.inject({
    method: 'PUT',
    url: `/api/coupons/${res.json().data.id}`,
    headers: owner.headers,
    payload: { value: 50 },
  })
  assert.equal(put.statusCode, 403)
  const list = await app.inject({ method: 'GET', url: '/api/admin/coupons', headers: admin.headers })
  assert.ok(list.json().data.some((c: { id: number }) => c.id === res.json().data.id))
})
