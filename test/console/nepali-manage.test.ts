import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { date, digits, money } from '../../shared-ui/format.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { Zone } from '../../src/lib/zone.ts'
import { createUser } from '../helpers/factories.ts'
import { axeViolations, PHONE, screenshot, withConsole } from './browser.ts'

// The owner's and the super admin's pages in Nepali (issue 50) on a 390-px phone, against the real
// server and the demo data: Manage venue › Pricing, Coupons and Staff, the IRD settings on Money,
// Webhooks, Reviews and Tournaments as the owner, Administration (the verification queue, the
// approval dialog, users and their roles) as the super admin. Each page is used through its Nepali
// form where it has one, reads in Nepali (no English left of its own words), writes money in lakh
// grouping with Devanagari digits (रु १,००,०००.००), dates with the BS date beside the AD one, keeps
// its wide tables in their own sideways scroll (the page never scrolls sideways), and axe finds no
// violation.

const VENUE_NE = 'बानेश्वर फुटसल एरेना'
const zone = new Zone('Asia/Kathmandu')
const TODAY = '2026-11-26'
/** "बिहि २६ नोभेम्बर २०२६ · १० मंसिर २०८३": the AD date with its weekday and the BS date beside. */
const both = (iso: string) => date(iso.slice(0, 10), 'ne', { weekday: true })
/** An instant as the translated pages show it in Nepali: both dates, then the venue time. */
const moment = (instant: string) => `${both(instant)}, ${digits(instant.slice(11, 16), 'ne')}`

describe('console: pricing, coupons, staff, IRD, webhooks, reviews, tournaments and administration in Nepali', () => {
  const ui = withConsole({ clock: new ManualClock(zone.instant(TODAY, '10:00')), timeout: 20_000 })
  const { inject, login, pageAs } = ui
  let ownerToken: string
  let owner: Page

  before(async () => {
    ownerToken = await login('owner1@courtside.test')
  })

  /** A new phone page for `email` at `hash`, switched to Nepali once `english` (its h1) shows. */
  async function inNepali(email: string, hash: string, english: string | RegExp): Promise<Page> {
    const page = await pageAs(email, PHONE)
    await page.goto(`${ui.server.url}/console/#${hash}`)
    await page.getByRole('heading', { level: 1, name: english }).waitFor()
    await page.getByLabel('Language').selectOption('ne')
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ne-NP')
    return page
  }

  /**
   * What a Nepali reader meets on the page as it is now: none of `english` (the page's own English
   * words) in the main region's text or its accessible names, no axe violation, and nothing wider
   * than the phone but inside a table's own scroll box.
   */
  async function readsNepali(page: Page, where: string, english: string[]) {
    await page.waitForLoadState('networkidle')
    const text = await page.evaluate(() => {
      const main = document.getElementById('main')
      const named = [...(main?.querySelectorAll('[aria-label], img[alt], caption') ?? [])].map(
        (el) => `${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('alt') ?? ''} ${el.textContent}`,
      )
      return `${main?.innerText ?? ''}\n${named.join('\n')}`
    })
    const left = english.filter((word) => new RegExp(`(^|[^A-Za-z])${word}([^A-Za-z]|$)`).test(text))
    assert.deepEqual(left, [], `${where}: English left`)
    assert.deepEqual(await axeViolations(page), [], `${where}: axe, 390 px`)
    const wide = await page.evaluate(() => {
      const over = [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        .filter((el) => !el.closest('.table-scroll') || el.classList.contains('table-scroll'))
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`)
      return { by: document.documentElement.scrollWidth - window.innerWidth, over: over.slice(0, 5) }
    })
    assert.ok(wide.by <= 0, `${where} is ${wide.by}px too wide at 390 px: ${wide.over.join(', ')}`)
    // Every table of the page is in its own scroll box, which a keyboard reaches.
    const loose = await page.evaluate(
      () =>
        [...document.querySelectorAll('#main table')].filter(
          (t) => !t.closest('.table-scroll[tabindex="0"]') && !t.classList.contains('preview'),
        ).length,
    )
    assert.equal(loose, 0, `${where}: a table outside a scroll box`)
  }

  test('Manage › Pricing in Nepali: kinds, weekdays, Devanagari times and prices, the preview with its BS date', async () => {
    owner = await inNepali('owner1@courtside.test', `/venues/${ui.venueId}/manage/pricing`, /^Manage /)
    const courtA = await ui.courtId('Court A')
    const rules = (await inject('GET', `/api/courts/${courtA}/pricing`, ownerToken)).json().data as {
      type: string
      day_of_week: number | null
      start_time: string
      end_time: string
      price_per_hour: string
    }[]
    const offPeak = rules.find((r) => r.type === 'off_peak' && r.day_of_week === null)
    const saturday = rules.find((r) => r.type === 'peak' && r.day_of_week === 6)
    assert.ok(offPeak && saturday, 'the demo court has an off-peak rule and a Saturday peak')
    await owner.getByRole('heading', { level: 2, name: 'Court A का मूल्य नियमहरू' }).waitFor()
    const table = owner.getByRole('table', { name: 'मूल्य नियमहरू' })
    await table.waitFor()
    assert.deepEqual(await table.locator('thead th').allTextContents(), [
      'प्रकार',
      'दिन',
      'देखि',
      'सम्म',
      'प्रति घण्टा मूल्य',
      'सक्रिय',
      'कार्यहरू',
    ])
    const row = table.getByRole('row').filter({ hasText: 'अफ-पिक समय' })
    await row.waitFor()
    assert.deepEqual((await row.getByRole('cell').allTextContents()).slice(0, 6), [
      'अफ-पिक समय',
      'हरेक दिन',
      '०६:००',
      '०९:००',
      money(offPeak.price_per_hour, 'ne'),
      'हो',
    ])
    assert.match(money(offPeak.price_per_hour, 'ne'), /^रु [०-९,]+\.००$/)
    await table.getByRole('row').filter({ hasText: 'शनिबार' }).waitFor()
    // Buttons named by their rule, in Nepali.
    await owner.getByRole('button', { name: 'सम्पादन गर्नुहोस् नियम ०६:००–०९:००, Court A, हरेक दिन' }).waitFor()
    // The preview of today's prices, with the BS date beside the AD one.
    const caption = owner.locator('table.preview caption')
    await caption.waitFor()
    assert.ok(((await caption.textContent()) ?? '').startsWith(`${both(TODAY)} का मूल्यहरू (`))
    await readsNepali(owner, 'Manage › Pricing', [
      'Pricing rules',
      'Base price',
      'Every day',
      'every day',
      'Edit',
      'Delete',
      'Add a pricing rule',
      'Price preview',
      'Preview date',
      'Slot',
      'Price per hour',
      'Kind',
      'Active',
      'Yes',
      'rule',
    ])
    // The rule dialog in Nepali: the kinds and the days to choose from.
    await owner.getByRole('button', { name: 'मूल्य नियम थप्नुहोस्' }).click()
    const dialog = owner.getByRole('dialog', { name: 'मूल्य नियम थप्नुहोस्' })
    await dialog.getByLabel('प्रति घण्टा मूल्य (रु)').waitFor()
    assert.deepEqual(await dialog.getByLabel('प्रकार').locator('option').allTextContents(), [
      'सामान्य',
      'पिक समय',
      'अफ-पिक समय',
      'बिदा',
    ])
    assert.deepEqual((await dialog.getByLabel('दिन').locator('option').allTextContents()).slice(0, 3), [
      'हरेक दिन',
      'आइतबार',
      'सोमबार',
    ])
    await dialog.getByLabel('देखि').fill('09:00')
    await dialog.getByLabel('सम्म').fill('11:00')
    await dialog.getByLabel('प्रति घण्टा मूल्य (रु)').fill('125000')
    assert.deepEqual(await axeViolations(owner), [], 'the pricing rule dialog in Nepali, 390 px')
    await dialog.getByRole('button', { name: 'नियम थप्नुहोस्' }).click()
    await owner.getByRole('status').filter({ hasText: 'Court A मा मूल्य नियम थपियो।' }).waitFor()
    // A price of more than a lakh, grouped the Nepali way.
    const added = table.getByRole('row').filter({ hasText: '०९:००' }).filter({ hasText: '११:००' })
    await added.waitFor()
    assert.equal(await added.locator('td.num').textContent(), 'रु १,२५,०००.००')
  })

  test('Manage › Coupons in Nepali: a coupon added through the form, its minimum in lakh grouping and its end with the BS date', async () => {
    await owner.getByRole('navigation', { name: 'भेन्यु व्यवस्थापन' }).getByRole('link', { name: 'कुपनहरू' }).click()
    await owner.getByRole('heading', { level: 2, name: 'कुपन थप्नुहोस्' }).waitFor()
    await owner.getByLabel('कोड').fill('DASHAIN10')
    assert.deepEqual(await owner.getByLabel('प्रकार').locator('option').allTextContents(), [
      'प्रतिशत छुट',
      'निश्चित रकम छुट (रु)',
    ])
    await owner.getByLabel('प्रतिशत छुट').fill('10')
    await owner.getByLabel('न्यूनतम बुकिङ रकम (रु)').fill('100000')
    await owner.getByLabel('मान्य रहने अन्तिम मिति').fill('2027-01-20')
    await owner.getByLabel('जम्मा प्रयोग').fill('50')
    await owner.getByRole('button', { name: 'कुपन थप्नुहोस्' }).click()
    await owner.getByRole('status').filter({ hasText: 'कुपन DASHAIN10 थपियो।' }).waitFor()
    const table = owner.getByRole('table', { name: `${VENUE_NE} का कुपनहरू` })
    const row = table.getByRole('row').filter({ hasText: 'DASHAIN10' })
    await row.waitFor()
    assert.deepEqual((await row.getByRole('cell').allTextContents()).slice(0, 6), [
      'DASHAIN10',
      '१० %',
      'रु १,००,०००.०० देखि',
      `अहिलेदेखि – ${both('2027-01-20')}`,
      '५० मध्ये ०',
      'खुला',
    ])
    await row.getByRole('button', { name: 'बन्द गर्नुहोस् DASHAIN10' }).click()
    await owner.getByRole('status').filter({ hasText: 'DASHAIN10 बन्द गरियो।' }).waitFor()
    await row.getByRole('cell', { name: 'बन्द', exact: true }).waitFor()
    await readsNepali(owner, 'Manage › Coupons', [
      'Coupons',
      'Code',
      'Discount',
      'Valid',
      'Used',
      'Status',
      'Switch on',
      'Switch off',
      'Delete',
      'Add a coupon',
      'Percent off',
      'any amount',
      'now',
      'no end',
      'from',
      'of',
    ])
  })

  test('Manage › Staff in Nepali: the staff list with its BS dates, an invitation sent and listed', async () => {
    await owner.getByRole('navigation', { name: 'भेन्यु व्यवस्थापन' }).getByRole('link', { name: 'कर्मचारी' }).click()
    const staff = (await inject('GET', `/api/venues/${ui.venueId}/staff`, ownerToken)).json().data as {
      name: string
      assigned_at: string
    }[]
    const ramesh = staff.find((m) => m.name === 'Ramesh Karki')
    assert.ok(ramesh)
    const table = owner.getByRole('table', { name: `${VENUE_NE} का कर्मचारीहरू` })
    const row = table.getByRole('row').filter({ hasText: 'Ramesh Karki' })
    await row.waitFor()
    const cells = await row.getByRole('cell').allTextContents()
    assert.equal(cells[3], 'कर्मचारी')
    assert.equal(cells[4], both(ramesh.assigned_at))
    await owner.getByLabel('इमेल').fill('sita.new@example.com')
    await owner.getByLabel('भूमिका').selectOption({ label: 'व्यवस्थापक' })
    await owner.getByRole('button', { name: 'निमन्त्रणा पठाउनुहोस्' }).click()
    const sent = owner
      .getByRole('status')
      .filter({ hasText: /^sita\.new@example\.com लाई खाता बनाएर व्यवस्थापक का रूपमा सामेल हुने लिङ्क/ })
    await sent.waitFor()
    const invitations = (await inject('GET', `/api/venues/${ui.venueId}/invitations`, ownerToken)).json().data as {
      email: string
      expires_at: string
    }[]
    const invitation = invitations.find((i) => i.email === 'sita.new@example.com')
    assert.ok(invitation)
    assert.equal(
      await sent.textContent(),
      `sita.new@example.com लाई खाता बनाएर व्यवस्थापक का रूपमा सामेल हुने लिङ्क इमेलमा पठाइयो (${moment(invitation.expires_at)} सम्म मान्य)।`,
    )
    const pending = owner
      .getByRole('table', { name: `${VENUE_NE} का स्वीकार नभएका निमन्त्रणाहरू` })
      .getByRole('row')
      .filter({ hasText: 'sita.new@example.com' })
    await pending.waitFor()
    assert.deepEqual((await pending.getByRole('cell').allTextContents()).slice(0, 4), [
      'sita.new@example.com',
      'व्यवस्थापक',
      'प्रतीक्षामा',
      moment(invitation.expires_at),
    ])
    await readsNepali(owner, 'Manage › Staff', [
      'Staff',
      'Manager',
      'Pending invitations',
      'Invite',
      'Remove',
      'Resend',
      'Withdraw',
      'Waiting',
      'Email',
      'Role',
      'Since',
      'Valid until',
      'Anyone can be invited',
    ])
  })

  test("Money › IRD settings in Nepali: the service's refusal in Nepali, then saved through the Nepali form", async () => {
    // The owner reads Nepali: their account's language (PUT /api/profile) makes the service answer in it.
    const profile = await inject('PUT', '/api/profile', ownerToken, { locale: 'ne' })
    assert.equal(profile.statusCode, 200, profile.body)
    await owner.getByRole('navigation', { name: 'खण्डहरू' }).getByRole('link', { name: 'पैसा' }).click()
    const section = owner.getByRole('heading', { name: 'आईआरडी रिपोर्टिङ (CBMS)' }).locator('..')
    await section.getByText('कुनै बीजक बाँकी वा असफल छैन।').waitFor()
    await section.getByLabel('बीजकहरू आईआरडीमा रिपोर्ट गर्नुहोस्').check()
    await section.getByLabel('CBMS प्रयोगकर्ता नाम').fill('venue-user')
    await section.getByLabel('CBMS पासवर्ड').fill('s3cret-pass')
    await section.getByLabel('बिक्रेताको प्यान').fill('601234567')
    // The service's own refusal (the venue is not VAT registered yet) comes in the owner's language.
    const body = { enabled: true, username: 'venue-user', password: 's3cret-pass', seller_pan: '601234567' }
    const refused = await inject('PUT', `/api/venues/${ui.venueId}/ird`, ownerToken, body)
    assert.equal(refused.statusCode, 422, refused.body)
    const nepaliRefusal = refused.json().message as string
    assert.match(nepaliRefusal, /[\u0900-\u097F]/, `the 422 in Nepali for a Nepali owner: ${nepaliRefusal}`)
    await section.getByRole('button', { name: 'आईआरडी रिपोर्टिङ सुरक्षित गर्नुहोस्' }).click()
    await section.getByRole('alert').filter({ hasText: nepaliRefusal }).waitFor()
    const tax = await inject('PATCH', `/api/venues/${ui.venueId}`, ownerToken, {
      pan_number: '601234567',
      vat_registered: true,
    })
    assert.equal(tax.statusCode, 200, tax.body)
    await section.getByLabel('CBMS पासवर्ड').fill('s3cret-pass')
    await section.getByRole('button', { name: 'आईआरडी रिपोर्टिङ सुरक्षित गर्नुहोस्' }).click()
    await section.getByRole('status').filter({ hasText: 'आईआरडी रिपोर्टिङ सुरक्षित भयो।' }).waitFor()
    await section.getByText('सुरक्षित छ। राखिराख्न खाली छोड्नुहोस्।').waitFor()
    const ird = (await inject('GET', `/api/venues/${ui.venueId}/ird`, ownerToken)).json().data
    assert.equal(ird.enabled, true)
    assert.equal(ird.seller_pan, '601234567')
    assert.equal((await inject('PUT', '/api/profile', ownerToken, { locale: 'en' })).statusCode, 200)
    await readsNepali(owner, 'Money with the IRD settings', [
      'IRD reporting',
      'Report invoices to IRD',
      'CBMS username',
      'CBMS password',
      'Seller PAN',
      'Save IRD reporting',
      'Stored',
      'No invoice is waiting or failed',
    ])
  })

  test('Webhooks in Nepali: an endpoint added through the Nepali form, listed with its date and BS date', async () => {
    await owner.getByRole('navigation', { name: 'खण्डहरू' }).getByRole('link', { name: 'वेबहुक' }).click()
    await owner.getByRole('heading', { level: 1, name: `${VENUE_NE} का वेबहुकहरू` }).waitFor()
    await owner.getByText('अहिलेसम्म कुनै इन्डपोइन्ट छैन।').waitFor()
    const url = 'http://127.0.0.1:9/courtside-hooks'
    await owner.getByLabel('इन्डपोइन्टको ठेगाना (URL)').fill(url)
    await owner.getByLabel('कोर्ट बुकिङ गरियो (booking.created)').check()
    await owner.getByLabel('भुक्तानी पूरा भयो (payment.completed)').check()
    await owner.getByRole('button', { name: 'इन्डपोइन्ट थप्नुहोस्' }).click()
    await owner.getByText(`इन्डपोइन्ट ${url} थपियो। यसको हस्ताक्षर गर्ने गोप्य साँचो अहिले मात्र देखाइन्छ`).waitFor()
    await owner.getByText('हस्ताक्षरको गोप्य साँचो:').waitFor()
    const hooks = (await inject('GET', `/api/venues/${ui.venueId}/webhooks`, ownerToken)).json().data as {
      id: number
      created_at: string
    }[]
    assert.equal(hooks.length, 1)
    const row = owner.getByRole('table', { name: 'वेबहुक इन्डपोइन्टहरू' }).getByRole('row').filter({ hasText: url })
    await row.waitFor()
    assert.deepEqual((await row.getByRole('cell').allTextContents()).slice(0, 4), [
      url,
      'booking.created, payment.completed',
      'सक्रिय',
      moment(hooks[0].created_at),
    ])
    await owner.getByRole('button', { name: 'मैले गोप्य साँचो कपी गरेँ' }).click()
    await row.getByRole('button', { name: `डेलिभरीहरू इन्डपोइन्ट ${url} (${hooks[0].id}) का` }).click()
    await owner.getByRole('heading', { level: 2, name: `${url} मा डेलिभरीहरू` }).waitFor()
    await owner.getByText('अहिलेसम्म केही पठाइएको छैन।').waitFor()
    await readsNepali(owner, 'Webhooks', [
      'Webhooks of',
      'Endpoints',
      'Events',
      'Status',
      'Created',
      'Actions',
      'Active',
      'Deliveries',
      'Hide deliveries',
      'Delete',
      'New endpoint',
      'Endpoint URL',
      'Events to send',
      'Court booking made',
      'Add endpoint',
      'Refresh deliveries',
      'Nothing sent yet',
    ])
  })

  test('Reviews in Nepali: a review with its date and BS date, the filters, a reply sent', async () => {
    const hari = await createUser(ui.server.app, { name: 'Hari Bhandari' })
    const made = await ui.server.app.inject({
      method: 'POST',
      url: `/api/venues/${ui.venueId}/reviews`,
      headers: hari.headers,
      payload: { rating: 4, comment: 'राम्रो मैदान' },
    })
    assert.equal(made.statusCode, 201, made.body)
    const review = made.json().data as { created_at: string }
    await owner.getByRole('navigation', { name: 'खण्डहरू' }).getByRole('link', { name: 'समीक्षाहरू' }).click()
    await owner.getByRole('heading', { level: 1, name: `${VENUE_NE} का समीक्षाहरू` }).waitFor()
    assert.deepEqual(await owner.getByLabel('रेटिङ').locator('option').allTextContents(), [
      'जुनसुकै रेटिङ',
      '५ तारा',
      '४ तारा',
      '३ तारा',
      '२ तारा',
      '१ तारा',
    ])
    const who = `Hari Bhandari, ${digits(review.created_at.slice(0, 16), 'ne')}`
    const card = owner.getByRole('article', { name: `${who} को समीक्षा` })
    await card.waitFor()
    assert.match((await card.locator('header').textContent()) ?? '', /५ मध्ये ४ तारा · Hari Bhandari/)
    await card.getByText(moment(review.created_at), { exact: true }).waitFor()
    await card.getByText('जवाफ दिइएको छैन', { exact: true }).waitFor()
    await card.getByLabel(`${who} लाई जवाफ`).fill('धन्यवाद!')
    await card.getByRole('button', { name: `जवाफ पठाउनुहोस् ${who} लाई` }).click()
    await card
      .getByRole('list', { name: `${who} को समीक्षाका जवाफहरू` })
      .getByText('धन्यवाद!')
      .waitFor()
    await readsNepali(owner, 'Reviews', [
      'Reviews of',
      'Rating',
      'Visibility',
      'Any rating',
      'stars',
      'Shown',
      'Hidden',
      'Unanswered',
      'Review by',
      'Reply to',
      'Send reply',
      'Hide',
      'Previous page',
      'Next page',
      'Page',
    ])
    // The pager under the list, in Nepali.
    await owner
      .getByRole('navigation', { name: 'समीक्षाका पृष्ठहरू' })
      .getByText(/^पृष्ठ १ \/ १ \(जम्मा [०-९]+\)$/)
      .waitFor()
  })

  test('Tournaments in Nepali: the list, a new one with a prize of lakhs, the demo cup closed, drawn and its final recorded', async () => {
    await owner.getByRole('navigation', { name: 'खण्डहरू' }).getByRole('link', { name: 'प्रतियोगिताहरू' }).click()
    await owner.getByRole('heading', { level: 1, name: `${VENUE_NE} का प्रतियोगिताहरू` }).waitFor()
    const list = (await inject('GET', `/api/tournaments?venue_id=${ui.venueId}`, ownerToken)).json().data as {
      id: number
      name: string
      starts_at: string
      ends_at: string
      registered_teams: number
      max_teams: number
      registration_fee: string
    }[]
    const cup = list.find((x) => x.name === 'Baneshwor Winter Futsal Cup')
    assert.ok(cup)
    const row = owner.getByRole('table', { name: 'प्रतियोगिताहरू' }).getByRole('row').filter({ hasText: cup.name })
    await row.waitFor()
    assert.deepEqual(await row.getByRole('cell').allTextContents(), [
      cup.name,
      'नकआउट',
      `${both(cup.starts_at)} देखि ${both(cup.ends_at)} सम्म`,
      `${digits(String(cup.max_teams), 'ne')} मध्ये ${digits(String(cup.registered_teams), 'ne')}`,
      money(cup.registration_fee, 'ne'),
      'दर्ता खुला',
    ])
    await readsNepali(owner, 'Tournaments', [
      'Tournaments at',
      'Tournament',
      'Format',
      'Dates',
      'Teams',
      'Fee',
      'Status',
      'Knockout',
      'Registration open',
      'New tournament',
      'Create tournament',
      'Most teams',
      'Prize pool',
      'Starts on',
      'Ends on',
      'to',
      'of',
    ])
    // A new tournament through the Nepali form; its page in Nepali with the prize in lakh grouping.
    await owner.getByLabel('नाम', { exact: true }).fill('काठमाडौं कप')
    await owner.getByLabel('ढाँचा').selectOption({ label: 'लिग (सबैले सबैसँग खेल्छन्)' })
    await owner.getByLabel('दर्ता शुल्क (रु)').fill('1500')
    await owner.getByLabel('पुरस्कार रकम (रु)').fill('150000')
    await owner.getByLabel('सुरु हुने मिति').fill('2026-12-10')
    await owner.getByLabel('सकिने मिति').fill('2026-12-12')
    await owner.getByRole('button', { name: 'प्रतियोगिता बनाउनुहोस्' }).click()
    await owner.getByRole('heading', { level: 1, name: 'काठमाडौं कप' }).waitFor()
    const facts = owner.locator('dl.facts')
    const fact = (label: string) =>
      facts
        .locator('div')
        .filter({ has: owner.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
        .locator('dd')
    await fact('पुरस्कार रकम').filter({ hasText: 'रु १,५०,०००.००' }).waitFor()
    assert.equal(await fact('स्थिति').textContent(), 'दर्ता खुला')
    assert.equal(await fact('ढाँचा').textContent(), 'लिग')
    assert.equal(await fact('दर्ता शुल्क').textContent(), 'रु १,५००.००')
    assert.equal(await fact('मितिहरू').textContent(), `${both('2026-12-10')} देखि ${both('2026-12-12')} सम्म`)
    await owner.getByText('खेल तालिका बनाउन पहिले दर्ता बन्द गर्नुहोस्।').waitFor()

    // The demo cup: its two teams, registration closed, the final drawn and its result recorded.
    await owner.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/tournaments/${cup.id}`)
    await owner.getByRole('heading', { level: 1, name: cup.name }).waitFor()
    const teams = owner.getByRole('table', { name: 'दर्ता भएका टोलीहरू' })
    await teams.getByRole('row').filter({ hasText: 'Baneshwor Blasters' }).getByText('तिरेको छैन').waitFor()
    await owner.getByRole('button', { name: 'दर्ता बन्द गर्नुहोस्' }).click()
    await owner.getByRole('status').filter({ hasText: 'दर्ता बन्द।' }).waitFor()
    await owner.getByRole('button', { name: 'खेल तालिका बनाउनुहोस्' }).click()
    await owner.getByRole('status').filter({ hasText: '१ खेल तालिका बनाइयो।' }).waitFor()
    const fixture = owner.locator('.fixture')
    await fixture.getByText('खेल १', { exact: true }).waitFor()
    assert.match((await fixture.locator('p').first().textContent()) ?? '', /^खेल १ · फाइनल$/)
    await fixture.getByLabel('खेल १ मा Baneshwor Blasters का गोल').fill('3')
    await fixture.getByLabel('खेल १ मा Koteshwor Kings का गोल').fill('1')
    await fixture.getByRole('button', { name: 'नतिजा सुरक्षित गर्नुहोस् खेल १ को' }).click()
    await owner.getByRole('status').filter({ hasText: 'खेल १ को नतिजा सुरक्षित भयो।' }).waitFor()
    await fixture.getByText('· ३–१').waitFor()
    await readsNepali(owner, 'a tournament', [
      'Summary',
      'Registered teams',
      'Team',
      'Captain',
      'Players',
      'Entry fee',
      'Not paid',
      'Fixtures and results',
      'Match',
      'Final',
      'Goals of',
      'Correct the result',
      'Standings',
      'Registration closed',
      'Start the tournament',
      'Cancel the tournament',
      'All tournaments',
    ])
    await owner.evaluate(() => window.scrollTo(0, 0))
    await screenshot(owner, 'console-tournament-nepali-phone')
  })

  test('Administration in Nepali as the super admin: the queue with its BS date, the approval dialog, users, roles and the pager', async () => {
    const kalanki = await ui.server.app.ctx.db
      .updateTable('venues')
      .set({
        verification_status: 'pending',
        verification_requested_at: ui.server.app.ctx.clock.now(),
        verification_reviewed_at: null,
        verification_note: 'कृपया प्रमाणित गर्नुहोस्',
      })
      .where('name', '=', 'Kalanki Sports Hub')
      .returning(['id', 'name_ne'])
      .executeTakeFirstOrThrow()
    assert.ok(kalanki.name_ne)
    const adminToken = await login('admin@courtside.test')
    const queued = (await inject('GET', '/api/admin/venues/verification-requests', adminToken)).json().data as {
      id: number
      verification_requested_at: string
    }[]
    const requested = queued.find((v) => v.id === kalanki.id)?.verification_requested_at
    assert.ok(requested)
    const admin = await inNepali('admin@courtside.test', '/admin/verification', 'Administration')
    await admin.getByRole('heading', { level: 1, name: 'प्रशासन' }).waitFor()
    const tabs = admin.getByRole('navigation', { name: 'प्रशासन' }).getByRole('link')
    assert.deepEqual(await tabs.allTextContents(), ['प्रमाणीकरणको लाइन', 'प्रयोगकर्ताहरू'])
    const queue = admin.getByRole('table', { name: 'प्रमाणीकरणको प्रतीक्षामा रहेका भेन्युहरू' })
    const row = queue.getByRole('row').filter({ hasText: kalanki.name_ne })
    await row.waitFor()
    const cells = await row.getByRole('cell').allTextContents()
    assert.equal(cells[0], kalanki.name_ne)
    assert.equal(cells[3], moment(requested))
    assert.equal(cells[4], 'कृपया प्रमाणित गर्नुहोस्')
    await readsNepali(admin, 'Administration › Verification queue', [
      'Administration',
      'Verification queue',
      'Users',
      'Venue',
      'Place',
      'Contact',
      'Requested',
      'Note',
      'Actions',
      'Review and approve',
      'Reject',
      'Previous page',
      'Next page',
      'Page',
    ])
    await row.getByRole('button', { name: `हेरेर स्वीकृत गर्नुहोस् ${kalanki.name_ne}` }).click()
    const approve = admin.getByRole('dialog', { name: `${kalanki.name_ne} स्वीकृत गर्ने?` })
    await approve.getByText('स्वीकृत गरेपछि भेन्यु सार्वजनिक हुन्छ', { exact: false }).waitFor()
    await approve.getByRole('heading', { name: 'कोर्ट, समय र मूल्य' }).waitFor()
    await approve.locator('dt', { hasText: 'भेन्यु खुल्ने समय' }).waitFor()
    assert.match(
      (await approve.locator('dt:has-text("भेन्यु खुल्ने समय") + dd').textContent()) ?? '',
      /^[०-९]{2}:[०-९]{2}–[०-९]{2}:[०-९]{2}$/,
    )
    assert.deepEqual(await axeViolations(admin), [], 'the approval dialog in Nepali, 390 px')
    await approve.getByRole('button', { name: 'बन्द गर्नुहोस्' }).click()
    await row.getByRole('button', { name: `अस्वीकार गर्नुहोस् ${kalanki.name_ne}` }).click()
    const reject = admin.getByRole('dialog', { name: `${kalanki.name_ne} अस्वीकार गर्ने?` })
    await reject.getByLabel('कारण').waitFor()
    await reject.getByText('मालिकले यो आफ्नो प्रमाणीकरण पृष्ठमा देख्नुहुन्छ।').waitFor()
    assert.deepEqual(await axeViolations(admin), [], 'the rejection dialog in Nepali, 390 px')
    await reject.getByRole('button', { name: 'बन्द गर्नुहोस्' }).click()

    // Users: the roles in Nepali, the search, the pager and the roles dialog.
    await tabs.filter({ hasText: 'प्रयोगकर्ताहरू' }).click()
    const users = admin.getByRole('table', { name: 'प्रयोगकर्ताहरू' })
    const suman = users.getByRole('row').filter({ hasText: 'Suman Shrestha' })
    await suman.waitFor()
    const sumanCells = await suman.getByRole('cell').allTextContents()
    assert.equal(sumanCells[3], 'भेन्युको मालिक')
    assert.equal(sumanCells[4], 'सक्रिय')
    const all = (await inject('GET', '/api/admin/users?per_page=20', adminToken)).json().meta.total as number
    await admin
      .getByRole('navigation', { name: 'प्रयोगकर्ता सूचीका पृष्ठहरू' })
      .getByText(`पृष्ठ १ / १ (जम्मा ${digits(String(all), 'ne')})`)
      .waitFor()
    await admin.getByLabel('भूमिका').selectOption({ label: 'भेन्युको मालिक' })
    await admin.getByRole('button', { name: 'खोज्नुहोस्' }).click()
    await users.getByRole('row').filter({ hasText: 'Bikash Thapa' }).waitFor({ state: 'detached' })
    await readsNepali(admin, 'Administration › Users', [
      'Users',
      'Name',
      'Email',
      'Phone',
      'Roles',
      'Status',
      'Active',
      'Suspend',
      'Venue owner',
      'Find',
      'Any role',
      'Previous page',
      'Next page',
      'Page',
      'in all',
    ])
    await suman.getByRole('button', { name: 'भूमिकाहरू Suman Shrestha का' }).click()
    const roles = admin.getByRole('dialog', { name: 'Suman Shrestha का भूमिकाहरू' })
    await roles.getByLabel('भेन्युको मालिक').waitFor()
    assert.deepEqual(await roles.locator('label').allTextContents(), [
      'ग्राहक',
      'कर्मचारी',
      'व्यवस्थापक',
      'भेन्युको मालिक',
      'प्रशासक',
    ])
    assert.deepEqual(await axeViolations(admin), [], 'the roles dialog in Nepali, 390 px')
    await roles.getByRole('button', { name: 'भूमिकाहरू सुरक्षित गर्नुहोस्' }).click()
    await admin.getByRole('status').filter({ hasText: 'Suman Shrestha का भूमिकाहरू अब: भेन्युको मालिक।' }).waitFor()
  })
})
