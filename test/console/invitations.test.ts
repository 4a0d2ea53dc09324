import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { describe, test } from 'node:test'
import { createUser } from '../helpers/factories.ts'
import { axeViolations, PHONE, withConsole } from './browser.ts'

// Issue 51 in Chromium: the owner invites an existing account and another address on a phone (the
// role dropdown fits), sees them pending, resends one and withdraws the other on a desktop; the
// existing account opens the mailed link, signs in there and accepts, and only then works at the
// venue; on a phone too. axe on each page.

describe('staff invitations for existing accounts (issue 51)', () => {
  const ui = withConsole()

  async function lastLink(email: string): Promise<string> {
    const mails = (await readFile(ui.server.app.ctx.config.outboxFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { to: string; body: string })
      .filter((m) => m.to === email)
    const link = /\/console\/#\/invitations\/(\S+)/.exec(mails[mails.length - 1]?.body ?? '')
    assert.ok(link, `a link mailed to ${email}`)
    return link[1]
  }
  const staffAt = async (email: string) =>
    ui.server.app.ctx.db
      .selectFrom('venue_staff as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select('s.role')
      .where('s.venue_id', '=', ui.venueId)
      .where('u.email', '=', email)
      .executeTakeFirst()

  test('on a phone the owner invites; the role dropdown fits the screen; both wait as pending', async () => {
    const phone = await ui.pageAs('owner1@courtside.test', PHONE)
    await phone.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/manage/staff`)
    await phone.getByRole('heading', { name: 'Invite by email' }).waitFor()
    assert.equal(await phone.getByText('needs a Courtside account').count(), 0)
    const role = (await phone.getByLabel('Role').boundingBox())!
    assert.ok(role.x >= 0 && role.x + role.width <= PHONE.width, `the role dropdown at ${role.x}+${role.width}px`)
    await phone.getByLabel('Email').fill('customer@courtside.test')
    await phone.getByLabel('Role').selectOption('staff')
    await phone.getByRole('button', { name: 'Invite' }).click()
    await phone
      .getByRole('status')
      .filter({ hasText: 'customer@courtside.test has a Courtside account: they were notified and emailed' })
      .waitFor()
    await phone.getByLabel('Email').fill('later@example.com')
    await phone.getByRole('button', { name: 'Invite' }).click()
    await phone.getByRole('status').filter({ hasText: 'later@example.com was emailed a link' }).waitFor()
    const pending = phone.getByRole('table', { name: /not accepted yet/ })
    await pending.getByRole('cell', { name: 'later@example.com', exact: true }).waitFor()
    await pending.getByRole('cell', { name: 'customer@courtside.test', exact: true }).waitFor()
    assert.equal(await staffAt('customer@courtside.test'), undefined, 'not staff before accepting')
    assert.deepEqual(await axeViolations(phone), [], 'staff page with pending invitations, 390 px')
  })

  test('on a desktop the owner resends one invitation and withdraws another', async () => {
    const desk = await ui.pageAs('owner1@courtside.test')
    await desk.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/manage/staff`)
    const pending = desk.getByRole('table', { name: /not accepted yet/ })
    await pending.getByRole('cell', { name: 'later@example.com', exact: true }).waitFor()
    const before = await lastLink('customer@courtside.test')
    await desk.getByRole('button', { name: 'Resend customer@courtside.test' }).click()
    await desk
      .getByRole('status')
      .filter({ hasText: 'The invitation to customer@courtside.test was sent again' })
      .waitFor()
    assert.notEqual(await lastLink('customer@courtside.test'), before)
    const withdrawn = await lastLink('later@example.com')
    await desk.getByRole('button', { name: 'Withdraw later@example.com' }).click()
    const dialog = desk.getByRole('dialog', { name: 'Withdraw the invitation to later@example.com?' })
    assert.deepEqual(await axeViolations(desk), [], 'withdraw dialog, desktop')
    await dialog.getByRole('button', { name: 'Withdraw' }).click()
    await desk.getByRole('status').filter({ hasText: 'The invitation to later@example.com was withdrawn' }).waitFor()
    // The table is read again after the notice: wait for the row to go rather than count at once.
    await pending.getByRole('cell', { name: 'later@example.com', exact: true }).waitFor({ state: 'detached' })
    const gone = await ui.server.app.inject({ method: 'GET', url: `/api/invitations/${withdrawn}` })
    assert.equal(gone.statusCode, 404)
    assert.deepEqual(await axeViolations(desk), [], 'staff page after withdrawing, desktop')
  })

  test('the existing account opens the link on a desktop, signs in there, accepts and lands on the board', async () => {
    const token = await lastLink('customer@courtside.test')
    const context = await ui.browser.newContext({ viewport: { width: 1280, height: 900 } })
    const p = await context.newPage()
    try {
      await p.goto(`${ui.server.url}/console/#/invitations/${token}`)
      await p.getByText('customer@courtside.test already has a Courtside account. Sign in with it to accept.').waitFor()
      assert.equal(await p.getByLabel('Email or phone').inputValue(), 'customer@courtside.test')
      assert.deepEqual(await axeViolations(p), [], 'invitation for an existing account, signed out, desktop')
      await p.getByLabel('Password').fill(ui.server.seed.password)
      await p.getByRole('button', { name: 'Sign in' }).click()
      const accept = p.getByRole('button', { name: /^Accept and join / })
      await accept.waitFor()
      assert.equal(await staffAt('customer@courtside.test'), undefined, 'signing in is not accepting')
      assert.deepEqual(await axeViolations(p), [], 'invitation, signed in, desktop')
      await accept.click()
      await p.waitForURL(new RegExp(`#/venues/${ui.venueId}/board`))
      await p.locator('.board-grid').waitFor()
      assert.deepEqual(await staffAt('customer@courtside.test'), { role: 'staff' })
    } finally {
      await context.close()
    }
  })

  test('on a phone an existing account accepts from "Invitations for you" after signing in', async () => {
    await createUser(ui.server.app, { email: 'coach@example.com', password: 'Coach@12345' })
    const owner = await ui.login('owner1@courtside.test')
    const sent = await ui.inject('POST', `/api/venues/${ui.venueId}/staff`, owner, {
      email: 'coach@example.com',
      role: 'manager',
    })
    assert.equal(sent.statusCode, 202, sent.body)
    const phone = await ui.pageAs('coach@example.com', { ...PHONE, password: 'Coach@12345' })
    const mine = phone.getByRole('region', { name: 'Invitations for you' })
    await mine.waitFor()
    assert.deepEqual(await axeViolations(phone), [], 'invitations for you, 390 px')
    await mine.getByRole('button', { name: /^Accept/ }).click()
    await phone.waitForURL(new RegExp(`#/venues/${ui.venueId}/board`))
    assert.deepEqual(await staffAt('coach@example.com'), { role: 'manager' })
  })
})
