import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { after, before, describe, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { PNG } from '../venues/multipart.ts'
import {
  axeViolations,
  type ConsoleServer,
  demoVenueId,
  launchBrowser,
  screenshot,
  signIn,
  startConsoleServer,
} from './browser.ts'

// Issue 33, owner onboarding in the console, in Chromium against the real server: a verified user
// with no venue creates one through the wizard (details, courts, hours and prices for several courts
// at once, a photo, the verification request) and sees it pending; an unverified email gets the
// service's 403 with a hint; an invitee without an account accepts a staff invitation and lands on
// the board; used, expired and unknown invitations are said so; the super admin reviews the new
// venue in a dialog and approves it only after confirming. axe at 390×844 and on a desktop.

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }
const PASSWORD = 'Secret@123'
const VENUE = 'Sundarijal Court Club'

describe('console: owner onboarding', () => {
  let server: ConsoleServer
  let browser: Browser
  let venueId = 0

  async function register(email: string, verified: boolean) {
    const res = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ name: `Person ${email}`, email, password: PASSWORD, password_confirmation: PASSWORD }),
    })
    assert.equal(res.status, 201, await res.text())
    if (verified) {
      await server.app.ctx.db
        .updateTable('users')
        .set({ email_verified_at: server.app.ctx.clock.now() })
        .where('email', '=', email)
        .execute()
    }
  }

  async function page(viewport = DESKTOP): Promise<Page> {
    const p = await browser.newPage({ viewport })
    p.setDefaultTimeout(15_000)
    return p
  }

  async function noViolations(p: Page, what: string) {
    await p.waitForFunction(() => !document.querySelector('.loading'))
    assert.deepEqual(await axeViolations(p), [], what)
  }

  /** The error shown under the field labelled `label` (tied to it by aria-describedby). */
  async function fieldError(p: Page, label: string): Promise<string> {
    const input = p.getByLabel(label, { exact: true })
    await p.waitForFunction((el) => el?.getAttribute('aria-invalid') === 'true', await input.elementHandle())
    const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id.endsWith('-error'))
    assert.equal(ids.length, 1, `an error is tied to ${label}`)
    return (await p.locator(`[id="${ids[0]}"]`).textContent()) ?? ''
  }

  before(async () => {
    server = await startConsoleServer()
    browser = await launchBrowser(server.app.ctx.clock)
    await register('newowner@example.com', true)
    await register('unverified@example.com', false)
  })
  after(async () => {
    await browser?.close()
    await server?.close()
  })

  test('a verified user with no venue creates one through the wizard and sees it pending', async () => {
    const p = await page()
    await signIn(p, server.url, 'newowner@example.com', PASSWORD)
    await p.getByRole('heading', { name: 'No venues yet' }).waitFor()
    await noViolations(p, 'no venues yet')
    await p.getByRole('main').getByRole('link', { name: 'Add your venue' }).click()

    // 1. Details: the service's 422 is shown at its field.
    await p.getByLabel('Venue name').fill(VENUE)
    await p.getByLabel('Address').fill('Gokarna Road')
    await p.getByLabel('City').fill('Sundarijal')
    // Nepal's seven provinces, as a choice (issue 51).
    assert.deepEqual(await p.getByLabel('Province').locator('option').allTextContents(), [
      'Choose a province',
      'Koshi',
      'Madhesh',
      'Bagmati',
      'Gandaki',
      'Lumbini',
      'Karnali',
      'Sudurpashchim',
    ])
    await p.getByLabel('Province').selectOption('Bagmati')
    await p.getByLabel('Latitude').fill('27.7602')
    await p.getByLabel('Longitude').fill('85.4231')
    await p.getByLabel('Opens', { exact: true }).fill('06:00')
    await p.getByLabel('Closes', { exact: true }).fill('05:00')
    await p.getByRole('button', { name: 'Create venue and continue' }).click()
    assert.match(await fieldError(p, 'Closes'), /after/)
    await noViolations(p, 'details step with an error')
    assert.equal(
      await server.app.ctx.db.selectFrom('venues').select('id').where('name', '=', VENUE).executeTakeFirst(),
      undefined,
    )
    await p.getByLabel('Closes', { exact: true }).fill('21:00')
    await p.getByRole('button', { name: 'Create venue and continue' }).click()

    // 2. Courts: two of them.
    await p.getByRole('heading', { name: 'Add a court' }).waitFor()
    const venue = await server.app.ctx.db
      .selectFrom('venues as v')
      .innerJoin('users as u', 'u.id', 'v.owner_id')
      .select(['v.id', 'v.verification_status', 'u.email'])
      .where('v.name', '=', VENUE)
      .executeTakeFirstOrThrow()
    venueId = venue.id
    assert.equal(venue.email, 'newowner@example.com')
    assert.equal(venue.verification_status, 'unverified')
    assert.equal(new URL(p.url()).hash, `#/new-venue/${venueId}/courts`)
    // No sport: the service's 422 (the court's type) is shown at Sport.
    // Slot lengths in order, 60 minutes chosen (issue 51).
    assert.deepEqual(await p.getByLabel('Slot length').locator('option').allTextContents(), [
      '15 minutes',
      '30 minutes',
      '45 minutes',
      '60 minutes',
      '90 minutes',
      '120 minutes',
    ])
    assert.equal(await p.getByLabel('Slot length').inputValue(), '60')
    await p.getByLabel('Court name').fill('Court A')
    await p.getByLabel('Price per hour (Rs)').fill('1500')
    await p.getByRole('button', { name: 'Add court' }).click()
    assert.match(await fieldError(p, 'Sport'), /type field is required/)
    for (const [name, price] of [
      ['Court A', '1500'],
      ['Court B', '1200'],
    ]) {
      await p.getByLabel('Court name').fill(name)
      await p.getByLabel('Sport').selectOption({ label: 'Futsal' })
      await p.getByLabel('Price per hour (Rs)').fill(price)
      await p.getByRole('button', { name: 'Add court' }).click()
      await p
        .getByRole('status')
        .filter({ hasText: `${name} is added.` })
        .waitFor()
    }
    await p.getByRole('table', { name: "The venue's courts" }).getByRole('cell', { name: 'Court B' }).waitFor()
    await noViolations(p, 'courts step')
    await p.getByRole('link', { name: 'Continue to hours and prices' }).click()

    // 3. Opening hours per weekday, then an evening price band (issue 51): the band never changes
    // the hours, and a band outside them is refused with a clear message before anything is saved.
    const hours = p.getByRole('form', { name: 'Opening hours' })
    const bands = p.getByRole('form', { name: 'Price bands' })
    await hours.waitFor()
    assert.equal(await hours.getByLabel('Court A').isChecked(), true)
    assert.equal(await hours.getByLabel('Court B').isChecked(), true)
    // The venue's hours are the start: 06:00–21:00 every day.
    assert.equal(await hours.getByLabel('Monday opens').inputValue(), '06:00')
    assert.equal(await hours.getByLabel('Monday closes').inputValue(), '21:00')
    await hours.getByLabel('Open on Saturday').uncheck()
    await hours.getByRole('button', { name: 'Save opening hours' }).click()
    await p.getByRole('status').filter({ hasText: 'Opening hours saved. Prices are unchanged.' }).waitFor()
    // No day is chosen for a band until the owner picks one.
    for (const day of ['Sunday', 'Monday', 'Friday', 'Saturday']) {
      assert.equal(await bands.getByLabel(day).isChecked(), false, day)
    }
    await bands.getByLabel('Friday').check()
    await bands.getByLabel('Band').selectOption('peak')
    await bands.getByLabel('From').fill('17:00')
    await bands.getByLabel('To').fill('22:00')
    await bands.getByLabel('Price per hour (Rs)').fill('2000')
    await bands.getByRole('button', { name: 'Add price band' }).click()
    await bands
      .getByRole('alert')
      .filter({ hasText: 'Friday 17:00–22:00 is outside the opening hours of Court A (06:00–21:00).' })
      .waitFor()
    await noViolations(p, 'hours step, a band outside the opening hours')
    await bands.getByLabel('To').fill('21:00')
    await bands.getByRole('button', { name: 'Add price band' }).click()
    await p
      .getByRole('status')
      .filter({ hasText: 'Peak price 17:00–21:00 saved for Court A, Court B. Opening hours are unchanged.' })
      .waitFor()
    const week = p.getByRole('table', { name: /^Court A/ })
    await week.getByRole('row', { name: /Saturday Closed/ }).waitFor()
    // The week is read again after the band is saved: wait for the new price before reading the row.
    await week.getByRole('row', { name: /^Friday.*Rs 2,000\.00/ }).waitFor()
    assert.match((await week.getByRole('row', { name: /^Friday/ }).textContent()) ?? '', /06:00–21:00.*Rs 2,000\.00/)
    await noViolations(p, 'hours step')
    await screenshot(p, 'console-onboarding')

    const courts = await server.app.ctx.db
      .selectFrom('courts')
      .select(['id', 'name'])
      .where('venue_id', '=', venueId)
      .orderBy('name')
      .execute()
    assert.deepEqual(
      courts.map((c) => c.name),
      ['Court A', 'Court B'],
    )
    for (const court of courts) {
      const days = await server.app.ctx.db
        .selectFrom('court_schedules')
        .select(['day_of_week', 'open_time', 'close_time', 'is_closed'])
        .where('court_id', '=', court.id)
        .orderBy('day_of_week')
        .execute()
      // The opening hours are intact after the evening band: 06:00–21:00, Saturday closed.
      assert.deepEqual(
        days.map((d) => (d.is_closed ? 'closed' : `${d.open_time}-${d.close_time}`)),
        [...Array(6).fill('06:00:00-21:00:00'), 'closed'],
      )
      const rules = await server.app.ctx.db
        .selectFrom('pricing_rules')
        .select(['type', 'day_of_week', 'start_time', 'end_time', 'price_per_hour'])
        .where('court_id', '=', court.id)
        .execute()
      assert.deepEqual(
        rules.map((r) => ({ ...r, price_per_hour: Number(r.price_per_hour) })),
        [{ type: 'peak', day_of_week: 5, start_time: '17:00:00', end_time: '21:00:00', price_per_hour: 200000 }],
      )
    }
    await p.getByRole('link', { name: 'Continue to photos' }).click()

    // 4. Photos, through the photo API.
    await p.getByLabel('Photo (jpg, png or webp, at most 5 MB)').setInputFiles({
      name: 'court.png',
      mimeType: 'image/png',
      buffer: PNG,
    })
    await p.getByRole('button', { name: 'Upload photo' }).click()
    await p.getByRole('status').filter({ hasText: 'The photo is uploaded.' }).waitFor()
    await p.locator('.image-list img').first().waitFor()
    await noViolations(p, 'photos step')
    await p.getByRole('link', { name: 'Continue to verification' }).click()

    // 5. The verification request: pending, and still out of the catalogue.
    await p.getByLabel('Note for the reviewer').fill('Opened last month; call after 10.')
    await p.getByRole('button', { name: 'Request verification' }).click()
    await p.getByText('Waiting for review').waitFor()
    await noViolations(p, 'verification step')
    const pending = await server.app.ctx.db
      .selectFrom('venues')
      .select('verification_status')
      .where('id', '=', venueId)
      .executeTakeFirstOrThrow()
    assert.equal(pending.verification_status, 'pending')
    const catalogue = await (await fetch(`${server.url}/api/venues?city=Sundarijal`)).json()
    assert.deepEqual(catalogue.data, [])

    // The same steps on a phone.
    await p.setViewportSize(PHONE)
    for (const step of ['details', 'courts', 'hours', 'photos', 'verification']) {
      await p.goto(`${server.url}/console/#/new-venue/${venueId}/${step}`)
      await p.getByRole('navigation', { name: 'Steps' }).locator('[aria-current="step"]').waitFor()
      await noViolations(p, `${step} at 390×844`)
    }
    await p.close()
  })

  test('an unverified email gets the service 403 with a hint, and may ask for the link again', async () => {
    const p = await page(PHONE)
    await signIn(p, server.url, 'unverified@example.com', PASSWORD)
    await p.goto(`${server.url}/console/#/new-venue`)
    await p.getByLabel('Venue name').fill('Never Created Arena')
    await p.getByRole('button', { name: 'Create venue and continue' }).click()
    const alert = p.getByRole('alert').filter({ hasText: 'Verify your email address before creating a venue.' })
    await alert.waitFor()
    assert.match((await alert.textContent()) ?? '', /Open the link in the email/)
    await noViolations(p, 'unverified at 390×844')
    await alert.getByRole('button', { name: 'Send the verification email again' }).click()
    await p
      .getByRole('status')
      .filter({ hasText: /verification link/i })
      .waitFor()
    const roles = await server.app.ctx.db
      .selectFrom('user_roles as ur')
      .innerJoin('users as u', 'u.id', 'ur.user_id')
      .innerJoin('roles as r', 'r.id', 'ur.role_id')
      .select('r.name')
      .where('u.email', '=', 'unverified@example.com')
      .execute()
    assert.deepEqual(
      roles.map((r) => r.name),
      ['customer'],
    )
    // Another person's venue is refused in the wizard too.
    await p.goto(`${server.url}/console/#/new-venue/${await demoVenueId(server)}/courts`)
    await p.getByRole('alert').filter({ hasText: 'This venue is not one of yours.' }).waitFor()
    await p.close()
  })

  async function invite(email: string): Promise<string> {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email: 'owner1@courtside.test', password: server.seed.password }),
    })
    const { token } = (await login.json()) as { token: string }
    const res = await fetch(`${server.url}/api/venues/${await demoVenueId(server)}/staff`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email, role: 'staff' }),
    })
    assert.equal(res.status, 202, await res.text())
    const mails = (await readFile(server.app.ctx.config.outboxFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { to: string; body: string })
      .filter((m) => m.to === email)
    const link = /\/console\/#\/invitations\/(\S+)/.exec(mails[mails.length - 1]?.body ?? '')
    assert.ok(link, 'the mail carries the console link')
    return link[1]
  }

  test('an invitee without an account accepts the invitation, is signed in and lands on the board', async () => {
    const token = await invite('newdesk@example.com')
    const boardId = await demoVenueId(server)
    for (const viewport of [PHONE, DESKTOP]) {
      const look = await page(viewport)
      await look.goto(`${server.url}/console/#/invitations/${token}`)
      await look.getByText('Baneshwor Futsal Arena invites newdesk@example.com').waitFor()
      await noViolations(look, `invitation at ${viewport.width}px`)
      await look.close()
    }
    const p = await page(PHONE)
    await p.goto(`${server.url}/console/#/invitations/${token}`)
    // The page says "Loading the invitation…" until its answer arrives.
    await p
      .getByRole('main')
      .getByText(/to work there as staff/)
      .waitFor()
    assert.match((await p.getByRole('main').textContent()) ?? '', /to work there as staff/)
    await p.getByLabel('Your name').fill('Nabin Desk')
    await p.getByLabel('Password', { exact: true }).fill('secret123')
    await p.getByLabel('Confirm password').fill('different1')
    await p.getByRole('button', { name: 'Accept and sign in' }).click()
    assert.match(await fieldError(p, 'Password'), /confirmation/)
    await noViolations(p, 'invitation with an error')
    await p.getByLabel('Confirm password').fill('secret123')
    await p.getByRole('button', { name: 'Accept and sign in' }).click()
    await p.waitForURL(`**/console/#/venues/${boardId}/board`)
    await p.getByRole('button', { name: 'Sign out' }).waitFor()
    await p.getByRole('link', { name: 'Day board' }).waitFor()
    const staff = await server.app.ctx.db
      .selectFrom('venue_staff as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.role', 'u.name'])
      .where('u.email', '=', 'newdesk@example.com')
      .where('s.venue_id', '=', boardId)
      .executeTakeFirstOrThrow()
    assert.deepEqual(staff, { role: 'staff', name: 'Nabin Desk' })

    // The link again: used.
    await p.goto(`${server.url}/console/#/invitations/${token}`)
    await p.getByRole('alert').filter({ hasText: 'This invitation has already been accepted.' }).waitFor()
    await p.close()
  })

  test('expired and unknown invitations are said so, also when it expires while the page is open', async () => {
    const expire = (email: string) =>
      server.app.ctx.db
        .updateTable('venue_invitations')
        .set({ expires_at: new Date(server.app.ctx.clock.now().getTime() - 60_000) })
        .where('email', '=', email)
        .execute()
    const p = await page(PHONE)
    const late = await invite('late@example.com')
    await expire('late@example.com')
    await p.goto(`${server.url}/console/#/invitations/${late}`)
    await p.getByRole('alert').filter({ hasText: 'This invitation has expired.' }).waitFor()
    assert.equal(await p.getByRole('button', { name: 'Accept and sign in' }).count(), 0)
    await noViolations(p, 'expired invitation')

    await p.goto(`${server.url}/console/#/invitations/not-a-real-token`)
    await p.getByRole('alert').filter({ hasText: 'This invitation link is not valid.' }).waitFor()
    await noViolations(p, 'unknown invitation')

    const slow = await invite('slow@example.com')
    await p.goto(`${server.url}/console/#/invitations/${slow}`)
    await p.getByLabel('Your name').fill('Slow Person')
    await expire('slow@example.com')
    await p.getByLabel('Password', { exact: true }).fill('secret123')
    await p.getByLabel('Confirm password').fill('secret123')
    await p.getByRole('button', { name: 'Accept and sign in' }).click()
    await p.getByRole('alert').filter({ hasText: 'This invitation can no longer be accepted' }).waitFor()
    const account = await server.app.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'slow@example.com')
      .executeTakeFirst()
    assert.equal(account, undefined)
    await p.close()
  })

  test('the super admin reviews the new venue in a dialog and approves it only after confirming', async () => {
    assert.ok(venueId > 0, 'the wizard test made the venue')
    const p = await page()
    await signIn(p, server.url, 'admin@courtside.test', server.seed.password)
    await p.goto(`${server.url}/console/#/admin/verification`)
    await p.getByRole('button', { name: `Review and approve ${VENUE}` }).click()
    const review = p.getByRole('dialog', { name: `Approve ${VENUE}?` })
    await review.getByRole('table', { name: /^Court B/ }).waitFor()
    const text = (await review.textContent()) ?? ''
    assert.match(text, /Gokarna Road, Sundarijal, Bagmati/)
    assert.match(text, /Opened last month; call after 10\./)
    assert.match(
      (await review
        .getByRole('table', { name: /^Court A/ })
        .getByRole('row', { name: /^Friday/ })
        .textContent()) ?? '',
      /06:00–21:00.*17:00–21:00 Rs 2,000\.00/,
    )
    await review
      .getByRole('table', { name: /^Court A/ })
      .getByRole('row', { name: /Saturday Closed/ })
      .waitFor()
    assert.equal(await review.locator('.review-photos img').count(), 1)
    await noViolations(p, 'review dialog')
    await p.setViewportSize(PHONE)
    await noViolations(p, 'review dialog at 390×844')
    await p.setViewportSize(DESKTOP)

    // Closing the dialog approves nothing.
    await review.getByRole('button', { name: 'Close' }).click()
    await review.waitFor({ state: 'detached' })
    const status = async () =>
      (
        await server.app.ctx.db
          .selectFrom('venues')
          .select('verification_status')
          .where('id', '=', venueId)
          .executeTakeFirstOrThrow()
      ).verification_status
    assert.equal(await status(), 'pending')

    await p.getByRole('button', { name: `Review and approve ${VENUE}` }).click()
    await p
      .getByRole('dialog', { name: `Approve ${VENUE}?` })
      .getByRole('button', { name: 'Approve venue' })
      .click()
    await p
      .getByRole('status')
      .filter({ hasText: `${VENUE}:` })
      .waitFor()
    assert.equal(await status(), 'verified')
    const catalogue = (await (await fetch(`${server.url}/api/venues?city=Sundarijal`)).json()) as {
      data: { id: number }[]
    }
    assert.deepEqual(
      catalogue.data.map((v) => v.id),
      [venueId],
    )
    await p.close()
  })
})
