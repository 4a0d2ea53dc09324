import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import type { App } from '../../src/app.ts'
import { toBs } from '../../src/lib/nepali-date.ts'
import { BOOKING_COLUMNS, EXPORT_BATCH, PAYMENT_COLUMNS } from '../../src/modules/reports/exports.ts'
import { world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createCourt } from '../helpers/factories.ts'
import { payInsertedBookings } from '../helpers/ledger.ts'
import { call, day, noonClock, TODAY } from './helpers.ts'

// The CSV exports over a whole year of a busy venue: thousands of bookings inserted by SQL (a third
// of them paid, given their payments and ledger entries by payInsertedBookings), read back through
// a listening server as a chunked stream, in keyset batches.

const clock = noonClock()
let app: App
let base: string
before(async () => {
  app = await build(undefined, {}, { clock })
  await app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})
after(() => app.close())

/** CSV text into rows of cells (quoted cells may hold commas and quotes). */
function parse(text: string): string[][] {
  const rows: string[][] = []
  for (const line of text.split('\r\n')) {
    if (line === '') continue
    const cells: string[] = []
    let i = 0
    while (i <= line.length) {
      if (line[i] === '"') {
        let value = ''
        i++
        while (i < line.length) {
          if (line[i] === '"' && line[i + 1] === '"') {
            value += '"'
            i += 2
          } else if (line[i] === '"') {
            i++
            break
          } else value += line[i++]
        }
        cells.push(value)
        i++
      } else {
        const end = line.indexOf(',', i)
        cells.push(end === -1 ? line.slice(i) : line.slice(i, end))
        i = end === -1 ? line.length + 1 : end + 1
      }
    }
    rows.push(cells)
  }
  return rows
}

test('bookings.csv and payments.csv: a header, one row per booking / payment, venue-local times, streamed in batches', async () => {
  const w = await world(app)
  const second = await createCourt(app, w.venue.id, { name: 'Second court' })
  const courts = [w.court.id, second.id]
  // 2 courts × 366 days × 4 slots = 2,928 bookings; one in three paid in full.
  await sql`
    INSERT INTO bookings (booking_number, court_id, venue_id, user_id, date, start_time, end_time, status, type,
      base_amount, total_amount, paid_amount, customer_name, customer_phone)
    SELECT 'BK-R-' || c.n || '-' || lpad(d::text, 3, '0') || '-' || s, c.id, ${w.venue.id}, NULL,
      ${TODAY}::date + d, make_time(8 + s * 2, 0, 0), make_time(9 + s * 2, 0, 0),
      CASE WHEN (d + s) % 3 = 0 THEN 'confirmed' ELSE 'pending' END, 'offline', 150000, 150000,
      CASE WHEN (d + s) % 3 = 0 THEN 150000 ELSE 0 END,
      CASE WHEN d = 1 AND s = 0 AND c.n = 1 THEN '=HYPERLINK("http://x")'
           WHEN d = 1 AND s = 1 AND c.n = 1 THEN 'Shrestha, "Ram"' ELSE 'Bulk ' || d END,
      CASE WHEN d = 1 AND s = 2 AND c.n = 1 THEN '+9779812345678'
           WHEN d = 1 AND s = 3 AND c.n = 1 THEN '-1 formula' ELSE '98' || lpad(d::text, 8, '0') END
    FROM unnest(${courts}::bigint[]) WITH ORDINALITY AS c(id, n), generate_series(1, 366) d, generate_series(0, 3) s`.execute(
    app.ctx.db,
  )
  const paid = await payInsertedBookings(app)
  assert.ok(paid > EXPORT_BATCH, `${paid} paid bookings`)

  const from = day(1)
  const to = day(366)
  const url = `${base}/api/venues/${w.venue.id}/reports/bookings.csv?from=${from}&to=${to}`
  const res = await fetch(url, { headers: w.manager.headers })
  assert.equal(res.status, 200)
  assert.match(String(res.headers.get('content-type')), /^text\/csv/)
  assert.equal(res.headers.get('transfer-encoding'), 'chunked', 'streamed, not sent with a length')
  assert.equal(res.headers.get('content-length'), null)
  assert.match(String(res.headers.get('content-disposition')), /attachment; filename="bookings-venue-\d+-.+\.csv"/)
  let chunks = 0
  let text = ''
  // ignoreBOM: keep the byte-order mark in the text, to see it is there.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    chunks++
    text += decoder.decode(chunk, { stream: true })
  }
  assert.ok(chunks > 1)
  assert.ok(text.startsWith('\uFEFF'), 'UTF-8 with a byte-order mark, for Excel')
  const rows = parse(text.slice(1))
  assert.deepEqual(rows[0], [...BOOKING_COLUMNS])
  assert.equal(rows.length, 1 + 2 * 366 * 4)
  assert.ok(rows.every((r) => r.length === BOOKING_COLUMNS.length))
  const col = (name: (typeof BOOKING_COLUMNS)[number]) => BOOKING_COLUMNS.indexOf(name)
  // Ordered by date, start time; each booking once.
  const keys = rows.slice(1).map((r) => `${r[col('date')]} ${r[col('start_time')]}`)
  assert.deepEqual(keys, [...keys].sort())
  assert.equal(new Set(rows.slice(1).map((r) => r[col('booking_number')])).size, 2 * 366 * 4)
  assert.equal(rows[1][col('date')], from)
  assert.equal(rows[1][col('date_bs')], toBs(from))
  assert.equal(rows.at(-1)?.[col('date')], to)
  const formula = rows.find((r) => r[col('booking_number')] === 'BK-R-1-001-0')
  assert.ok(formula)
  assert.equal(formula[col('customer_name')], `'=HYPERLINK("http://x")`)
  assert.equal(formula[col('start_time')], '08:00')
  assert.equal(formula[col('end_time')], '09:00')
  assert.equal(formula[col('court_or_game')], w.court.name)
  // Phones are text without an apostrophe; a Nepali +977 number does not start with + (Excel would
  // run it as a formula); typed text that starts like a formula keeps its apostrophe.
  assert.equal(formula[col('customer_phone')], '9800000001')
  const nepali = rows.find((r) => r[col('booking_number')] === 'BK-R-1-001-2')
  assert.equal(nepali?.[col('customer_phone')], '(+977) 9812345678')
  const risky = rows.find((r) => r[col('booking_number')] === 'BK-R-1-001-3')
  assert.equal(risky?.[col('customer_phone')], "'-1 formula")
  const quoted = rows.find((r) => r[col('booking_number')] === 'BK-R-1-001-1')
  assert.equal(quoted?.[col('customer_name')], 'Shrestha, "Ram"')
  assert.ok(text.includes('"Shrestha, ""Ram"""'))
  const paidRow = rows.find((r) => r[col('booking_number')] === 'BK-R-1-003-0')
  assert.deepEqual(
    [
      paidRow?.[col('status')],
      paidRow?.[col('total_amount')],
      paidRow?.[col('paid_amount')],
      paidRow?.[col('balance_due')],
    ],
    ['confirmed', '1500.00', '1500.00', '0.00'],
  )
  assert.match(String(paidRow?.[col('created_at')]), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)

  // Payments: every one received TODAY (payInsertedBookings paid them at the clock's noon), in batches
  // of equal instants told apart by id.
  const pay = await fetch(`${base}/api/venues/${w.venue.id}/reports/payments.csv?from=${TODAY}&to=${TODAY}`, {
    headers: w.owner.headers,
  })
  assert.equal(pay.status, 200)
  const prow = parse(await pay.text())
  assert.deepEqual(prow[0], [...PAYMENT_COLUMNS])
  assert.equal(prow.length, 1 + paid)
  const pcol = (name: (typeof PAYMENT_COLUMNS)[number]) => PAYMENT_COLUMNS.indexOf(name)
  const ids = prow.slice(1).map((r) => Number(r[pcol('payment_id')]))
  assert.deepEqual(
    ids,
    [...ids].sort((x, y) => x - y),
  )
  assert.equal(new Set(ids).size, paid)
  assert.deepEqual(
    [
      prow[1][pcol('received_at')],
      prow[1][pcol('received_date_bs')],
      prow[1][pcol('method')],
      prow[1][pcol('method_name')],
      prow[1][pcol('amount')],
      prow[1][pcol('net_amount')],
    ],
    [`${TODAY} 12:00:00`, toBs(TODAY), 'gateway_1', 'eSewa', '1500.00', '1500.00'],
  )
  // Nothing was received the day after.
  const none = await call(
    app,
    'GET',
    `/api/venues/${w.venue.id}/reports/payments.csv?from=${day(1)}&to=${day(1)}`,
    w.owner,
  )
  assert.equal(none.body, `\uFEFF${PAYMENT_COLUMNS.join(',')}\r\n`)
  assert.deepEqual([...none.rawPayload.subarray(0, 3)], [0xef, 0xbb, 0xbf])
  // The summary over the same year agrees with the export.
  const summary = (
    await call(app, 'GET', `/api/venues/${w.venue.id}/reports/summary?from=${from}&to=${to}`, w.owner)
  ).json().data
  assert.equal(summary.bookings.total, 2 * 366 * 4)
  assert.equal(summary.by_day.length, 366)
})

test('exports: who is refused, and the range rules', async () => {
  const w = await world(app)
  for (const name of ['bookings', 'payments']) {
    const url = `/api/venues/${w.venue.id}/reports/${name}.csv?from=${TODAY}&to=${day(7)}`
    assert.equal((await call(app, 'GET', url, w.owner)).statusCode, 200)
    assert.equal((await call(app, 'GET', url, w.staff)).statusCode, 403)
    assert.equal((await call(app, 'GET', url, w.customer)).statusCode, 403)
    assert.equal((await call(app, 'GET', url)).statusCode, 401)
    const long = await call(
      app,
      'GET',
      `/api/venues/${w.venue.id}/reports/${name}.csv?from=${TODAY}&to=${day(366)}`,
      w.owner,
    )
    assert.equal(long.statusCode, 422)
    assert.deepEqual(long.json().errors, { to: ['A report covers at most 366 days.'] })
  }
})
