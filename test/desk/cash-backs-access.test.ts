import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue } from '../helpers/factories.ts'
import { call, day, noonClock } from '../reports/helpers.ts'
import { approveUrl, cashBacks, payUrl, takeCash, walkIn } from './cash-back-helpers.ts'

// Who may list, approve and pay a venue's cash-backs, and what a bad path or filter answers: the
// desk (owner, manager, staff) lists and pays, only an owner or manager (or super_admin) approves;
// customers and other venues' people are 403 before anything is validated; an unknown or another
// venue's cash-back is 404; a malformed id or filter is 422.

const clock = noonClock()
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

test('approve: owner, manager or super_admin of the venue; staff, customers and other venues 403; no token 401', async () => {
  const w = await world(app, { price: 600000 })
  const id = await walkIn(app, w.staff, w.venue.id, w.court.id, day(2))
  await takeCash(app, w.staff, id, '6000.00')
  assert.equal(
    (await call(app, 'PATCH', `/api/bookings/${id}/status`, w.staff, { status: 'cancelled' })).statusCode,
    200,
  )
  const [due] = await cashBacks(app, w.venue.id, w.staff)
  const otherOwner = await createUser(app, { roles: ['venue_owner'] })
  const otherVenue = await createVenue(app, otherOwner.id)
  const otherManager = await createUser(app, { roles: ['manager'] })
  await assignStaff(app, otherVenue.id, otherManager.id, 'manager')
  const admin = await createUser(app, { roles: ['super_admin'] })

  for (const who of [w.staff, w.customer, otherOwner, otherManager]) {
    const res = await call(app, 'POST', approveUrl(w.venue.id, due.id), who)
    assert.equal(res.statusCode, 403, res.body)
    // Refused before the path is validated: a stranger learns nothing from it.
    assert.equal((await call(app, 'POST', approveUrl(w.venue.id, 'abc'), who)).statusCode, 403)
  }
  for (const who of [w.customer, otherOwner, otherManager]) {
    assert.equal((await call(app, 'POST', payUrl(w.venue.id, due.id), who)).statusCode, 403)
    assert.equal((await call(app, 'GET', `/api/venues/${w.venue.id}/cash-backs`, who)).statusCode, 403)
  }
  assert.equal((await app.inject({ method: 'POST', url: approveUrl(w.venue.id, due.id) })).statusCode, 401)
  // Through their own venue it is not theirs.
  const viaOwn = await call(app, 'POST', approveUrl(otherVenue.id, due.id), otherOwner)
  assert.equal(viaOwn.statusCode, 404, viaOwn.body)
  assert.equal((await cashBacks(app, w.venue.id, w.staff, 'awaiting_approval')).length, 1)

  const ok = await call(app, 'POST', approveUrl(w.venue.id, due.id), admin)
  assert.equal(ok.statusCode, 200, ok.body)
  assert.equal(ok.json().data.approved_by, admin.id)
  assert.equal(ok.json().data.status, 'due')
})

test('bad ids and filters: unknown cash-back or venue 404, malformed id or status 422', async () => {
  const w = await world(app)
  const unknown = await call(app, 'POST', approveUrl(w.venue.id, 999999999), w.owner)
  assert.equal(unknown.statusCode, 404, unknown.body)
  assert.equal((await call(app, 'POST', payUrl(w.venue.id, 999999999), w.staff)).statusCode, 404)
  for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
    for (const url of [approveUrl(w.venue.id, bad), payUrl(w.venue.id, bad)]) {
      const res = await call(app, 'POST', url, w.owner)
      assert.equal(res.statusCode, 422, `${url}: ${res.body}`)
      assert.ok(res.json().errors.cashBack, res.body)
    }
  }
  const filter = await call(app, 'GET', `/api/venues/${w.venue.id}/cash-backs?status=approved`, w.staff)
  assert.equal(filter.statusCode, 422, filter.body)
  assert.ok(filter.json().errors.status, filter.body)
  assert.equal((await call(app, 'POST', approveUrl(999999999, 1), w.owner)).statusCode, 404)
  assert.equal((await call(app, 'GET', '/api/venues/no-such-venue/cash-backs', w.owner)).statusCode, 404)
  assert.deepEqual(await cashBacks(app, w.venue.id, w.owner, 'all'), [])
  assert.deepEqual(await cashBacks(app, w.venue.id, w.manager, 'awaiting_approval'), [])
})
