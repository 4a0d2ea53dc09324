import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext } from 'playwright-core'
import { ManualClock } from '../../src/lib/clock.ts'
import {
  axeViolations,
  contextAt,
  launchBrowser,
  open,
  signInAs,
  startWebServer,
  topUp,
  type WebServer,
} from './browser.ts'
import { appDate } from './helpers-account.ts'

// Open matches in the web app (issue 48): another player opens a public futsal game on their
// booking; the demo customer finds it under "Join a game", opens it and joins, paying their share
// from the wallet (or through a gateway, coming back to the match page); the page then lists them
// among the players with their level.

const NOW = new Date('2026-12-01T03:15:00Z') // Tuesday 09:00 in Kathmandu
const CUSTOMER = 'customer@courtside.test'
const ARENA = 'baneshwor-futsal-arena'

describe('joining a game in the web app', () => {
  let server: WebServer
  let browser: Browser
  let phone: BrowserContext

  before(async () => {
    server = await startWebServer(new ManualClock(NOW))
    browser = await launchBrowser()
    phone = await contextAt(browser, NOW)
    await signInAs(phone, server, CUSTOMER)
    await topUp(server, CUSTOMER, '2000.00')
  })
  after(async () => {
    await phone?.close()
    await browser?.close()
    await server?.close()
  })

  async function call<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as T
  }

  test('a public game is listed, opened and joined with the wallet', async () => {
    const organizer = await call<{ token: string }>('POST', '/api/auth/register', '', {
      name: 'Bikash Organizer',
      email: 'bikash@example.test',
      password: 'secret-pass-1',
      password_confirmation: 'secret-pass-1',
    })
    const courts = await call<{ data: { id: number }[] }>('GET', `/api/venues/${ARENA}/courts`, organizer.token)
    const date = appDate(server, 1)
    const booking = await call<{ data: { id: number } }>('POST', '/api/bookings', organizer.token, {
      court_id: courts.data[0].id,
      date,
      start_time: '18:00',
      end_time: '19:00',
    })
    const match = await call<{ data: { id: number; price_per_player: string } }>(
      'POST',
      '/api/matches',
      organizer.token,
      { booking_id: booking.data.id, players_total: 4, visibility: 'public', note: 'Friendly five-a-side' },
    )

    const page = await open(phone, server, '/matches')
    await page.getByRole('heading', { name: 'Join a game' }).waitFor()
    const card = page.locator('li.card', { hasText: 'Baneshwor' })
    await card.waitFor()
    assert.match((await card.textContent()) ?? '', /3 of 4 spots left/)
    assert.deepEqual(await axeViolations(page), [])
    await card.getByRole('link').click()
    await page.waitForURL(new RegExp(`/matches/${match.data.id}$`))
    await page.getByText('Friendly five-a-side').waitFor()
    assert.deepEqual(await axeViolations(page), [])
    await page.getByRole('button', { name: /Join and pay/ }).click()
    await page.getByText('You joined the game. Your share is paid.').waitFor()
    const players = page.locator('ul.rows li')
    await players.nth(1).waitFor()
    assert.equal(await players.count(), 2)
    assert.match((await players.nth(1).textContent()) ?? '', /level 3\.5/)
    await page.getByText('You are playing in this game.').waitFor()
    const shares = await call<{ data: { shares: { status: string }[] } }>(
      'GET',
      `/api/bookings/${booking.data.id}/shares`,
      organizer.token,
    )
    assert.deepEqual(
      shares.data.shares.map((s) => s.status),
      ['unpaid', 'paid', 'unpaid', 'unpaid'],
    )
    // The player's levels page.
    await players.nth(1).getByRole('link').click()
    await page.waitForURL(/\/players\/\d+$/)
    await page.getByText('No rated games yet.').waitFor()
    assert.deepEqual(await axeViolations(page), [])
  })

  test('a game is joined through a gateway (eSewa sandbox) and the player comes back to the match page', async () => {
    const organizer = await call<{ token: string }>('POST', '/api/auth/register', '', {
      name: 'Kiran Organizer',
      email: 'kiran@example.test',
      password: 'secret-pass-1',
      password_confirmation: 'secret-pass-1',
    })
    const courts = await call<{ data: { id: number }[] }>('GET', `/api/venues/${ARENA}/courts`, organizer.token)
    const booking = await call<{ data: { id: number } }>('POST', '/api/bookings', organizer.token, {
      court_id: courts.data[0].id,
      date: appDate(server, 2),
      start_time: '17:00',
      end_time: '18:00',
    })
    const match = await call<{ data: { id: number } }>('POST', '/api/matches', organizer.token, {
      booking_id: booking.data.id,
      players_total: 2,
      visibility: 'public',
    })

    const page = await open(phone, server, `/matches/${match.data.id}`)
    await page.getByRole('heading', { name: 'Join this game' }).waitFor()
    for (const gateway of ['eSewa', 'Khalti', 'Fonepay', 'Wallet']) {
      await page.getByRole('radio', { name: gateway }).waitFor()
    }
    assert.deepEqual(await axeViolations(page), [])
    await page.getByRole('radio', { name: 'eSewa' }).check()
    await page.getByRole('button', { name: /^Join and pay Rs / }).click()
    // The local sandbox's eSewa page, then back to the match page with the payment's id.
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    await page.waitForURL(new RegExp(`/matches/${match.data.id}\\?.*payment_id=\\d+`))
    await page.getByText('You joined the game. Your share is paid.').waitFor()
    await page.getByText('You are playing in this game.').waitFor()
    assert.equal(await page.locator('ul.rows li').count(), 2)
    const shares = await call<{ data: { shares: { status: string; payer: { name: string } | null }[] } }>(
      'GET',
      `/api/bookings/${booking.data.id}/shares`,
      organizer.token,
    )
    assert.deepEqual(
      shares.data.shares.map((s) => s.status),
      ['unpaid', 'paid'],
    )
  })

  test('the join form is in Nepali for a Nepali reader', async () => {
    const organizer = await call<{ token: string }>('POST', '/api/auth/register', '', {
      name: 'Maya Organizer',
      email: 'maya@example.test',
      password: 'secret-pass-1',
      password_confirmation: 'secret-pass-1',
    })
    const courts = await call<{ data: { id: number }[] }>('GET', `/api/venues/${ARENA}/courts`, organizer.token)
    const booking = await call<{ data: { id: number } }>('POST', '/api/bookings', organizer.token, {
      court_id: courts.data[0].id,
      date: appDate(server, 3),
      start_time: '16:00',
      end_time: '17:00',
    })
    const match = await call<{ data: { id: number } }>('POST', '/api/matches', organizer.token, {
      booking_id: booking.data.id,
      players_total: 4,
      visibility: 'public',
    })
    const nepali = await contextAt(browser, NOW)
    await signInAs(nepali, server, CUSTOMER)
    await nepali.addInitScript(() => localStorage.setItem('courtside.lang', 'ne'))
    const page = await open(nepali, server, `/matches/${match.data.id}`)
    await page.getByRole('heading', { name: 'यो खेलमा सामेल हुनुहोस्' }).waitFor()
    await page.getByRole('button', { name: /^सामेल हुनुहोस् र रु / }).waitFor()
    assert.deepEqual(await axeViolations(page), [])
    await nepali.close()
  })
})
