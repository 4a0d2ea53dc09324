import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { toBs } from '../../src/lib/nepali-date.ts'
import { Zone } from '../../src/lib/zone.ts'
import { accountSum } from '../../src/modules/ledger/index.ts'
import { book, fixedSlot, played, type World, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { simulate } from '../payments/helpers.ts'

// Venues get paid: commission taken when money settles and given back in proportion on refunds,
// the statement (JSON and CSV) that explains the venue's balance, payouts against it, and where
// payouts go. The app runs on a ManualClock at noon (venue time) of a fixed day, so every entry is
// on `today`; bookings are counted from that day (fixedSlot), never from the real date.

const zone = new Zone('Asia/Kathmandu')
const clock = new ManualClock(FIXED_NOW)
const today = zone.today(clock.now())
clock.set(zone.instant(today, '12:00'))

let app: App
let admin: TestUser
let day = 3
before(async () => {
  app = await build(undefined, {}, { clock })
  admin = await createUser(app, { roles: ['super_admin'] })
})
after(() => app.close())

function call(method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, user: TestUser, payload?: object) {
  return app.inject({ method, url, headers: user.headers, payload })
}

const balanceOf = async (w: World) => 0 - (await accountSum(app.ctx.db, `venue:${w.venue.id}:balance`)) + 0

async function paid(w: World, method: 'wallet' | 'gateway_1') {
  const booked = await book(app, w.customer, fixedSlot(w.court.id, day++))
  assert.equal(booked.statusCode, 201, booked.body)
  const id = booked.json().data.id as number
  const init = await call('POST', '/api/payments/initiate', w.customer, { booking_id: id, method })
  assert.ok(init.statusCode < 300, init.body)
  if (method !== 'wallet') {
    const back = await app.inject({ method: 'GET', url: await simulate(app, init.json().data.payment_url, 'success') })
    assert.equal(back.statusCode, 200, back.body)
  }
  const booking = (await call('GET', `/api/bookings/${id}`, w.customer)).json().data
  return { id, number: booking.booking_number as string, paymentId: booking.payments[0].id as number }
}

test('commission: only the super admin sets it; taken when money settles, given back in proportion', async () => {
  const w = await world(app, { wallet: 1_000_000 })
  const url = `/api/admin/venues/${w.venue.id}/commission`
  assert.equal((await call('PATCH', url, w.owner, { percent: 10 })).statusCode, 403)
  assert.equal((await app.inject({ method: 'PATCH', url, payload: { percent: 10 } })).statusCode, 401)
  for (const bad of [{ percent: 100.5 }, { percent: -1 }, { percent: '10' }, { percent: 10.005 }, {}]) {
    const res = await call('PATCH', url, admin, bad)
    assert.equal(res.statusCode, 422, JSON.stringify(bad))
  }
  const set = await call('PATCH', url, admin, { percent: 10 })
  assert.equal(set.statusCode, 200, set.body)
  assert.deepEqual(set.json().data, {
    venue_id: w.venue.id,
    percent: '10.00',
    desk_percent: null,
    effective_percent: '10.00',
    platform_default_percent: '0.00',
  })
  // 1,500.00 by wallet: 150.00 commission, the venue is owed 1,350.00.
  const a = await paid(w, 'wallet')
  assert.equal(await balanceOf(w), 135000)
  // A refund of 500.00 gives back 50.00 of the commission; the rest of it gives back the rest.
  const part = await call('POST', `/api/payments/${a.paymentId}/refund`, w.owner, { amount: '500.00' })
  assert.equal(part.statusCode, 200, part.body)
  assert.equal(await balanceOf(w), 135000 - 50000 + 5000)
  const rest = await call('POST', `/api/payments/${a.paymentId}/refund`, w.owner, {})
  assert.equal(rest.statusCode, 200, rest.body)
  assert.equal(await balanceOf(w), 0)
  // Desk money: no commission unless desk_percent says so; then the venue owes it.
  const desk = await call('PATCH', url, admin, { percent: 10, desk_percent: 5 })
  assert.equal(desk.json().data.desk_percent, '5.00')
  const booked = await book(app, w.customer, fixedSlot(w.court.id, day++))
  const cash = await call('POST', `/api/bookings/${booked.json().data.id}/payments`, w.staff, {
    method: 'cash',
    amount: '1000.00',
  })
  assert.equal(cash.statusCode, 201, cash.body)
  assert.equal(await balanceOf(w), -5000)
  // Back to the platform default (null).
  const reset = await call('PATCH', url, admin, { percent: null, desk_percent: null })
  assert.equal(reset.json().data.effective_percent, '0.00')
})

test('the statement explains the balance: JSON and CSV, closing = the ledger; who is refused', async () => {
  const w = await world(app, { wallet: 1_000_000 })
  await call('PATCH', `/api/admin/venues/${w.venue.id}/commission`, admin, { percent: 10 })
  const a = await paid(w, 'wallet')
  const b = await paid(w, 'gateway_1')
  const refund = await call('POST', `/api/payments/${b.paymentId}/refund`, w.manager, { amount: '300.00' })
  assert.equal(refund.statusCode, 200, refund.body)
  await played(app, w, a.id)
  await played(app, w, b.id)
  const cashBooking = await book(app, w.customer, fixedSlot(w.court.id, day++))
  await call('POST', `/api/bookings/${cashBooking.json().data.id}/payments`, w.staff, {
    method: 'cash',
    amount: '1500.00',
  })
  const payout = await call('POST', `/api/admin/venues/${w.venue.id}/payouts`, admin, {
    amount: '1000.00',
    reference: 'bank txn 123',
    paid_on: today,
  })
  assert.equal(payout.statusCode, 201, payout.body)

  const url = `/api/venues/${w.venue.id}/statement?from=${today}&to=${today}`
  const res = await call('GET', url, w.owner)
  assert.equal(res.statusCode, 200, res.body)
  const s = res.json().data
  assert.deepEqual(
    { ...s, lines: undefined },
    {
      venue: { id: w.venue.id, name: w.venue.name, slug: w.venue.slug },
      from: today,
      to: today,
      currency: 'NPR',
      opening_balance: '0.00',
      online_gross: '3000.00',
      refunds: '300.00',
      commission: '270.00',
      payouts: '1000.00',
      closing_balance: '1430.00',
      desk_gross: '1500.00',
      desk_refunds: '0.00',
      lines: undefined,
      commission_invoices: [], // the month's commission invoice comes once the month has ended
    },
  )
  // 3000 − 300 − (300 − 30) − 1000 = 1430, and that is the ledger's balance.
  assert.equal(await balanceOf(w), 143000)
  assert.deepEqual(
    s.lines.map((l: Record<string, string>) => [l.booking_number, l.kind, l.amount, l.balance_after]),
    [
      [a.number, 'wallet_payment', '1500.00', '1500.00'],
      [a.number, 'commission', '-150.00', '1350.00'],
      [b.number, 'gateway_payment', '1500.00', '2850.00'],
      [b.number, 'commission', '-150.00', '2700.00'],
      [b.number, 'refund_to_wallet', '-300.00', '2400.00'],
      [b.number, 'commission_refund', '30.00', '2430.00'],
      [null, 'payout', '-1000.00', '1430.00'],
    ],
  )
  assert.ok(s.lines.every((l: { date: string }) => l.date === today))
  // The gateway is named as owners know it, not by its code (the ledger wrote "through gateway_N").
  const online = s.lines.find((l: { kind: string }) => l.kind === 'gateway_payment')
  assert.match(online.description, /through (eSewa|Khalti|Fonepay)$/)
  assert.ok(s.lines.every((l: { description: string }) => !/gateway_\d/.test(l.description)))

  const csv = await app.inject({ method: 'GET', url, headers: { ...w.manager.headers, accept: 'text/csv' } })
  assert.equal(csv.statusCode, 200, csv.body)
  assert.match(String(csv.headers['content-type']), /^text\/csv/)
  // UTF-8 with a byte-order mark (Excel), a header, the opening balance, then one row per line with
  // its BS date beside the AD one.
  assert.deepEqual([...csv.rawPayload.subarray(0, 3)], [0xef, 0xbb, 0xbf])
  const rows = csv.body
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n')
  assert.equal(rows[0], 'date,date_bs,booking_number,kind,description,amount,balance_after')
  assert.equal(rows[1], `${today},${toBs(today)},,opening_balance,Opening balance,,0.00`)
  assert.equal(rows.length, 2 + s.lines.length)
  assert.match(
    rows.at(-1)!,
    new RegExp(`^${today},${toBs(today)},,payout,Payout \\d+: bank txn 123 \\(paid on ${today}\\),-1000.00,1430.00$`),
  )
  // The next day opens with that closing balance.
  const tomorrow = zone.today(new Date(clock.now().getTime() + 86_400_000))
  const next = await app.inject({
    method: 'GET',
    url: `/api/venues/${w.venue.id}/statement?from=${tomorrow}&to=${tomorrow}`,
    headers: { ...w.owner.headers, accept: 'text/csv' },
  })
  assert.equal(next.statusCode, 200, next.body)
  assert.deepEqual(
    next.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .slice(1),
    [`${tomorrow},${toBs(tomorrow)},,opening_balance,Opening balance,,1430.00`],
  )

  // The day before: nothing happened, the opening is the closing.
  const yesterday = zone.today(new Date(clock.now().getTime() - 86_400_000))
  const before = (
    await call('GET', `/api/venues/${w.venue.id}/statement?from=${yesterday}&to=${yesterday}`, w.owner)
  ).json().data
  assert.equal(before.closing_balance, '0.00')
  assert.deepEqual(before.lines, [])

  assert.equal((await call('GET', url, w.staff)).statusCode, 403)
  assert.equal((await call('GET', url, w.customer)).statusCode, 403)
  assert.equal((await call('GET', url, admin)).statusCode, 200)
  assert.equal((await app.inject({ method: 'GET', url })).statusCode, 401)
  const backwards = await call('GET', `/api/venues/${w.venue.id}/statement?from=${today}&to=${yesterday}`, w.owner)
  assert.equal(backwards.statusCode, 422)
  assert.equal(
    (await call('GET', `/api/venues/${w.venue.id}/statement?from=2027-02-30&to=${today}`, w.owner)).statusCode,
    422,
  )
  assert.equal(
    (await call('GET', `/api/venues/${w.venue.id}/statement?from=2025-01-01&to=2026-12-31`, w.owner)).statusCode,
    422,
  )
})

test('payouts: at most the balance, super admin only; listed for the venue; payouts due with payout details', async () => {
  const w = await world(app, { wallet: 1_000_000 })
  const session = await paid(w, 'wallet')
  await played(app, w, session.id)
  const url = `/api/admin/venues/${w.venue.id}/payouts`
  const body = { amount: '1000.00', reference: 'bank txn 9', paid_on: today }
  assert.equal((await call('POST', url, w.owner, body)).statusCode, 403)
  const tooMuch = await call('POST', url, admin, { ...body, amount: '1500.01' })
  assert.equal(tooMuch.statusCode, 422)
  assert.deepEqual(tooMuch.json().errors, {
    amount: ["The amount must not be greater than the venue's balance of 1500.00."],
  })
  for (const bad of [
    { ...body, amount: '10.005' },
    { ...body, reference: '' },
    { ...body, paid_on: '2026-02-30' },
    { ...body, paid_on: zone.today(new Date(clock.now().getTime() + 3 * 86_400_000)) },
  ]) {
    assert.equal((await call('POST', url, admin, bad)).statusCode, 422, JSON.stringify(bad))
  }
  // Two payouts racing for the same balance: one of them fits.
  const [x, y] = await Promise.all([
    call('POST', url, admin, body),
    call('POST', url, admin, { ...body, reference: 'bank txn 10' }),
  ])
  assert.deepEqual([x.statusCode, y.statusCode].sort(), [201, 422])
  const made = (x.statusCode === 201 ? x : y).json().data
  assert.deepEqual(
    { ...made, id: undefined, created_at: undefined },
    {
      id: undefined,
      venue_id: w.venue.id,
      amount: '1000.00',
      reference: x.statusCode === 201 ? 'bank txn 9' : 'bank txn 10',
      paid_on: today,
      created_by: admin.id,
      created_at: undefined,
    },
  )
  const list = await call('GET', `/api/venues/${w.venue.id}/payouts`, w.manager)
  assert.equal(list.statusCode, 200)
  assert.equal(list.json().data.length, 1)
  assert.equal((await call('GET', `/api/venues/${w.venue.id}/payouts`, w.staff)).statusCode, 403)

  // Payout details: the owner sets them; the super admin sees them in the payouts due.
  const accountUrl = `/api/venues/${w.venue.id}/payout-account`
  assert.equal((await call('GET', accountUrl, w.owner)).json().data, null)
  const details = {
    type: 'bank',
    account_name: 'Futsal Pvt Ltd',
    bank_name: 'Nabil Bank',
    account_number: '0123456789',
  }
  assert.equal((await call('PUT', accountUrl, w.manager, details)).statusCode, 403)
  assert.equal((await call('PUT', accountUrl, w.owner, { ...details, account_number: '' })).statusCode, 422)
  assert.equal((await call('PUT', accountUrl, w.owner, { type: 'esewa', account_name: 'X' })).statusCode, 422)
  const put = await call('PUT', accountUrl, w.owner, details)
  assert.equal(put.statusCode, 200, put.body)
  assert.equal((await call('GET', accountUrl, admin)).json().data.account_number, '0123456789')
  assert.equal((await call('GET', accountUrl, w.manager)).statusCode, 403)
  const due = await call('GET', '/api/admin/payouts/due', admin)
  assert.equal(due.statusCode, 200)
  const mine = due.json().data.find((d: { venue: { id: number } }) => d.venue.id === w.venue.id)
  assert.deepEqual(mine, {
    venue: { id: w.venue.id, name: w.venue.name, slug: w.venue.slug },
    balance: '500.00',
    reserve: '0.00',
    available: '500.00',
    owing: false,
    payout_account: { ...details, merchant_id: null },
  })
  assert.equal((await call('GET', '/api/admin/payouts/due', w.owner)).statusCode, 403)
})
