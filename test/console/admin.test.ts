import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { axeViolations, type ConsoleServer, launchBrowser, screenshot, signIn, startConsoleServer } from './browser.ts'

// The super_admin's Administration pages in a real browser against the real server: the
// verification queue (approve after reviewing the venue in a dialog; reject with a reason in a dialog), the user list (search, suspend,
// restore, roles); an owner sees no Administration, is refused on its URL, and the service answers
// 403 to the owner's approve call; axe finds no violation on either page.

describe('console: administration', () => {
  let server: ConsoleServer
  let browser: Browser
  let page: Page
  let kalankiId: number
  let jhamsikhelId: number

  const pending = async (name: string, note: string) => {
    const row = await server.app.ctx.db
      .updateTable('venues')
      .set({
        verification_status: 'pending',
        verification_requested_at: server.app.ctx.clock.now(),
        verification_reviewed_at: null,
        verification_note: note,
      })
      .where('name', '=', name)
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  }
  const venueRow = (id: number) =>
    server.app.ctx.db
      .selectFrom('venues')
      .select(['verification_status', 'verification_note'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  before(async () => {
    server = await startConsoleServer()
    kalankiId = await pending('Kalanki Sports Hub', 'Please verify Kalanki')
    jhamsikhelId = await pending('Jhamsikhel Futsal', 'Please verify Jhamsikhel')
    browser = await launchBrowser(server.app.ctx.clock)
    page = await browser.newPage({ viewport: { width: 1024, height: 768 } })
    page.setDefaultTimeout(10_000)
    await signIn(page, server.url, 'admin@courtside.test', server.seed.password)
  })
  after(async () => {
    await browser?.close()
    await server?.close()
  })

  test('the super_admin approves one venue from the queue and rejects another with a reason', async () => {
    await page.getByRole('link', { name: 'Administration' }).click()
    const queue = page.getByRole('table', { name: 'Venues waiting for verification' })
    await queue.getByRole('cell', { name: 'Kalanki Sports Hub', exact: true }).waitFor()
    assert.match(
      (await queue.getByRole('row').filter({ hasText: 'Kalanki' }).textContent()) ?? '',
      /Please verify Kalanki/,
    )

    // Approving starts with a review: details, photos, each court's week; closing it leaves it pending.
    await page.getByRole('button', { name: 'Review and approve Kalanki Sports Hub' }).click()
    let review = page.getByRole('dialog', { name: 'Approve Kalanki Sports Hub?' })
    await review.locator('table.week caption').first().waitFor()
    assert.match((await review.textContent()) ?? '', /Venue hours/)
    await review.getByRole('button', { name: 'Close' }).click()
    await review.waitFor({ state: 'detached' })
    assert.equal((await venueRow(kalankiId)).verification_status, 'pending')
    await page.getByRole('button', { name: 'Review and approve Kalanki Sports Hub' }).click()
    review = page.getByRole('dialog', { name: 'Approve Kalanki Sports Hub?' })
    await review.getByRole('button', { name: 'Approve venue' }).click()
    await page.getByRole('status').filter({ hasText: 'Kalanki Sports Hub:' }).waitFor()
    await queue.getByRole('cell', { name: 'Kalanki Sports Hub', exact: true }).waitFor({ state: 'detached' })
    assert.equal((await venueRow(kalankiId)).verification_status, 'verified')

    await page.getByRole('button', { name: 'Reject Jhamsikhel Futsal' }).click()
    const dialog = page.getByRole('dialog', { name: 'Reject Jhamsikhel Futsal?' })
    assert.deepEqual(await axeViolations(page), [], 'reject dialog')
    await dialog.getByLabel('Reason').fill('The photos do not show the court')
    await dialog.getByRole('button', { name: 'Reject verification' }).click()
    await page.getByRole('status').filter({ hasText: 'Jhamsikhel Futsal:' }).waitFor()
    await page.getByText('No venue is waiting for verification.').waitFor()
    const rejected = await venueRow(jhamsikhelId)
    assert.equal(rejected.verification_status, 'rejected')
    assert.match(rejected.verification_note ?? '', /photos do not show the court/)
  })

  test('the super_admin finds a user, suspends and restores them, and changes their roles', async () => {
    await page.goto(`${server.url}/console/#/admin/users`)
    await page.getByLabel('Name, email or phone').fill('customer@courtside')
    await page.getByRole('button', { name: 'Find' }).click()
    const rows = page.getByRole('table', { name: 'Users' }).locator('tbody tr')
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1)
    assert.match((await rows.first().textContent()) ?? '', /customer@courtside\.test/)

    await page.getByRole('button', { name: 'Suspend Bikash Thapa' }).click()
    await page.getByRole('status').filter({ hasText: 'Bikash Thapa is suspended.' }).waitFor()
    await rows.first().getByText('Suspended').waitFor()
    const user = () =>
      server.app.ctx.db
        .selectFrom('users')
        .select(['id', 'is_active'])
        .where('email', '=', 'customer@courtside.test')
        .executeTakeFirstOrThrow()
    assert.equal((await user()).is_active, false)
    await page.getByRole('button', { name: 'Restore Bikash Thapa' }).click()
    await page.getByRole('status').filter({ hasText: 'Bikash Thapa is restored' }).waitFor()
    assert.equal((await user()).is_active, true)

    await page.getByRole('button', { name: 'Roles of Bikash Thapa' }).click()
    const dialog = page.getByRole('dialog', { name: 'Roles of Bikash Thapa' })
    await dialog.getByLabel('Staff').check()
    await dialog.getByRole('button', { name: 'Save roles' }).click()
    const saved = page.getByRole('status').filter({ hasText: 'Bikash Thapa now has the roles:' })
    await saved.waitFor()
    assert.match((await saved.textContent()) ?? '', /Customer/)
    assert.match((await saved.textContent()) ?? '', /Staff/)
    const roles = await server.app.ctx.db
      .selectFrom('user_roles as m')
      .innerJoin('roles as r', 'r.id', 'm.role_id')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('r.name')
      .where('u.email', '=', 'customer@courtside.test')
      .execute()
    assert.deepEqual(roles.map((r) => r.name).sort(), ['customer', 'staff'])

    // The role filter, with paging controls.
    await page.getByLabel('Name, email or phone').fill('')
    await page.getByLabel('Role').selectOption('venue_owner')
    await page.getByRole('button', { name: 'Find' }).click()
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 2)
    const owners = await rows.allTextContents()
    assert.ok(
      owners.every((r) => r.includes('Venue owner')),
      owners.join(' | '),
    )
    await page.getByRole('navigation', { name: 'User list pages' }).getByText('Page 1 of 1').waitFor()
  })

  test('each administration page has no axe violation', async () => {
    for (const tab of ['verification', 'users']) {
      await page.goto(`${server.url}/console/#/admin/${tab}`)
      await page.waitForFunction(() => !document.querySelector('.loading'))
      const current = page.getByRole('navigation', { name: 'Administration' }).locator('a[aria-current="page"]')
      assert.equal(await current.getAttribute('href'), `#/admin/${tab}`)
      assert.deepEqual(await axeViolations(page), [], tab)
      await screenshot(page, `console-admin-${tab}`)
    }
  })

  test('an owner sees no Administration, is refused on #/admin, and the service refuses their approve call', async () => {
    const venueId = await pending('Imadol Futsal Point', 'Owner two asks')
    const owner = await browser.newPage()
    owner.setDefaultTimeout(10_000)
    await signIn(owner, server.url, 'owner1@courtside.test', server.seed.password)
    assert.equal(await owner.getByRole('link', { name: 'Administration' }).count(), 0)
    await owner.goto(`${server.url}/console/#/admin/verification`)
    await owner.getByRole('alert').filter({ hasText: 'Administration is for Courtside administrators only.' }).waitFor()
    assert.equal(await owner.getByRole('button', { name: /^Approve/ }).count(), 0)
    assert.deepEqual(await axeViolations(owner), [])

    // The same approve call the console makes, with the owner's own token.
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email: 'owner1@courtside.test', password: server.seed.password }),
    })
    const { token } = (await login.json()) as { token: string }
    const approve = await fetch(`${server.url}/api/admin/venues/${venueId}/verification/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    })
    assert.equal(approve.status, 403)
    assert.equal((await venueRow(venueId)).verification_status, 'pending')
    await owner.close()
  })
})
