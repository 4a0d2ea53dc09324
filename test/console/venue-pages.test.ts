import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { assignStaff, createUser, daysAfter, ordinaryDayAfter, type TestUser } from '../helpers/factories.ts'
import { multipart, PNG } from '../reviews/fixtures.ts'
import { type Receiver, receiver, verified } from '../webhooks/helpers.ts'
import { axeViolations, CONSOLE_NOW, PHONE, screenshot, withConsole } from './browser.ts'

// Issue 35's owner and manager pages in a real browser against the real server: Reviews (reply,
// hide, photos, unanswered first), Tournaments (created in the form, teams registered and fees paid
// through the API, registration closed, fixtures generated, results recorded, standings, then a
// cancel that refunds the fees: wallets and ledger checked through the API), Webhooks (an endpoint
// created, its secret shown once and proven by verifying a real delivery with it, a delivery sent
// again). Staff, another venue's owner and a customer are refused by the pages and the API; axe finds
// no violation at 390×844 and on a desktop, and accessible names are unique.

const VENUE = 'Baneshwor Futsal Arena'

describe('console: reviews, tournaments and webhooks', () => {
  // On a port of its own, so the review photo's absolute URL (APP_URL) is the console's own origin;
  // generous waits: the suite shares two cores with other browser tests.
  const ui = withConsole({ ownPort: true, timeout: 20_000 })
  const { inject, login, pageAs } = ui
  let courtA: number
  let ownerToken: string
  let manager: TestUser
  const receivers: Receiver[] = []

  /** No axe violation, and no two buttons, links or form fields share an accessible name. */
  async function accessible(page: Page, where: string) {
    const violations = await axeViolations(page)
    assert.deepEqual(violations, [], `${where}: ${JSON.stringify(violations, null, 2)}`)
    const names = await page.evaluate(() => {
      const out: string[] = []
      for (const el of document.querySelectorAll('main button, main a[href], main input, main select, main textarea')) {
        const h = el as HTMLElement
        if (h.offsetParent === null) continue
        let name = h.getAttribute('aria-label') ?? ''
        if (!name && 'labels' in h) {
          const labels = (h as HTMLInputElement).labels
          name = labels?.[0]?.textContent ?? ''
        }
        if (!name) name = h.textContent ?? ''
        out.push(`${h.tagName}:${name.replace(/\s+/g, ' ').trim()}`)
      }
      return out
    })
    const dupes = names.filter((n, i) => names.indexOf(n) !== i)
    assert.deepEqual(dupes, [], `${where}: accessible names used twice`)
  }

  /** axe and unique names at 390×844 too, on the same page (hash) as `page` shows. */
  async function onPhone(email: string, password: string, hash: string, heading: string) {
    const phone = await pageAs(email, { password, ...PHONE })
    await phone.goto(`${ui.server.url}/console/${hash}`)
    await phone.getByRole('heading', { name: heading, level: 1 }).waitFor()
    await phone.waitForLoadState('networkidle')
    await accessible(phone, `${heading} at 390×844`)
    // Nothing makes the page scroll sideways on a phone (wide tables scroll in their own box).
    const wide = await phone.evaluate(() => {
      const over = [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        .filter((el) => !el.closest('.table-scroll') || el.classList.contains('table-scroll'))
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`)
      return { by: document.documentElement.scrollWidth - window.innerWidth, over: over.slice(0, 5) }
    })
    assert.ok(wide.by <= 0, `${heading} at 390×844 is ${wide.by}px too wide: ${wide.over.join(', ')}`)
  }

  before(async () => {
    courtA = await ui.courtId('Court A')
    ownerToken = await login('owner1@courtside.test')
    manager = await createUser(ui.server.app, {
      roles: ['manager'],
      name: 'Maya Manager',
      email: 'maya@courtside.test',
    })
    await assignStaff(ui.server.app, ui.venueId, manager.id, 'manager')
  })
  after(async () => {
    for (const r of receivers) await r.close()
  })

  test('Reviews: unanswered first with photos; the owner replies and hides one; the public list changes', async () => {
    // Two customers review through the API: one with a photo (multipart), one low rating.
    const happy = await createUser(ui.server.app, { name: 'Happy Hari' })
    const sad = await createUser(ui.server.app, { name: 'Sad Sita' })
    const form = await multipart({ rating: '5', comment: 'Great turf, bright lights' }, [
      { name: 'images[]', data: PNG, filename: 'turf.png' },
    ])
    const withPhoto = await ui.server.app.inject({
      method: 'POST',
      url: `/api/venues/${ui.venueId}/reviews`,
      headers: { ...happy.headers, ...form.headers },
      payload: form.payload,
    })
    assert.equal(withPhoto.statusCode, 201, withPhoto.body)
    const low = await ui.server.app.inject({
      method: 'POST',
      url: `/api/venues/${ui.venueId}/reviews`,
      headers: sad.headers,
      payload: { rating: 1, comment: 'Rude reception' },
    })
    assert.equal(low.statusCode, 201, low.body)
    const lowId = low.json().data.id as number

    const owner = await pageAs('owner1@courtside.test')
    await owner.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/board`)
    await owner.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Reviews' }).click()
    await owner.getByRole('heading', { name: `Reviews of ${VENUE}`, level: 1 }).waitFor()
    const sadCard = owner.getByRole('article', { name: /Review by Sad Sita/ })
    const happyCard = owner.getByRole('article', { name: /Review by Happy Hari/ })
    await sadCard.waitFor()
    // The photo is shown from the URL the API gives, named by its reviewer, and loads.
    const img = happyCard.getByRole('img', { name: '1 of 1, sent by Happy Hari' })
    await img.waitFor()
    assert.equal(await img.getAttribute('src'), withPhoto.json().data.images[0].url)
    await owner.waitForFunction(() => {
      const i = document.querySelector('.review-photos img') as HTMLImageElement | null
      return !!i && i.complete && i.naturalWidth > 0
    })
    await owner.waitForLoadState('networkidle')
    await accessible(owner, 'Reviews at 1280')
    await screenshot(owner, 'console-reviews')

    // Reply to the low rating: it moves below the unanswered ones.
    await sadCard.getByLabel(/Reply to Sad Sita/).fill('We are sorry; we have spoken to the desk team.')
    await sadCard.getByRole('button', { name: /Send reply/ }).click()
    await sadCard.getByText('We are sorry; we have spoken to the desk team.').waitFor()
    const order = await owner.getByRole('article').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))
    const sadAt = order.findIndex((n) => n?.includes('Sad Sita'))
    const happyAt = order.findIndex((n) => n?.includes('Happy Hari'))
    assert.ok(happyAt < sadAt, `unanswered first: ${order.join(' | ')}`)

    // Hide it: the API's public list no longer has it; the page shows it as hidden.
    await sadCard.getByRole('button', { name: /^Hide/ }).click()
    await sadCard.getByRole('button', { name: /^Show again/ }).waitFor()
    const publicList = (await ui.server.app.inject({ method: 'GET', url: `/api/venues/${ui.venueId}/reviews` })).json()
    assert.ok(!publicList.reviews.some((r: { id: number }) => r.id === lowId))
    const replies = (
      await inject('GET', `/api/venues/${ui.venueId}/reviews/moderation?status=hidden`, ownerToken)
    ).json()
    assert.equal(replies.data[0].replies[0].reply, 'We are sorry; we have spoken to the desk team.')

    // Filters: hidden ones only, then 5 stars only.
    await owner.getByLabel('Visibility').selectOption('hidden')
    await happyCard.waitFor({ state: 'detached' })
    await sadCard.waitFor()
    await owner.getByLabel('Visibility').selectOption('')
    await owner.getByLabel('Rating').selectOption('5')
    await sadCard.waitFor({ state: 'detached' })
    await happyCard.waitFor()

    // The manager has the page too (at 390×844 with axe).
    await onPhone('maya@courtside.test', 'password123', `#/venues/${ui.venueId}/reviews`, `Reviews of ${VENUE}`)
  })

  test('Tournaments: created in the form, teams and fees, close, fixtures, results, standings, cancel with refunds', async () => {
    const owner = await pageAs('owner1@courtside.test')
    await owner.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/board`)
    await owner.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tournaments' }).click()
    await owner.getByRole('heading', { name: `Tournaments at ${VENUE}`, level: 1 }).waitFor()
    await owner.waitForLoadState('networkidle')
    await accessible(owner, 'Tournaments list at 1280')

    await owner.getByRole('textbox', { name: 'Name' }).fill('Friday Night Cup')
    await owner.getByLabel('Format').selectOption('league')
    await owner.getByLabel('Most teams').fill('4')
    await owner.getByLabel('Registration fee (Rs)').fill('500')
    await owner.getByLabel('Prize pool (Rs)').fill('10000')
    await owner.getByLabel('Starts on').fill(daysAfter(CONSOLE_NOW, 7))
    await owner.getByLabel('Ends on').fill(daysAfter(CONSOLE_NOW, 8))
    await owner.getByRole('button', { name: 'Create tournament' }).click()
    await owner.getByRole('heading', { name: 'Friday Night Cup', level: 1 }).waitFor()
    const id = Number(/tournaments\/(\d+)/.exec(owner.url())?.[1])
    assert.ok(id > 0)

    // Three teams register through the API; two pay the fee from their wallets.
    const players = await Promise.all(
      ['Alpha', 'Bravo', 'Charlie'].map(() => createUser(ui.server.app, { wallet: 100_000 })),
    )
    const teams: number[] = []
    for (const [i, name] of ['Alpha', 'Bravo', 'Charlie'].entries()) {
      const res = await ui.server.app.inject({
        method: 'POST',
        url: `/api/tournaments/${id}/teams`,
        headers: players[i].headers,
        payload: { name, captain_name: `${name} captain`, contact_phone: `98000000${i}1` },
      })
      assert.equal(res.statusCode, 201, res.body)
      teams.push(res.json().data.id)
    }
    for (const i of [0, 1]) {
      const res = await ui.server.app.inject({
        method: 'POST',
        url: `/api/tournaments/${id}/teams/${teams[i]}/pay`,
        headers: players[i].headers,
      })
      assert.equal(res.statusCode, 200, res.body)
    }
    const wallet = async (u: TestUser) =>
      (await ui.server.app.inject({ method: 'GET', url: '/api/wallet', headers: u.headers })).json().balance
    assert.equal(await wallet(players[0]), '500.00')

    await owner.reload()
    const teamTable = owner.getByRole('table', { name: 'Registered teams' })
    await teamTable.getByRole('row', { name: /Alpha.*Paid online/ }).waitFor()
    await teamTable.getByRole('row', { name: /Charlie.*Not paid/ }).waitFor()

    await owner.getByRole('button', { name: 'Close registration' }).click()
    await owner.getByText('Registration closed.').waitFor()
    await owner.getByRole('button', { name: 'Generate the fixtures' }).click()
    await owner.getByText(/fixtures generated\./).waitFor()

    // Record every playable match: the first team named wins 2–1.
    const fixtures = (await ui.server.app.inject({ method: 'GET', url: `/api/tournaments/${id}/fixtures` })).json()
      .data as { match_number: number; team_a: { name: string } | null; team_b: { name: string } | null }[]
    const playable = fixtures.filter((f) => f.team_a && f.team_b)
    assert.equal(playable.length, 3)
    for (const f of playable) {
      await owner.getByLabel(`Goals of ${f.team_a!.name} in match ${f.match_number}`).fill('2')
      await owner.getByLabel(`Goals of ${f.team_b!.name} in match ${f.match_number}`).fill('1')
      await owner.getByRole('button', { name: `Save the result of match ${f.match_number}` }).click()
      await owner.getByText(`Result of match ${f.match_number} saved.`).waitFor()
    }
    const standings = (await ui.server.app.inject({ method: 'GET', url: `/api/tournaments/${id}/standings` })).json()
      .data
    assert.equal(standings[0].played, 2)
    const table = owner.getByRole('table', { name: 'Standings' })
    await table.getByRole('row', { name: new RegExp(`^1 ${standings[0].team.name} 2 `) }).waitFor()
    await owner.waitForLoadState('networkidle')
    await accessible(owner, 'Tournament at 1280')
    await table.scrollIntoViewIfNeeded()
    await screenshot(owner, 'console-tournament')
    await onPhone('maya@courtside.test', 'password123', `#/venues/${ui.venueId}/tournaments/${id}`, 'Friday Night Cup')

    // Cancel: the two fees go back to the wallets, charged to the venue's balance.
    const entriesBefore = await ui.server.app.ctx.db
      .selectFrom('ledger_entries')
      .select('id')
      .where('kind', '=', 'refund_to_wallet')
      .where('venue_id', '=', ui.venueId)
      .execute()
    await owner.getByRole('button', { name: 'Cancel the tournament…' }).click()
    await owner.getByText('2 teams paid Rs 500.00 from the wallet').waitFor()
    await owner.getByRole('button', { name: 'Cancel and refund the fees' }).click()
    await owner.getByText('The tournament is cancelled and 2 fees were refunded to the wallets.').waitFor()
    await teamTable.getByRole('row', { name: /Alpha.*Refunded to wallet/ }).waitFor()
    assert.equal(await wallet(players[0]), '1000.00')
    assert.equal(await wallet(players[1]), '1000.00')
    assert.equal(await wallet(players[2]), '1000.00')
    const refunds = await ui.server.app.ctx.db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_lines as l', 'l.entry_id', 'e.id')
      .select(['l.account', 'l.amount'])
      .where('e.kind', '=', 'refund_to_wallet')
      .where('e.venue_id', '=', ui.venueId)
      .where('e.id', 'not in', entriesBefore.map((e) => e.id).concat([0]))
      .execute()
    const venueLines = refunds.filter((r) => r.account === `venue:${ui.venueId}:balance`)
    assert.deepEqual(
      venueLines.map((r) => Number(r.amount)),
      [50_000, 50_000],
    )
    const trial = await inject('GET', '/api/admin/ledger/trial-balance', await login('admin@courtside.test'))
    assert.equal(trial.json().data.balanced, true)
  })

  test('Webhooks: an endpoint with its secret shown once, a delivery verified with it, and sent again', async () => {
    const hooks = await receiver()
    receivers.push(hooks)
    const owner = await pageAs('owner1@courtside.test')
    await owner.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/board`)
    await owner.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Webhooks' }).click()
    await owner.getByRole('heading', { name: `Webhooks of ${VENUE}`, level: 1 }).waitFor()
    await owner.getByText('No endpoint yet.').waitFor()
    await accessible(owner, 'Webhooks at 1280 (empty)')

    await owner.getByLabel('Endpoint URL').fill(hooks.url)
    await owner.getByLabel('Court booking made (booking.created)').check()
    await owner.getByRole('button', { name: 'Add endpoint' }).click()
    const secret = (await owner.locator('.secret code').textContent()) ?? ''
    assert.match(secret, /^whsec_[A-Za-z0-9+/=]+$/)
    await owner
      .getByRole('table', { name: 'Webhook endpoints' })
      .getByRole('cell', { name: hooks.url, exact: true })
      .waitFor()

    // A booking at the venue: its message is delivered and verifies with the secret the page showed.
    const customer = await createUser(ui.server.app, { name: 'Hook Customer' })
    const booked = await ui.server.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: customer.headers,
      payload: { court_id: courtA, date: ordinaryDayAfter(CONSOLE_NOW, 5), start_time: '07:00', end_time: '08:00' },
    })
    assert.equal(booked.statusCode, 201, booked.body)
    await ui.server.app.ctx.jobs.runDue()
    await hooks.waitFor(1)
    assert.equal(verified(secret, hooks.received[0]).type, 'booking.created')

    // The secret is never shown again: dismissed, and absent after a reload.
    await owner.getByRole('button', { name: 'I have copied the secret' }).click()
    await owner.reload()
    await owner.getByRole('heading', { name: `Webhooks of ${VENUE}`, level: 1 }).waitFor()
    await owner.getByRole('table', { name: 'Webhook endpoints' }).waitFor()
    assert.equal((await owner.content()).includes(secret), false)

    await owner.getByRole('button', { name: /^Deliveries of the endpoint/ }).click()
    const deliveries = owner.getByRole('table', { name: `Deliveries to ${hooks.url}` })
    await deliveries.getByRole('row', { name: /booking\.created.*Delivered.*HTTP 204/ }).waitFor()
    await owner.waitForLoadState('networkidle')
    await accessible(owner, 'Webhooks at 1280 (deliveries)')
    await screenshot(owner, 'console-webhooks')

    await deliveries.getByRole('button', { name: /^Send again/ }).click()
    await owner.getByText(/will be sent again\./).waitFor()
    await deliveries.getByRole('row', { name: /booking\.created.*Pending/ }).waitFor()
    await ui.server.app.ctx.jobs.runDue()
    await hooks.waitFor(2)
    assert.equal(hooks.received[1].headers['webhook-id'], hooks.received[0].headers['webhook-id'])
    await owner.getByRole('button', { name: 'Refresh deliveries' }).click()
    await deliveries.getByRole('row', { name: /booking\.created.*Delivered\s*2/ }).waitFor()

    await onPhone('maya@courtside.test', 'password123', `#/venues/${ui.venueId}/webhooks`, `Webhooks of ${VENUE}`)

    // Delete it (two steps, no dialog).
    await owner.getByRole('button', { name: /^Delete the endpoint/ }).click()
    await owner.getByRole('button', { name: /^Delete for good/ }).click()
    await owner.getByText('No endpoint yet.').waitFor()
  })

  test('staff, another venue’s owner and a customer are refused by the pages and by the API', async () => {
    const staffPage = await pageAs('staff@courtside.test')
    const nav = staffPage.getByRole('navigation', { name: 'Sections' })
    await nav.getByRole('link', { name: 'Day board' }).waitFor()
    for (const label of ['Reviews', 'Tournaments', 'Webhooks']) {
      assert.equal(await nav.getByRole('link', { name: label }).count(), 0, `staff see no ${label}`)
    }
    for (const [path, heading] of [
      ['reviews', `Reviews of ${VENUE}`],
      ['tournaments', `Tournaments at ${VENUE}`],
      ['webhooks', `Webhooks of ${VENUE}`],
    ]) {
      await staffPage.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/${path}`)
      await staffPage.getByRole('heading', { name: heading, level: 1 }).waitFor()
      await staffPage
        .getByRole('alert')
        .getByText(/You work here as staff/)
        .waitFor()
    }
    await accessible(staffPage, 'refusal')

    const otherOwner = await pageAs('owner2@courtside.test')
    await otherOwner.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/reviews`)
    await otherOwner.getByText('This venue is not one of yours.').waitFor()
    const customerPage = await pageAs('customer@courtside.test')
    await customerPage.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/webhooks`)
    await customerPage.getByText('This venue is not one of yours.').waitFor()

    for (const email of ['staff@courtside.test', 'owner2@courtside.test', 'customer@courtside.test']) {
      const token = await login(email)
      const list = await inject('GET', `/api/venues/${ui.venueId}/reviews/moderation`, token)
      assert.equal(list.statusCode, 403, `${email} reviews`)
      const hooks = await inject('GET', `/api/venues/${ui.venueId}/webhooks`, token)
      assert.equal(hooks.statusCode, 403, `${email} webhooks`)
      const created = await inject('POST', '/api/tournaments', token, {
        venue_id: ui.venueId,
        name: 'Not mine',
        format: 'league',
        sport_type: 'futsal',
        max_teams: 4,
        starts_at: daysAfter(CONSOLE_NOW, 7),
        ends_at: daysAfter(CONSOLE_NOW, 8),
      })
      assert.equal(created.statusCode, 403, `${email} tournaments`)
    }
  })
})
