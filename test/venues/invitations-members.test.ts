import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { outbox } from '../accounts/helpers.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, createVenue, type TestUser } from '../helpers/factories.ts'

// Issue 51: every invitee gets an invitation, an existing account too (mail and notification), and
// becomes staff only by accepting; the owner lists, resends and withdraws pending invitations
// (docs/catalogue.md, "Staff invitations").

const clock = new ManualClock('2031-05-06T04:00:00Z')
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

const DAY = 24 * 3600_000
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, user?: TestUser, payload?: unknown) =>
  app.inject({ method, url, headers: user?.headers, payload: payload as object | undefined })

async function ownedVenue() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  return { owner, venue }
}

async function invite(venueId: number, owner: TestUser, email: string, role = 'staff') {
  const res = await call('POST', `/api/venues/${venueId}/staff`, owner, { email, role })
  assert.equal(res.statusCode, 202, res.body)
  return res.json().data as { id: number; email: string; role: string; status: string; expires_at: string }
}

function lastLink(mails: { to: string; body: string }[], email: string) {
  const mine = mails.filter((m) => m.to === email)
  const link = /\/console\/#\/invitations\/(\S+)/.exec(mine[mine.length - 1]?.body ?? '')
  assert.ok(link, `a link mailed to ${email}`)
  return link[1]
}

const rolesAt = async (venueId: number, userId: number) =>
  (
    await app.ctx.db
      .selectFrom('venue_staff')
      .select('role')
      .where('venue_id', '=', venueId)
      .where('user_id', '=', userId)
      .execute()
  ).map((r) => r.role)

test('an existing account is invited (mail and notification), is not staff until it accepts, then is', async () => {
  const { owner, venue } = await ownedVenue()
  const member = await createUser(app, { name: 'Sita Desk' })
  const inv = await invite(venue.id, owner, member.email, 'staff')
  assert.equal(inv.status, 'pending')
  // Mail with the console link, saying to sign in.
  const mails = await outbox(app)
  const token = lastLink(mails, member.email)
  assert.match(mails.filter((m) => m.to === member.email).pop()!.body, /sign in with your Courtside account/)
  // Notification in the inbox.
  const inbox = (await call('GET', '/api/notifications', member)).json().data
  const note = inbox.find((n: { type: string }) => n.type === 'App\\Notifications\\StaffInvitation')
  assert.ok(note, JSON.stringify(inbox))
  assert.equal(note.data.invitation_id, inv.id)
  assert.equal(note.data.venue_id, venue.id)
  assert.match(note.data.message, new RegExp(venue.name))
  // Not staff yet: no assignment, no venue access.
  assert.deepEqual(await rolesAt(venue.id, member.id), [])
  assert.equal((await call('GET', `/api/venues/${venue.id}/board`, member)).statusCode, 403)
  // The public link shows it with has_account; their own list has it.
  assert.equal((await call('GET', `/api/invitations/${token}`)).json().data.has_account, true)
  const mine = (await call('GET', '/api/me/invitations', member)).json().data
  assert.deepEqual(
    mine.map((i: { id: number }) => i.id),
    [inv.id],
  )

  const ok = await call('POST', `/api/me/invitations/${inv.id}/accept`, member)
  assert.equal(ok.statusCode, 200, ok.body)
  assert.equal(ok.json().data.status, 'accepted')
  assert.equal(ok.json().data.accepted_at, '2031-05-06 09:45:00')
  assert.deepEqual(await rolesAt(venue.id, member.id), ['staff'])
  assert.equal((await call('GET', `/api/venues/${venue.id}/board`, member)).statusCode, 200)
  // Once: a second accept is 410; it leaves the pending lists.
  const again = await call('POST', `/api/me/invitations/${inv.id}/accept`, member)
  assert.equal(again.statusCode, 410)
  assert.deepEqual(again.json(), { message: 'This invitation has already been used.' })
  assert.deepEqual((await call('GET', '/api/me/invitations', member)).json().data, [])
  assert.deepEqual((await call('GET', `/api/venues/${venue.id}/invitations`, owner)).json().data, [])
})

test('only the invited account accepts: someone else 404, unknown 404, signed out 401, expired 410', async () => {
  const { owner, venue } = await ownedVenue()
  const member = await createUser(app)
  const stranger = await createUser(app)
  const inv = await invite(venue.id, owner, member.email)
  assert.equal((await call('POST', `/api/me/invitations/${inv.id}/accept`, stranger)).statusCode, 404)
  assert.equal((await call('POST', `/api/me/invitations/${inv.id}/accept`, owner)).statusCode, 404)
  assert.equal((await call('POST', '/api/me/invitations/999999999/accept', member)).statusCode, 404)
  assert.equal((await call('POST', `/api/me/invitations/${inv.id}/accept`)).statusCode, 401)
  assert.equal((await call('GET', '/api/me/invitations')).statusCode, 401)
  const start = clock.now()
  try {
    clock.set(new Date(start.getTime() + 7 * DAY))
    assert.deepEqual((await call('GET', '/api/me/invitations', member)).json().data, [])
    const late = await call('POST', `/api/me/invitations/${inv.id}/accept`, member)
    assert.equal(late.statusCode, 410)
    assert.deepEqual(late.json(), { message: 'This invitation has expired.' })
  } finally {
    clock.set(start)
  }
  assert.deepEqual(await rolesAt(venue.id, member.id), [])
})

test('two accepts of one invitation racing: one 200, one 410, one assignment', async () => {
  const { owner, venue } = await ownedVenue()
  const member = await createUser(app)
  const inv = await invite(venue.id, owner, member.email, 'manager')
  const answers = await Promise.all([
    call('POST', `/api/me/invitations/${inv.id}/accept`, member),
    call('POST', `/api/me/invitations/${inv.id}/accept`, member),
  ])
  assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 410])
  assert.deepEqual(await rolesAt(venue.id, member.id), ['manager'])
})

test('inviting: the owner is 422, the same role twice 409, validation 422 (no coercion)', async () => {
  const { owner, venue } = await ownedVenue()
  const own = await call('POST', `/api/venues/${venue.id}/staff`, owner, { email: owner.email, role: 'staff' })
  assert.equal(own.statusCode, 422)
  assert.deepEqual(own.json().errors, { email: ['The owner of the venue cannot be assigned as staff.'] })
  const staff = await createUser(app)
  await assignStaff(app, venue.id, staff.id, 'staff')
  const twice = await call('POST', `/api/venues/${venue.id}/staff`, owner, { email: staff.email, role: 'staff' })
  assert.equal(twice.statusCode, 409)
  for (const body of [{ email: 5, role: 'staff' }, { email: 'x@example.com', role: 7 }, { role: 'staff' }]) {
    const res = await call('POST', `/api/venues/${venue.id}/staff`, owner, body)
    assert.equal(res.statusCode, 422, res.body)
    assert.equal(res.json().message, 'The given data was invalid.')
  }
})

test('the owner lists pending and expired invitations, newest first; who may list', async () => {
  const { owner, venue } = await ownedVenue()
  const start = clock.now()
  const first = await invite(venue.id, owner, 'first@example.com')
  try {
    clock.set(new Date(start.getTime() + 8 * DAY))
    const second = await invite(venue.id, owner, 'second@example.com', 'manager')
    const res = await call('GET', `/api/venues/${venue.id}/invitations`, owner)
    assert.equal(res.statusCode, 200, res.body)
    const list = res.json().data
    assert.deepEqual(
      list.map((i: { id: number; status: string }) => [i.id, i.status]),
      [
        [second.id, 'pending'],
        [first.id, 'expired'],
      ],
    )
    assert.equal(list[0].has_account, false)
  } finally {
    clock.set(start)
  }
  const manager = await createUser(app, { roles: ['manager'] })
  await assignStaff(app, venue.id, manager.id, 'manager')
  const other = await ownedVenue()
  for (const who of [manager, other.owner, await createUser(app)]) {
    assert.equal((await call('GET', `/api/venues/${venue.id}/invitations`, who)).statusCode, 403)
  }
  assert.equal((await call('GET', `/api/venues/${venue.id}/invitations`)).statusCode, 401)
  assert.equal((await call('GET', '/api/venues/999999999/invitations', owner)).statusCode, 404)
  const admin = await createUser(app, { roles: ['super_admin'] })
  assert.equal((await call('GET', `/api/venues/${venue.id}/invitations`, admin)).json().data.length, 2)
})

test('resend: a new link valid 7 more days, the old one 404; accepted 409; other venue 404; who may', async () => {
  const { owner, venue } = await ownedVenue()
  const inv = await invite(venue.id, owner, 'resend@example.com')
  const oldToken = lastLink(await outbox(app), 'resend@example.com')
  const start = clock.now()
  try {
    clock.set(new Date(start.getTime() + 3 * DAY))
    const res = await call('POST', `/api/venues/${venue.id}/invitations/${inv.id}/resend`, owner)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.json().data.id, inv.id)
    // 2031-05-16 04:00Z is 09:45 in Kathmandu.
    assert.equal(res.json().data.expires_at, '2031-05-16 09:45:00')
    const newToken = lastLink(await outbox(app), 'resend@example.com')
    assert.notEqual(newToken, oldToken)
    assert.equal((await call('GET', `/api/invitations/${oldToken}`)).statusCode, 404)
    assert.equal((await call('GET', `/api/invitations/${newToken}`)).json().data.status, 'pending')

    const manager = await createUser(app, { roles: ['manager'] })
    await assignStaff(app, venue.id, manager.id, 'manager')
    assert.equal((await call('POST', `/api/venues/${venue.id}/invitations/${inv.id}/resend`, manager)).statusCode, 403)
    const other = await ownedVenue()
    assert.equal(
      (await call('POST', `/api/venues/${other.venue.id}/invitations/${inv.id}/resend`, other.owner)).statusCode,
      404,
    )
    assert.equal((await call('POST', `/api/venues/${venue.id}/invitations/abc/resend`, owner)).statusCode, 404)

    const accepted = await call('POST', `/api/invitations/${newToken}/accept`, undefined, {
      name: 'Re Sent',
      password: 'secret123',
      password_confirmation: 'secret123',
    })
    assert.equal(accepted.statusCode, 201, accepted.body)
    const late = await call('POST', `/api/venues/${venue.id}/invitations/${inv.id}/resend`, owner)
    assert.equal(late.statusCode, 409)
    assert.deepEqual(late.json(), { message: 'This invitation has already been accepted.' })
  } finally {
    clock.set(start)
  }
})

test('withdraw: the link stops working and the list forgets it; accepted 409; twice 404; who may', async () => {
  const { owner, venue } = await ownedVenue()
  const member = await createUser(app)
  const inv = await invite(venue.id, owner, member.email)
  const token = lastLink(await outbox(app), member.email)
  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, venue.id, staff.id, 'staff')
  assert.equal((await call('DELETE', `/api/venues/${venue.id}/invitations/${inv.id}`, staff)).statusCode, 403)
  const res = await call('DELETE', `/api/venues/${venue.id}/invitations/${inv.id}`, owner)
  assert.equal(res.statusCode, 200, res.body)
  assert.deepEqual(res.json(), { message: 'Invitation withdrawn.' })
  assert.equal((await call('GET', `/api/invitations/${token}`)).statusCode, 404)
  assert.equal((await call('POST', `/api/me/invitations/${inv.id}/accept`, member)).statusCode, 404)
  assert.deepEqual((await call('GET', `/api/venues/${venue.id}/invitations`, owner)).json().data, [])
  assert.equal((await call('DELETE', `/api/venues/${venue.id}/invitations/${inv.id}`, owner)).statusCode, 404)

  const next = await invite(venue.id, owner, member.email, 'manager')
  assert.equal((await call('POST', `/api/me/invitations/${next.id}/accept`, member)).statusCode, 200)
  const late = await call('DELETE', `/api/venues/${venue.id}/invitations/${next.id}`, owner)
  assert.equal(late.statusCode, 409)
  assert.deepEqual(await rolesAt(venue.id, member.id), ['manager'])
})
