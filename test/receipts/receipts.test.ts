import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { fiscalYearOf, toBs } from '../../src/lib/nepali-date.ts'
import type { Receipt } from '../../src/modules/receipts/resource.ts'
import { book, fixedSlot, type World, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, createUser, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'
import { insertBooking, simulate } from '../payments/helpers.ts'

// Every payment received for a booking gets a receipt, every refund a credit note, in the same
// transaction (docs/payments.md, "Receipts and IRD").

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

type Headers = { headers: Record<string, string> } | undefined
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, who: Headers, payload?: unknown) =>
  app.inject({ method, url, headers: who?.headers, ...(payload === undefined ? {} : { payload: payload as object }) })

let day = 3
async function taxWorld(opts: { vat?: boolean; wallet?: number } = {}) {
  const w = await world(app, { wallet: opts.wallet })
  const set = await call('PATCH', `/api/venues/${w.venue.id}`, w.owner, {
    pan_number: '301234567',
    legal_name: 'Baneshwor Futsal Pvt. Ltd.',
    vat_registered: opts.vat ?? false,
  })
  assert.equal(set.statusCode, 200, set.body)
  return w
}

const receiptsOf = async (w: World, bookingId: number) => {
  const res = await call('GET', `/api/bookings/${bookingId}/receipts`, w.customer)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data as Receipt[]
}

test('the owner sets the tax identity; managers see it, the public venue never shows it; VAT needs a PAN', async () => {
  const w = await world(app)
  const noPan = await call('PATCH', `/api/venues/${w.venue.id}`, w.owner, { vat_registered: true })
  assert.equal(noPan.statusCode, 422)
  assert.deepEqual(noPan.json().errors, { pan_number: ['A VAT registered venue needs its PAN number.'] })
  const bad = await call('PATCH', `/api/venues/${w.venue.id}`, w.owner, { pan_number: '12345678' })
  assert.equal(bad.statusCode, 422)
  assert.ok(bad.json().errors.pan_number)
  const byManager = await call('PATCH', `/api/venues/${w.venue.id}`, w.manager, { pan_number: '301234567' })
  assert.equal(byManager.statusCode, 403)
  const set = await call('PATCH', `/api/venues/${w.venue.id}`, w.owner, {
    pan_number: '301234567',
    vat_registered: true,
    legal_name: 'Baneshwor Futsal Pvt. Ltd.',
  })
  assert.equal(set.statusCode, 200, set.body)
  assert.equal(set.json().data.pan_number, '301234567')
  assert.equal(set.json().data.vat_registered, true)
  assert.equal(set.json().data.legal_name, 'Baneshwor Futsal Pvt. Ltd.')
  // A manager's other changes answer it too.
  const other = await call('PATCH', `/api/venues/${w.venue.id}`, w.manager, { phone: '9800000000' })
  assert.equal(other.json().data.pan_number, '301234567')
  const mine = await call('GET', '/api/venues/my-venues', w.manager)
  const entry = mine.json().find((v: { id: number }) => v.id === w.venue.id)
  assert.equal(entry.pan_number, '301234567')
  const staffView = (await call('GET', '/api/venues/my-venues', w.staff)).json()
  assert.equal('pan_number' in staffView.find((v: { id: number }) => v.id === w.venue.id), false)
  for (const who of [undefined, w.customer, w.owner]) {
    const shown = await call('GET', `/api/venues/${w.venue.slug}`, who)
    assert.equal(shown.statusCode, 200)
    for (const field of ['pan_number', 'vat_registered', 'legal_name']) assert.equal(field in shown.json().data, false)
  }
})

test('a wallet payment gets a receipt: number, fiscal year, AD and BS dates, venue, customer, lines, VAT split', async () => {
  const w = await taxWorld({ vat: true, wallet: 150000 })
  const booking = (await book(app, w.customer, fixedSlot(w.court.id, day++))).json().data
  const paid = await call('POST', '/api/payments/initiate', w.customer, { booking_id: booking.id, method: 'wallet' })
  assert.equal(paid.statusCode, 200, paid.body)
  const [r] = await receiptsOf(w, booking.id)
  const today = app.ctx.zone.today(app.ctx.clock.now())
  const fy = fiscalYearOf(today)
  assert.equal(r.type, 'receipt')
  assert.equal(r.receipt_number, `R-${fy}-000001`)
  assert.equal(r.fiscal_year, fy)
  assert.equal(r.issued_on, today)
  assert.equal(r.issued_on_bs, toBs(today))
  assert.match(r.issued_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  assert.deepEqual(r.venue, {
    id: w.venue.id,
    legal_name: 'Baneshwor Futsal Pvt. Ltd.',
    address: 'Baneshwor, Kathmandu',
    pan_number: '301234567',
  })
  assert.equal(r.customer_name, booking.customer_name)
  assert.deepEqual(r.booking, { type: 'court', id: booking.id, booking_number: booking.booking_number })
  assert.equal(r.lines.length, 1)
  assert.match(r.lines[0].description, new RegExp(`Court booking ${booking.booking_number}`))
  assert.equal(r.lines[0].amount, '1500.00')
  assert.equal(r.total, '1500.00')
  assert.equal(r.vat_registered, true)
  assert.equal(r.taxable_amount, '1327.43')
  assert.equal(r.vat_amount, '172.57')
  assert.equal(r.payment_id, paid.json().data.payment.id)
  assert.equal(r.method, 'wallet')
  assert.equal(r.original_receipt, null)
  const one = await call('GET', `/api/receipts/${r.id}`, w.customer)
  assert.equal(one.statusCode, 200)
  assert.deepEqual(one.json().data, r)
})

test('a gateway payment gets a receipt; a venue not VAT registered shows no VAT (null)', async () => {
  const w = await taxWorld({ vat: false })
  const booking = (await book(app, w.customer, fixedSlot(w.court.id, day++))).json().data
  const start = await call('POST', '/api/payments/initiate', w.customer, {
    booking_id: booking.id,
    method: 'gateway_2',
  })
  assert.equal(start.statusCode, 201, start.body)
  assert.equal((await receiptsOf(w, booking.id)).length, 0) // nothing until the gateway confirms
  const callback = await simulate(app, start.json().data.payment_url, 'success')
  assert.equal((await app.inject({ method: 'GET', url: callback })).statusCode, 200)
  const [r] = await receiptsOf(w, booking.id)
  assert.equal(r.method, 'gateway_2')
  assert.equal(r.total, '1500.00')
  assert.equal(r.vat_registered, false)
  assert.equal(r.taxable_amount, null)
  assert.equal(r.vat_amount, null)
  assert.equal(r.venue.pan_number, '301234567')
})

test('desk payments get receipts (two part payments, two numbers); indoor bookings too', async () => {
  const w = await taxWorld({ vat: true })
  const booking = (await book(app, w.customer, fixedSlot(w.court.id, day++))).json().data
  for (const amount of ['1000.00', '500.00']) {
    const paid = await call('POST', `/api/bookings/${booking.id}/payments`, w.staff, { method: 'cash', amount })
    assert.equal(paid.statusCode, 201, paid.body)
  }
  const list = await receiptsOf(w, booking.id)
  assert.deepEqual(
    list.map((r) => [r.method, r.total, r.taxable_amount, r.vat_amount]),
    [
      ['cash', '1000.00', '884.96', '115.04'],
      ['cash', '500.00', '442.48', '57.52'],
    ],
  )
  const [a, b] = list.map((r) => Number(r.receipt_number.split('-').pop()))
  assert.equal(b, a + 1)

  const game = await createIndoorGame(app, w.venue.id, { price_per_hour: 50000 })
  const indoor = await insertBooking(app, {
    userId: w.customer.id,
    venueId: w.venue.id,
    indoorGameId: game.id,
    total: 50000,
    date: daysFromFixedNow(day++),
  })
  const cash = await call('POST', `/api/indoor-game-bookings/${indoor.id}/payments`, w.staff, {
    method: 'cash',
    amount: '500.00',
  })
  assert.equal(cash.statusCode, 201, cash.body)
  const res = await call('GET', `/api/indoor-game-bookings/${indoor.id}/receipts`, w.customer)
  assert.equal(res.statusCode, 200, res.body)
  const [r] = res.json().data
  assert.deepEqual(r.booking, { type: 'indoor', id: indoor.id, booking_number: indoor.booking_number })
  assert.match(r.lines[0].description, /^Indoor game booking /)
  assert.equal(Number(r.receipt_number.split('-').pop()), b + 1) // one series per venue, both kinds
})

test('every refund gets a credit note in its own series, referring to the receipt', async () => {
  const w = await taxWorld({ vat: true, wallet: 300000 })
  const booking = (await book(app, w.customer, fixedSlot(w.court.id, day++))).json().data
  const paid = await call('POST', '/api/payments/initiate', w.customer, { booking_id: booking.id, method: 'wallet' })
  const paymentId = paid.json().data.payment.id
  const part = await call('POST', `/api/payments/${paymentId}/refund`, w.owner, {
    amount: '300.00',
    reason: 'Lights out',
  })
  assert.equal(part.statusCode, 200, part.body)
  // The rest by cancelling (refundBooking).
  const cancel = await call('PATCH', `/api/bookings/${booking.id}/cancel`, w.customer, {})
  assert.equal(cancel.statusCode, 200, cancel.body)
  const list = await receiptsOf(w, booking.id)
  assert.deepEqual(
    list.map((r) => [r.type, r.total, r.vat_amount]),
    [
      ['receipt', '1500.00', '172.57'],
      ['credit_note', '300.00', '34.51'],
      ['credit_note', '1200.00', '138.05'],
    ],
  )
  const fy = list[0].fiscal_year
  assert.equal(list[1].receipt_number, `CN-${fy}-000001`)
  assert.equal(list[2].receipt_number, `CN-${fy}-000002`)
  for (const cn of list.slice(1)) {
    assert.deepEqual(cn.original_receipt, {
      id: list[0].id,
      receipt_number: list[0].receipt_number,
      issued_on: list[0].issued_on,
      issued_on_bs: list[0].issued_on_bs,
    })
    assert.equal(cn.payment_id, paymentId)
  }
  assert.equal(list[1].reason, 'Lights out')
  assert.match(list[2].reason ?? '', /cancelled booking/)

  // A desk payment refunded at the desk gets its credit note too.
  const desk = (await book(app, w.customer, fixedSlot(w.court.id, day++))).json().data
  await call('POST', `/api/bookings/${desk.id}/payments`, w.staff, { method: 'cash', amount: '1500.00' })
  const cash = (await receiptsOf(w, desk.id))[0]
  const back = await call('POST', `/api/payments/${cash.payment_id}/refund`, w.owner, { amount: '500.00' })
  assert.equal(back.statusCode, 200, back.body)
  const deskList = await receiptsOf(w, desk.id)
  assert.deepEqual(
    deskList.map((r) => [r.type, r.receipt_number, r.total]),
    [
      ['receipt', cash.receipt_number, '1500.00'],
      ['credit_note', `CN-${fy}-000003`, '500.00'],
    ],
  )
})

test('who may read: the customer, owner, manager, staff and super_admin; others 403, unknown 404', async () => {
  const w = await taxWorld({ wallet: 150000 })
  const booking = (await book(app, w.customer, fixedSlot(w.court.id, day++))).json().data
  await call('POST', '/api/payments/initiate', w.customer, { booking_id: booking.id, method: 'wallet' })
  const [r] = await receiptsOf(w, booking.id)
  const admin = await createUser(app, { roles: ['super_admin'] })
  const stranger = await createUser(app)
  const otherOwner = await createUser(app, { roles: ['venue_owner'] })
  for (const who of [w.customer, w.owner, w.manager, w.staff, admin]) {
    assert.equal((await call('GET', `/api/bookings/${booking.id}/receipts`, who)).statusCode, 200)
    assert.equal((await call('GET', `/api/receipts/${r.id}`, who)).statusCode, 200)
  }
  for (const who of [stranger, otherOwner]) {
    const list = await call('GET', `/api/bookings/${booking.id}/receipts`, who)
    assert.equal(list.statusCode, 403)
    assert.deepEqual(list.json(), { message: 'This action is unauthorized.' })
    assert.equal((await call('GET', `/api/receipts/${r.id}`, who)).statusCode, 403)
    assert.equal(
      (await call('GET', `/api/receipts/${r.id}`, { headers: { ...who.headers, accept: 'application/pdf' } }))
        .statusCode,
      403,
    )
  }
  assert.equal((await call('GET', `/api/bookings/${booking.id}/receipts`, undefined)).statusCode, 401)
  assert.equal((await call('GET', `/api/receipts/${r.id}`, undefined)).statusCode, 401)
  assert.equal((await call('GET', '/api/bookings/999999999/receipts', w.customer)).statusCode, 404)
  assert.equal((await call('GET', '/api/indoor-game-bookings/999999999/receipts', w.customer)).statusCode, 404)
  assert.equal((await call('GET', '/api/receipts/999999999', w.customer)).statusCode, 404)
  assert.equal((await call('GET', '/api/receipts/abc', w.customer)).statusCode, 404)
})

test('a receipt cannot be changed or deleted', async () => {
  const w = await taxWorld({ wallet: 150000 })
  const booking = (await book(app, w.customer, fixedSlot(w.court.id, day++))).json().data
  await call('POST', '/api/payments/initiate', w.customer, { booking_id: booking.id, method: 'wallet' })
  const [r] = await receiptsOf(w, booking.id)
  await assert.rejects(
    app.ctx.db.updateTable('receipts').set({ total: 1 }).where('id', '=', r.id).execute(),
    /append-only/,
  )
  await assert.rejects(app.ctx.db.deleteFrom('receipts').where('id', '=', r.id).execute(), /append-only/)
})
