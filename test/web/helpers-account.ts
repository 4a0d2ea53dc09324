import type { Page } from 'playwright-core'
import type { WebServer } from './browser.ts'

// Bookings for the account pages' browser tests, made through the public API as the app would
// make them: a free slot of a demo court, booked and (optionally) paid from the wallet.

/** The app's own today in the venue zone, plus `days` (never the machine's clock). */
export function appDate(server: WebServer, days: number): string {
  const today = server.app.ctx.zone.today(server.app.ctx.clock.now())
  const [y, m, d] = today.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

async function call<T>(server: WebServer, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/** The token of the session the page keeps (after signing up or in through the app). */
export async function pageToken(page: Page): Promise<string> {
  const raw = await page.evaluate(() => localStorage.getItem('courtside.web.session'))
  if (!raw) throw new Error('the page has no session')
  return (JSON.parse(raw) as { token: string }).token
}

export interface Booked {
  id: number
  number: string
  date: string
  start: string
  end: string
  total: string
}

/**
 * Books `count` free one-hour slots of the first court of a demo venue (Court A of Baneshwor Futsal
 * Arena by default) on `date`, paid from the wallet when `pay` (the wallet must hold enough).
 */
export async function bookCourt(
  server: WebServer,
  token: string,
  date: string,
  count: number,
  pay: boolean,
  venue = 'baneshwor-futsal-arena',
): Promise<Booked[]> {
  const courts = await call<{ data: { id: number; name: string }[] }>(
    server,
    token,
    'GET',
    `/api/venues/${venue}/courts`,
  )
  const court = courts.data[0]
  const grid = await call<{ slots: { start_time: string; end_time: string; is_available: boolean }[] }>(
    server,
    token,
    'GET',
    `/api/courts/${court.id}/availability?date=${date}`,
  )
  const free = grid.slots.filter((s) => s.is_available).slice(0, count)
  if (free.length < count) throw new Error(`only ${free.length} free slots on ${date}`)
  const out: Booked[] = []
  for (const slot of free) {
    const { data } = await call<{ data: { id: number; booking_number: string; total_amount: string } }>(
      server,
      token,
      'POST',
      '/api/bookings',
      { court_id: court.id, date, start_time: slot.start_time, end_time: slot.end_time },
    )
    if (pay) await call(server, token, 'POST', '/api/payments/initiate', { booking_id: data.id, method: 'wallet' })
    out.push({
      id: data.id,
      number: data.booking_number,
      date,
      start: slot.start_time,
      end: slot.end_time,
      total: data.total_amount,
    })
  }
  return out
}
