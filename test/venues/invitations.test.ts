import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { assertUserShape, outbox } from '../accounts/helpers.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue } from '../helpers/factories.ts'

// Issue 33: inviting staff by email works for people without an account (docs/catalogue.md,
// "Staff invitations"). The clock is a ManualClock: expiry is 7 days by the app's clock.

const clock = new ManualClock('2031-05-06T04:00:00Z')
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

const DAY = 24 * 3600_000
const post = (url: string, headers: Record<string, string> | undefined, payload?: object) =>
  app.inject({ method: 'POST', url, headers, payload })
const get = (url: string, headers?: Record<string, string>) => app.inject({ method: 'GET', url, headers })
const accept = (
  token: string,
  payload: object = { name: 'New Person', password: 'secret123', password_confirmation: 'secret123' },
) => post(`/api/invitations/${token}/accept`, undefined, payload)

async function ownedVenue() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  return { owner, venue }
}

/** Invites `email` and returns the answer and the token of the mailed link. */
async function invite(venueId: number, headers: Record<string, string>, email: string, role = 'staff') {
  const res = await post(`/api/venues/${venueId}/staff`, headers, { email, role })
  assert.equal(res.statusCode, 202, res.body)
  const mails = (await outbox(app)).filter((m) => m.to === email)
  const link = /(https?:\/\/\S+\/console\/#\/invitations\/(\S+))/.exec(mails[mails.length - 1].body)
  assert.ok(link, 'the mail carries the console link')
  return { res, url: link[1], token: link[2] }
}

test('an owner invites an email without an account: 202, a mailed console link, a hashed token', async () => {
  const { owner, venue } = await ownedVenue()
  const { res, url, token } = await invite(venue.id, owner.headers, 'newbie@example.com', 'manager')
  const inv = res.json().data
  assert.deepEqual(Object.keys(inv).sort(), [
    'accepted_at',
    'email',
    'expires_at',
    'has_account',
    'id',
    'invited_at',
    'role',
    'status',
    'valid',
    'venue',
  ])
  assert.deepEqual(inv.venue, { id: venue.id, name: venue.name, name_ne: null, slug: venue.slug })
  assert.equal(inv.email, 'newbie@example.com')
  assert.equal(inv.role, 'manager')
  assert.equal(inv.status, 'pending')
  assert.equal(inv.valid, true)
  assert.equal(inv.accepted_at, null)
  // 2031-05-13 04:00Z is 09:45 in Kathmandu.
  assert.equal(inv.expires_at, '2031-05-13 09:45:00')
  assert.equal(url, `http://localhost:8000/console/#/invitations/${token}`)
  const mail = (await outbox(app)).filter((m) => m.to === 'newbie@example.com').pop()!
  assert.match(mail.subject ?? '', new RegExp(venue.name))
  const row = await app.ctx.db
    .selectFrom('venue_invitations')
    .selectAll()
    .where('id', '=', inv.id)
    .executeTakeFirstOrThrow()
  assert.notEqual(row.token_hash, token)
  assert.ok(!row.token_hash.includes(token))
  assert.equal(Number(row.invited_by), owner.id)
  assert.equal(new Date(row.expires_at).toISOString(), '2031-05-13T04:00:00.000Z')
  // Not staff yet.
  const staff = await get(`/api/venues/${venue.id}/staff`, owner.headers)
  assert.deepEqual(staff.json().data, [])

  const shown = await get(`/api/invitations/${token}`)
  assert.equal(shown.statusCode, 200)
  assert.deepEqual(shown.json().data, inv)
  assert.equal((await get('/api/invitations/not-a-token')).statusCode, 404)
  // The invitation page shows the venue's Nepali name to a Nepali reader.
  await app.ctx.db.updateTable('venues').set({ name_ne: 'बानेश्वर फुटसल' }).where('id', '=', venue.id).execute()
  assert.equal((await get(`/api/invitations/${token}`)).json().data.venue.name_ne, 'बानेश्वर फुटसल')
})

test('accepting creates a verified account, makes it staff, signs in; the link works once', async () => {
  const { owner, venue } = await ownedVenue()
  const { token } = await invite(venue.id, owner.headers, 'joiner@example.com')
  const mismatch = await accept(token, { name: 'J', password: 'secret123', password_confirmation: 'other1234' })
  assert.equal(mismatch.statusCode, 422)
  assert.deepEqual(mismatch.json().errors, { password: ['The password field confirmation does not match.'] })
  assert.equal((await accept(token, { name: 'J', password: 'short', password_confirmation: 'short' })).statusCode, 422)

  const res = await accept(token)
  assert.equal(res.statusCode, 201, res.body)
  const body = res.json()
  assert.equal(body.message, 'Invitation accepted.')
  assert.match(body.token, /^\d+\|.{40}$/)
  assertUserShape(body.data)
  assert.equal(body.data.email, 'joiner@example.com')
  assert.equal(body.data.name, 'New Person')
  assert.equal(body.data.email_verified, true)
  assert.deepEqual(body.data.roles, ['customer', 'staff'])

  const headers = { authorization: `Bearer ${body.token}` }
  assert.equal((await get('/api/auth/me', headers)).json().data.email, 'joiner@example.com')
  const staff = await get(`/api/venues/${venue.id}/staff`, owner.headers)
  assert.deepEqual(
    staff.json().data.map((m: { email: string; role: string }) => [m.email, m.role]),
    [['joiner@example.com', 'staff']],
  )
  // They sign in with the password they chose.
  const login = await post('/api/auth/login', undefined, { email: 'joiner@example.com', password: 'secret123' })
  assert.equal(login.statusCode, 200)
  // The venue is theirs to work at: its role for them is staff.
  const mine = await get(`/api/venues/${venue.id}`, headers)
  assert.equal(mine.statusCode, 200)

  // Single use.
  const again = await accept(token)
  assert.equal(again.statusCode, 410)
  assert.deepEqual(again.json(), { message: 'This invitation has already been used.' })
  const shown = (await get(`/api/invitations/${token}`)).json().data
  assert.equal(shown.status, 'accepted')
  assert.equal(shown.valid, false)
  assert.equal(shown.accepted_at, '2031-05-06 09:45:00')
})

test("the invitee's account is in the language they accepted in (Accept-Language), as register is", async () => {
  const { owner, venue } = await ownedVenue()
  const { token } = await invite(venue.id, owner.headers, 'nepali.joiner@example.com')
  const res = await app.inject({
    method: 'POST',
    url: `/api/invitations/${token}/accept`,
    headers: { 'accept-language': 'ne-NP,ne;q=0.9,en;q=0.5' },
    payload: { name: 'Sita', password: 'secret123', password_confirmation: 'secret123' },
  })
  assert.equal(res.statusCode, 201, res.body)
  assert.equal(res.json().data.locale, 'ne')
  assert.equal(res.json().message, 'निमन्त्रणा स्वीकार गरियो।')
})

test('an invitation expires 7 days later by the app clock', async () => {
  const { owner, venue } = await ownedVenue()
  const { token } = await invite(venue.id, owner.headers, 'late@example.com')
  const start = clock.now()
  try {
    clock.set(new Date(start.getTime() + 7 * DAY - 1000))
    assert.equal((await get(`/api/invitations/${token}`)).json().data.valid, true)
    clock.set(new Date(start.getTime() + 7 * DAY))
    const shown = (await get(`/api/invitations/${token}`)).json().data
    assert.equal(shown.status, 'expired')
    assert.equal(shown.valid, false)
    const res = await accept(token)
    assert.equal(res.statusCode, 410)
    assert.deepEqual(res.json(), { message: 'This invitation has expired.' })
    const user = await app.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'late@example.com')
      .executeTakeFirst()
    assert.equal(user, undefined)
    // Inviting again gives a fresh week.
    const fresh = await invite(venue.id, owner.headers, 'late@example.com')
    assert.equal((await accept(fresh.token)).statusCode, 201)
  } finally {
    clock.set(start)
  }
})

test('inviting the same email again replaces the pending invitation; the old link is 404', async () => {
  const { owner, venue } = await ownedVenue()
  const first = await invite(venue.id, owner.headers, 'twice@example.com', 'staff')
  const second = await invite(venue.id, owner.headers, 'twice@example.com', 'manager')
  assert.equal((await get(`/api/invitations/${first.token}`)).statusCode, 404)
  assert.equal((await accept(first.token)).statusCode, 404)
  const res = await accept(second.token)
  assert.equal(res.statusCode, 201)
  assert.deepEqual(res.json().data.roles, ['customer', 'manager'])
})

test('an email that has an account by the time of accepting is 422; that account accepts signed in instead', async () => {
  const { owner, venue } = await ownedVenue()
  const { res: sent, token } = await invite(venue.id, owner.headers, 'racer@example.com')
  assert.equal(sent.json().data.has_account, false)
  const racer = await createUser(app, { email: 'racer@example.com' })
  const res = await accept(token)
  assert.equal(res.statusCode, 422)
  assert.deepEqual(res.json().errors, {
    email: ['An account with this email exists already: sign in with it to accept this invitation.'],
  })
  assert.equal((await get(`/api/invitations/${token}`)).json().data.has_account, true)
  const ok = await post(`/api/me/invitations/${sent.json().data.id}/accept`, racer.headers)
  assert.equal(ok.statusCode, 200, ok.body)
  assert.equal(ok.json().data.status, 'accepted')
})

test('only the owner (or super_admin) invites: managers, staff of another venue, customers are refused', async () => {
  const { owner, venue } = await ownedVenue()
  const manager = await createUser(app, { roles: ['manager'] })
  await assignStaff(app, venue.id, manager.id, 'manager')
  const other = await ownedVenue()
  const foreignStaff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, other.venue.id, foreignStaff.id, 'staff')
  const customer = await createUser(app)
  for (const user of [manager, foreignStaff, customer, other.owner]) {
    const res = await post(`/api/venues/${venue.id}/staff`, user.headers, { email: 'x@example.com', role: 'staff' })
    assert.equal(res.statusCode, 403, res.body)
  }
  assert.equal(
    (await post(`/api/venues/${venue.id}/staff`, undefined, { email: 'x@example.com', role: 'staff' })).statusCode,
    401,
  )
  const rows = await app.ctx.db
    .selectFrom('venue_invitations')
    .select('id')
    .where('email', '=', 'x@example.com')
    .execute()
  assert.deepEqual(rows, [])
  assert.equal((await outbox(app)).filter((m) => m.to === 'x@example.com').length, 0)
  // super_admin may.
  const admin = await createUser(app, { roles: ['super_admin'] })
  await invite(venue.id, admin.headers, 'x@example.com')
  void owner
})

test('an invitation to a deleted venue is 404', async () => {
  const { owner, venue } = await ownedVenue()
  const { token } = await invite(venue.id, owner.headers, 'orphan@example.com')
  await app.ctx.db.updateTable('venues').set({ deleted_at: clock.now() }).where('id', '=', venue.id).execute()
  assert.equal((await get(`/api/invitations/${token}`)).statusCode, 404)
  assert.equal((await accept(token)).statusCode, 404)
})
