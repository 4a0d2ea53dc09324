import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { before, describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { bsDate, digits, groupLakh } from '../../shared-ui/format.ts'
import { axeViolations, PHONE, screenshot, withConsole } from './browser.ts'

// The console's setting-up pages in Nepali (issue 50) on a 390-px phone, against the real server and
// the demo data: the login page offers the language switch before signing in (and the service's
// error then comes in Nepali); a new owner goes through the venue wizard in Nepali (the province a
// Nepali choice whose stored value stays "Bagmati", courts with slot lengths in Devanagari, the hours
// step with Nepali weekdays, a price band refused and saved in Nepali, the week as saved); an
// invitee reads the invitation page in Nepali (the role, the validity with its BS date, the
// service's 422 in Nepali); the owner's Manage venue Details and Courts tabs speak Nepali, with
// money in lakh grouping and Devanagari digits. Each page: no English left of the strings it
// translates, and axe finds no violation.

const PASSWORD = 'Secret@123'
const VENUE = 'Sundarijal Court Club'
const DEVANAGARI_DIGIT = /[०-९]/

describe('console: login, onboarding, the invitation and Manage Details and Courts in Nepali on a phone', () => {
  const ui = withConsole()
  const { inject, login, pageAs } = ui
  let ownerToken: string
  let wizardVenueId = 0

  before(async () => {
    ownerToken = await login('owner1@courtside.test')
    const res = await ui.server.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Sita Gurung', email: 'sita@example.com', password: PASSWORD, password_confirmation: PASSWORD },
    })
    assert.equal(res.statusCode, 201, res.body)
    await ui.server.app.ctx.db
      .updateTable('users')
      .set({ email_verified_at: ui.server.app.ctx.clock.now() })
      .where('email', '=', 'sita@example.com')
      .execute()
  })

  /** A fresh phone page (its own context: the language starts as the browser's, English). */
  async function freshPage(): Promise<Page> {
    const context = await ui.browser.newContext({ viewport: PHONE })
    const page = await context.newPage()
    page.setDefaultTimeout(15_000)
    page.once('close', () => void context.close().catch(() => {}))
    return page
  }

  /** Which of `english` the page still shows (its visible text); [] when it speaks Nepali throughout. */
  async function englishLeft(page: Page, english: string[]): Promise<string[]> {
    const text = await page.evaluate(() => document.body.innerText)
    return english.filter((s) => text.includes(s))
  }

  async function noViolations(page: Page, what: string) {
    await page.waitForFunction(() => !document.querySelector('.loading'))
    assert.deepEqual(await axeViolations(page), [], what)
    // Nothing sticks out to the right (named when something does: tag, class and width).
    const wide = await page.evaluate(() =>
      document.documentElement.scrollWidth <= window.innerWidth
        ? []
        : [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(0, 8)
            .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
    )
    assert.deepEqual(wide, [], `${what}: the page does not scroll sideways at 390 px`)
  }

  /** The error tied to the field labelled `label` (aria-describedby). */
  async function fieldError(page: Page, label: string): Promise<string> {
    const input = page.getByLabel(label, { exact: true })
    await page.waitForFunction((el) => el?.getAttribute('aria-invalid') === 'true', await input.elementHandle())
    const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id.endsWith('-error'))
    return (await page.locator(`[id="${ids[0]}"]`).textContent()) ?? ''
  }

  test('the login page offers the switch: the form in Nepali, the service refuses a wrong password in Nepali', async () => {
    const page = await freshPage()
    await page.goto(`${ui.server.url}/console/`)
    await page.getByRole('heading', { name: 'Courtside desk' }).waitFor()
    await page.getByLabel('Language').selectOption('ne')
    await page.getByRole('heading', { level: 1, name: 'कोर्टसाइड डेस्क' }).waitFor()
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ne-NP')
    assert.equal(await page.title(), 'कोर्टसाइड डेस्क')
    await page.getByText('आफ्नो भेन्यु खाताको इमेल वा फोन नम्बरबाट साइन इन गर्नुहोस्।').waitFor()
    await page.getByLabel('इमेल वा फोन').fill('nobody@courtside.test')
    await page.getByLabel('पासवर्ड').fill('not-the-password')
    await page.getByRole('button', { name: 'साइन इन', exact: true }).click()
    // The console asked in Nepali (Accept-Language): the service's own Nepali text, as it answers it.
    const answer = await ui.server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'accept-language': 'ne' },
      payload: { email: 'nobody@courtside.test', password: 'not-the-password' },
    })
    assert.equal(answer.statusCode, 403)
    const expected = answer.json().message as string
    assert.match(expected, /[\u0900-\u097F]/, 'the service answers in Nepali')
    await page.getByText(expected).waitFor()
    assert.deepEqual(
      await englishLeft(page, ['Sign in', 'Email or phone', 'Password', 'Forgot password?', 'venue account']),
      [],
    )
    await noViolations(page, 'login in Nepali, 390 px')
    await screenshot(page, 'console-login-nepali-phone')

    // Forgot password, in Nepali too.
    await page.getByRole('button', { name: 'पासवर्ड बिर्सनुभयो?' }).click()
    await page.getByRole('heading', { name: 'पासवर्ड रिसेट गर्नुहोस्' }).waitFor()
    await page.getByRole('button', { name: 'कोड पठाउनुहोस्' }).waitFor()
    assert.deepEqual(await englishLeft(page, ['Reset your password', 'Send code', 'Back to sign in']), [])
    await noViolations(page, 'forgot password in Nepali, 390 px')
    await page.getByRole('button', { name: 'साइन इनमा फर्कनुहोस्' }).click()

    // The new owner signs in: the empty venue list in Nepali, with an invitation waiting for her (the
    // role in Nepali, the validity with its BS date beside), on to the wizard.
    await invite('sita@example.com')
    const mine = (await inject('GET', '/api/me/invitations', await login('sita@example.com', PASSWORD))).json().data
    const expires = mine[0].expires_at as string
    await page.getByLabel('इमेल वा फोन').fill('sita@example.com')
    await page.getByLabel('पासवर्ड').fill(PASSWORD)
    await page.getByRole('button', { name: 'साइन इन', exact: true }).click()
    await page.getByRole('heading', { name: 'अहिलेसम्म कुनै भेन्यु छैन' }).waitFor()
    // Nepali was chosen before signing in: it stays, and it becomes the account's language.
    const sita = await login('sita@example.com', PASSWORD)
    let stored = ''
    for (let i = 0; i < 50 && stored !== 'ne'; i++) {
      if (i) await new Promise((r) => setTimeout(r, 100))
      stored = (await inject('GET', '/api/profile', sita)).json().data.locale
    }
    assert.equal(stored, 'ne')
    const invitations = page.getByRole('region', { name: 'तपाईंका लागि निम्तोहरू' })
    const offer = invitations.getByText(/ले तपाईंलाई त्यहाँ कर्मचारी भएर काम गर्न निम्तो दिएको छ/)
    await offer.waitFor()
    const offered = (await offer.textContent()) ?? ''
    assert.ok(offered.includes(bsDate(expires.slice(0, 10), 'ne')), offered)
    assert.ok(offered.includes(digits(expires.slice(11, 16), 'ne')), offered)
    await invitations.getByRole('button', { name: 'स्वीकार गर्नुहोस् बानेश्वर फुटसल एरेना को निम्तो' }).waitFor()
    assert.deepEqual(
      await englishLeft(page, [
        'No venues yet',
        'Own or run a venue?',
        'Work at one?',
        'Invitations for you',
        'Accept',
      ]),
      [],
    )
    await noViolations(page, 'no venues yet in Nepali, 390 px')
    await page.close()
  })

  test('the wizard in Nepali: the province a Nepali choice (stored in English), courts, the hours step and the week', async () => {
    const page = await freshPage()
    await page.goto(`${ui.server.url}/console/`)
    await page.getByLabel('Language').selectOption('ne')
    await page.getByLabel('इमेल वा फोन').fill('sita@example.com')
    await page.getByLabel('पासवर्ड').fill(PASSWORD)
    await page.getByRole('button', { name: 'साइन इन', exact: true }).click()
    await page.getByRole('main').getByRole('link', { name: 'आफ्नो भेन्यु थप्नुहोस्' }).click()

    // 1. Details.
    await page.getByRole('heading', { level: 1, name: 'आफ्नो भेन्यु थप्नुहोस्' }).waitFor()
    const steps = page.getByRole('navigation', { name: 'चरणहरू' })
    assert.deepEqual(await steps.locator('li').allTextContents(), [
      '१. विवरण',
      '२. कोर्टहरू',
      '३. समय र मूल्य',
      '४. फोटोहरू',
      '५. प्रमाणीकरण',
    ])
    await page.getByText('५ मध्ये चरण १।', { exact: false }).waitFor()
    assert.deepEqual(await page.getByLabel('प्रदेश').locator('option').allTextContents(), [
      'प्रदेश छान्नुहोस्',
      'कोशी',
      'मधेश',
      'बागमती',
      'गण्डकी',
      'लुम्बिनी',
      'कर्णाली',
      'सुदूरपश्चिम',
    ])
    await page.getByLabel('भेन्युको नाम').fill(VENUE)
    await page.getByLabel('ठेगाना').fill('Gokarna Road')
    await page.getByLabel('सहर').fill('Sundarijal')
    await page.getByLabel('प्रदेश').selectOption({ label: 'बागमती' })
    await page.getByLabel('अक्षांश').fill('27.7602')
    await page.getByLabel('देशान्तर').fill('85.4231')
    await page.getByLabel('खुल्ने', { exact: true }).fill('06:00')
    await page.getByLabel('बन्द हुने', { exact: true }).fill('21:00')
    await page.getByText('नक्सामा स्थान').waitFor()
    assert.equal(await page.getByRole('button', { name: 'ठूलो पार्नुहोस्' }).count(), 1, 'the zoom buttons in Nepali')
    assert.deepEqual(
      await englishLeft(page, [
        'Venue details',
        'Venue name',
        'Province',
        'Choose a province',
        'Bagmati',
        'Latitude',
        'Location on the map',
        'Create venue and continue',
        'Step 1 of 5',
      ]),
      [],
    )
    await noViolations(page, 'wizard details in Nepali, 390 px')
    await page.getByRole('button', { name: 'भेन्यु बनाएर अगाडि बढ्नुहोस्' }).click()

    // 2. Courts: the stored province is the English name.
    await page.getByRole('heading', { name: 'कोर्ट थप्नुहोस्' }).waitFor()
    const venue = await ui.server.app.ctx.db
      .selectFrom('venues')
      .select(['id', 'state'])
      .where('name', '=', VENUE)
      .executeTakeFirstOrThrow()
    wizardVenueId = venue.id
    assert.equal(venue.state, 'Bagmati')
    assert.deepEqual(await page.getByLabel('स्लटको लम्बाइ').locator('option').allTextContents(), [
      '१५ मिनेट',
      '३० मिनेट',
      '४५ मिनेट',
      '६० मिनेट',
      '९० मिनेट',
      '१२० मिनेट',
    ])
    await page.getByLabel('कोर्टको नाम').fill('Court A')
    await page.getByLabel('खेल', { exact: true }).selectOption({ label: 'फुटसल' })
    await page.getByLabel('प्रति घण्टा मूल्य (रु)').fill('1500')
    await page.getByRole('button', { name: 'कोर्ट थप्नुहोस्', exact: true }).click()
    await page.getByRole('status').filter({ hasText: 'Court A थपियो।' }).waitFor()
    const courts = page.getByRole('table', { name: 'भेन्युका कोर्टहरू' })
    const row = courts.getByRole('row', { name: /Court A/ })
    await row.waitFor()
    assert.deepEqual(await row.getByRole('cell').allTextContents(), ['Court A', 'फुटसल', 'रु १,५००.००', '६० मिनेट'])
    assert.deepEqual(await englishLeft(page, ['Add a court', 'Court name', 'Sport', 'minutes', 'Rs ']), [])
    await noViolations(page, 'wizard courts in Nepali, 390 px')
    await page.getByRole('link', { name: 'समय र मूल्यमा जानुहोस्' }).click()

    // 3. Hours in Nepali weekdays, then a band refused and saved in Nepali, with Devanagari times.
    const hours = page.getByRole('form', { name: 'खुल्ने समय' })
    const bands = page.getByRole('form', { name: 'मूल्य तहहरू' })
    await hours.waitFor()
    assert.deepEqual(await hours.locator('tbody th').allTextContents(), [
      'आइतबार',
      'सोमबार',
      'मंगलबार',
      'बुधबार',
      'बिहीबार',
      'शुक्रबार',
      'शनिबार',
    ])
    assert.equal(await hours.getByLabel('सोमबार खुल्ने').inputValue(), '06:00')
    await hours.getByLabel('शनिबार खुला').uncheck()
    await hours.getByRole('button', { name: 'खुल्ने समय सुरक्षित गर्नुहोस्' }).click()
    await page.getByRole('status').filter({ hasText: 'खुल्ने समय सुरक्षित भयो। मूल्य बदलिएन।' }).waitFor()
    await bands.getByLabel('शुक्रबार').check()
    await bands.getByLabel('तह').selectOption('peak')
    await bands.getByLabel('देखि').fill('17:00')
    await bands.getByLabel('सम्म').fill('22:00')
    await bands.getByLabel('प्रति घण्टा मूल्य (रु)').fill('2000')
    await bands.getByRole('button', { name: 'मूल्य तह थप्नुहोस्' }).click()
    await bands
      .getByRole('alert')
      .filter({ hasText: 'शुक्रबार १७:००–२२:०० Court A को खुल्ने समय (०६:००–२१:००) बाहिर पर्छ।' })
      .waitFor()
    await noViolations(page, 'wizard hours, a band outside the hours, in Nepali, 390 px')
    await bands.getByLabel('सम्म').fill('21:00')
    await bands.getByRole('button', { name: 'मूल्य तह थप्नुहोस्' }).click()
    await page.getByRole('status').filter({ hasText: 'Court A का लागि व्यस्त समय मूल्य १७:००–२१:०० सुरक्षित भयो।' }).waitFor()
    // The week as saved, in Nepali: the band's price in रु with Devanagari digits, Saturday closed.
    const week = page.getByRole('table', { name: 'Court A (फुटसल, आधार मूल्य प्रति घण्टा रु १,५००.००)' })
    await week.getByRole('row', { name: /^शुक्रबार .*रु २,०००\.००/ }).waitFor()
    await week.getByRole('row', { name: 'शनिबार बन्द' }).waitFor()
    assert.equal(await week.getByRole('row', { name: /^सोमबार/ }).textContent(), 'सोमबार०६:००–२१:००रु १,५००.०० (आधार)')
    assert.deepEqual(
      await englishLeft(page, [
        'Opening hours',
        'Monday',
        'Saturday',
        'Price bands',
        'Peak',
        'The week as saved',
        'Closed',
        '(base)',
        'Continue to photos',
      ]),
      [],
    )
    await noViolations(page, 'wizard hours in Nepali, 390 px')
    await screenshot(page, 'console-onboarding-hours-nepali-phone')

    // 4. Photos: the step in Nepali.
    await page.getByRole('link', { name: 'फोटोमा जानुहोस्' }).click()
    await page.getByLabel('फोटो (jpg, png वा webp, बढीमा ५ MB)').waitFor()
    assert.deepEqual(await englishLeft(page, ['No photos yet', 'Upload photo', 'Use as']), [])
    await noViolations(page, 'wizard photos in Nepali, 390 px')
    await page.close()
  })

  /** An invitation of the demo venue for `email`, as mailed: its token. */
  async function invite(email: string): Promise<string> {
    const res = await inject('POST', `/api/venues/${ui.venueId}/staff`, ownerToken, { email, role: 'staff' })
    assert.equal(res.statusCode, 202, res.body)
    const mails = (await readFile(ui.server.app.ctx.config.outboxFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { to: string; body: string })
      .filter((m) => m.to === email)
    const link = /\/console\/#\/invitations\/(\S+)/.exec(mails[mails.length - 1]?.body ?? '')
    assert.ok(link, 'the mail carries the console link')
    return link[1]
  }

  test('the invitation page in Nepali: the role, the validity with its BS date, the service 422 in Nepali', async () => {
    const token = await invite('newdesk@example.com')
    const shown = (await ui.server.app.inject({ method: 'GET', url: `/api/invitations/${token}` })).json().data
    const page = await freshPage()
    await page.goto(`${ui.server.url}/console/#/invitations/${token}`)
    await page.getByRole('heading', { name: 'Join a venue on Courtside' }).waitFor()
    await page.getByLabel('Language').selectOption('ne')
    await page.getByRole('heading', { name: 'कोर्टसाइडमा भेन्युमा सामेल हुनुहोस्' }).waitFor()
    const card = page.locator('section.card')
    await card.getByText('बानेश्वर फुटसल एरेना ले newdesk@example.com लाई त्यहाँ कर्मचारी भएर काम गर्न निम्तो दिएको छ।').waitFor()
    const day = (shown.expires_at as string).slice(0, 10)
    const until = await card.getByText(/निम्तो .* सम्म मान्य छ।$/).textContent()
    assert.ok(until?.includes(bsDate(day, 'ne')), `the validity with its BS date: ${until}`)
    assert.ok(until?.includes(digits((shown.expires_at as string).slice(11, 16), 'ne')), until ?? '')
    await page.getByLabel('तपाईंको नाम').fill('Hari Desk')
    await page.getByLabel('पासवर्ड', { exact: true }).fill(PASSWORD)
    await page.getByLabel('पासवर्ड फेरि लेख्नुहोस्').fill('Other@1234')
    await page.getByRole('button', { name: 'स्वीकार गरी साइन इन गर्नुहोस्' }).click()
    // The guest's request asked for Nepali: the service's own Nepali message at the field.
    const refused = await ui.server.app.inject({
      method: 'POST',
      url: `/api/invitations/${token}/accept`,
      headers: { 'accept-language': 'ne' },
      payload: { name: 'Hari Desk', password: PASSWORD, password_confirmation: 'Other@1234' },
    })
    assert.equal(refused.statusCode, 422, refused.body)
    const expected = refused.json().errors.password[0] as string
    assert.match(expected, /[\u0900-\u097F]/)
    assert.equal(await fieldError(page, 'पासवर्ड'), expected)
    assert.deepEqual(
      await englishLeft(page, [
        'Join a venue',
        'invites',
        'Your name',
        'Confirm password',
        'At least 8 characters',
        'Accept and sign in',
        'valid until',
      ]),
      [],
    )
    await noViolations(page, 'the invitation in Nepali, 390 px')
    await screenshot(page, 'console-invitation-nepali-phone')
    await page.close()
  })

  test('Manage venue in Nepali: Details (province, rules, embed) and Courts (lakh grouping, the dialogs)', async () => {
    const page = await pageAs('owner1@courtside.test', PHONE)
    await page.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/manage/details`)
    await page.getByRole('heading', { name: 'Venue details' }).waitFor()
    await page.getByLabel('Language').selectOption('ne')
    await page.getByRole('heading', { name: 'भेन्युको विवरण' }).waitFor()
    // The saved province is shown by its Nepali name, its value the stored English one.
    const province = page.getByLabel('प्रदेश')
    assert.equal(await province.inputValue(), 'Bagmati')
    assert.equal(await province.locator('option:checked').textContent(), 'बागमती')
    await page.getByLabel('न्यूनतम पूर्वसूचना (मिनेट)').waitFor()
    await page.getByText('० देखि १०,०८० सम्म।', { exact: false }).waitFor()
    await page.getByRole('heading', { name: 'आफ्नो वेबसाइटमा राख्नुहोस्' }).waitFor()
    await page.getByRole('heading', { name: 'फोटोहरू' }).waitFor()
    await page.getByRole('button', { name: 'विवरण सुरक्षित गर्नुहोस्' }).click()
    await page.getByRole('status').filter({ hasText: 'भेन्युको विवरण सुरक्षित भयो।' }).waitFor()
    const stored = await ui.server.app.ctx.db
      .selectFrom('venues')
      .select('state')
      .where('id', '=', ui.venueId)
      .executeTakeFirstOrThrow()
    assert.equal(stored.state, 'Bagmati')
    assert.deepEqual(
      await englishLeft(page, [
        'Venue details',
        'Venue name',
        'Booking rules for customers',
        'Minimum notice',
        'Customers may pay at the venue',
        'Save details',
        'Embed on your website',
        'Copy snippet',
        'Upload photo',
        'Thumbnail',
      ]),
      [],
    )
    await noViolations(page, 'Details tab in Nepali, 390 px')
    await page.evaluate(() => window.scrollTo(0, 0))
    await screenshot(page, 'console-manage-details-nepali-phone')

    // Courts: a court's price edited to a lakh and more, shown in lakh grouping with Devanagari digits.
    await page.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/manage/courts`)
    const table = page.getByRole('table', { name: 'बानेश्वर फुटसल एरेना का कोर्टहरू' })
    await table.waitFor()
    assert.deepEqual(await table.locator('thead th').allTextContents(), [
      'नाम',
      'प्रकार',
      'स्लट',
      'खेलाडी',
      'प्रति घण्टा मूल्य',
      'स्थिति',
      'कार्यहरू',
    ])
    await table.getByRole('button', { name: 'सम्पादन Court A' }).click()
    const dialog = page.getByRole('dialog', { name: 'Court A सम्पादन गर्नुहोस्' })
    await dialog.waitFor()
    assert.equal(await dialog.getByLabel('स्लटको लम्बाइ').locator('option:checked').textContent(), '६० मिनेट')
    await noViolations(page, 'the court dialog in Nepali, 390 px')
    await dialog.getByLabel('प्रति घण्टा मूल्य (रु)').fill('125000')
    await dialog.getByRole('button', { name: 'कोर्ट सुरक्षित गर्नुहोस्' }).click()
    await page.getByRole('status').filter({ hasText: 'Court A सुरक्षित भयो।' }).waitFor()
    const courtA = table.getByRole('row', { name: /^Court A/ })
    await courtA.filter({ hasText: 'रु १,२५,०००.००' }).waitFor()
    const capacity = await ui.server.app.ctx.db
      .selectFrom('courts')
      .select('capacity')
      .where('id', '=', await ui.courtId('Court A'))
      .executeTakeFirstOrThrow()
    const cells = await courtA.getByRole('cell').allTextContents()
    assert.deepEqual(cells.slice(0, 6), [
      'Court A',
      'फुटसल',
      '६० मिनेट',
      digits(groupLakh(String(capacity.capacity)), 'ne'),
      'रु १,२५,०००.००',
      'सक्रिय',
    ])
    assert.match(cells[3], DEVANAGARI_DIGIT)
    // The indoor games in Nepali too (the game's kind named in Nepali).
    const games = page.getByRole('table', { name: 'बानेश्वर फुटसल एरेना का इनडोर खेलहरू' })
    await games.getByRole('cell', { name: 'प्लेस्टेसन' }).first().waitFor()
    // Deactivating asks in Nepali.
    await table.getByRole('button', { name: 'निष्क्रिय पार्नुहोस् Court B' }).click()
    const confirm = page.getByRole('dialog', { name: 'Court B निष्क्रिय पार्ने?' })
    await confirm.getByText('Court B दैनिक बोर्डबाट हट्नेछ', { exact: false }).waitFor()
    await noViolations(page, 'the deactivate dialog in Nepali, 390 px')
    await confirm.getByRole('button', { name: 'बन्द गर्नुहोस्' }).click()
    assert.deepEqual(
      await englishLeft(page, [
        'Courts of',
        'Indoor games',
        'Price per hour',
        'Active',
        'Edit',
        'Deactivate',
        'Add a court',
        'PlayStation',
        ' min',
        'Rs ',
      ]),
      [],
    )
    await noViolations(page, 'Courts tab in Nepali, 390 px')
    await page.evaluate(() => window.scrollTo(0, 0))
    await screenshot(page, 'console-manage-courts-nepali-phone')
    assert.ok(wizardVenueId > 0)
    await page.close()
  })
})
