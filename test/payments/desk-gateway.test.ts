import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { checkLedger } from '../../src/modules/ledger/index.ts'
import { ANSWER_LOST, sendGatewayRefund } from '../../src/modules/payments/gateway-refunds.ts'
import { book, fixedSlot, type World, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { ledger, payAtDeskByQr, simulate } from './helpers.ts'

// Gateway money at the desk is verified, never typed (issue 46; docs/payments.md, "Gateway payments
// at the desk"): POST …/payments with gateway_1/2/3 is a QR payment the customer pays from their
// phone, counted only when the gateway confirms it; refunded, it goes back through the gateway (a
// gateway refund due: Khalti's refund API, or the owner marking it done), never as cash from the
// drawer and never to a wallet. Payments staff typed before are marked unverified.

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time).
let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

function call(method: 'GET' | 'POST' | 'PATCH', url: string, user: TestUser | undefined, payload?: object) {
  return app.inject({ method, url, headers: user?.headers, payload })
}

async function walkIn(w: World, days: number, start = '10:00', end = '11:00') {
  const res = await call('POST', `/api/venues/${w.venue.id}/bookings`, w.staff, {
    ...fixedSlot(w.court.id, days, start, end),
    type: 'walkin',
    customer_name: 'Walk-in Ram',
  })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { id: number; total_amount: string }
}

async function bookingOf(id: number) {
  return app.ctx.db
    .selectFrom('bookings')
    .select(['status', 'paid_amount', 'total_amount'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

async function assertBooksBalance() {
  const check = await checkLedger(app.ctx.db)
  assert.deepEqual(check.problems, [])
}

async function cashUpExpected(w: World) {
  const res = await call('GET', `/api/venues/${w.venue.id}/cash-up?date=2026-03-10`, w.manager)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data.expected_cash as string
}

test('the reproduction: a typed gateway reference records no money, and cancelling hands no cash back', async () => {
  const w = await world(app)
  const b = await walkIn(w, 2)
  const before = await cashUpExpected(w)
  const res = await call('POST', `/api/bookings/${b.id}/payments`, w.staff, {
    method: 'gateway_2',
    amount: '1500.00',
    reference: 'NEVER-RECEIVED-9',
  })
  assert.equal(res.statusCode, 201, res.body)
  const intent = res.json().data
  assert.deepEqual(Object.keys(intent).sort(), ['payment', 'payment_url', 'qr_svg'])
  assert.equal(intent.payment.status, 'initiated')
  assert.equal(intent.payment.method, 'gateway_2')
  assert.equal(intent.payment.amount, '1500.00')
  assert.match(intent.payment_url, /^http/)
  assert.match(intent.qr_svg, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
  assert.deepEqual(await bookingOf(b.id), { status: 'pending', paid_amount: 0, total_amount: 150000 })
  const cancel = await call('PATCH', `/api/bookings/${b.id}/status`, w.staff, { status: 'cancelled' })
  assert.equal(cancel.statusCode, 200, cancel.body)
  const cashBacks = await call('GET', `/api/venues/${w.venue.id}/cash-backs?status=all`, w.staff)
  assert.deepEqual(cashBacks.json().data, [])
  assert.equal(await cashUpExpected(w), before)
  // The same made-up reference on a second booking records nothing either.
  const other = await walkIn(w, 3)
  const again = await call('POST', `/api/bookings/${other.id}/payments`, w.staff, {
    method: 'gateway_3',
    amount: '1500.00',
    reference: 'NEVER-RECEIVED-9',
  })
  assert.equal(again.statusCode, 201, again.body)
  assert.equal((await bookingOf(other.id)).paid_amount, 0)
  await assertBooksBalance()
})

test('the customer pays the QR at the gateway: the booking is confirmed through the verify path, once', async () => {
  const w = await world(app)
  const res = await book(app, w.customer, fixedSlot(w.court.id, 4))
  const id = res.json().data.id as number
  for (const method of ['gateway_1', 'gateway_2', 'gateway_3'] as const) {
    // A failed attempt changes nothing; each gateway's QR works the same way.
    const { intent } = await payAtDeskByQr(app, w.staff, { id }, '500.00', method, 'failure')
    const failed = await call('GET', `/api/payments/${intent.payment.id}`, w.staff)
    assert.equal(failed.json().data.status, 'failed')
    assert.equal((await bookingOf(id)).paid_amount, 0)
  }
  const first = await payAtDeskByQr(app, w.staff, { id }, '500.00', 'gateway_1')
  // The customer's phone lands on a plain page that says what the service knows.
  assert.equal(first.callback.statusCode, 302)
  const landed = new URL(first.callback.headers.location as string)
  const landing = await app.inject({ method: 'GET', url: landed.pathname + landed.search })
  assert.equal(landing.statusCode, 200)
  assert.match(landing.body, /<html lang="en">.*Payment received/)
  // A phone set to Nepali reads it in Nepali.
  const nepali = await app.inject({
    method: 'GET',
    url: landed.pathname + landed.search,
    headers: { 'accept-language': 'ne-NP' },
  })
  assert.match(nepali.body, /<html lang="ne-NP">.*भुक्तानी प्राप्त भयो।/)
  assert.deepEqual(await bookingOf(id), { status: 'pending', paid_amount: 50000, total_amount: 150000 })
  await payAtDeskByQr(app, w.manager, { id }, '1000.00', 'gateway_3')
  const shown = (await call('GET', `/api/bookings/${id}`, w.customer)).json().data
  assert.equal(shown.status, 'confirmed')
  assert.equal(shown.paid_amount, '1500.00')
  const desk = shown.payments.filter((p: { status: string }) => p.status === 'completed')
  assert.deepEqual(
    desk.map((p: { method: string; unverified: boolean }) => [p.method, p.unverified]),
    [
      ['gateway_1', false],
      ['gateway_3', false],
    ],
  )
  const rows = await app.ctx.db
    .selectFrom('payments')
    .select(['recorded_by'])
    .where('payable_type', '=', 'court')
    .where('payable_id', '=', id)
    .where('status', '=', 'completed')
    .execute()
  assert.deepEqual(rows.map((r) => r.recorded_by).sort(), [w.staff.id, w.manager.id].sort())
  // The money is online money the platform holds for the venue: its balance, not the drawer.
  const entries = await app.ctx.db
    .selectFrom('ledger_entries')
    .select('kind')
    .where('booking_type', '=', 'court')
    .where('booking_id', '=', id)
    .execute()
  assert.ok(entries.some((e) => e.kind === 'gateway_payment'))
  assert.ok(!entries.some((e) => e.kind === 'desk_payment'))
  // Nothing more is due: another QR is refused as cash would be.
  const more = await call('POST', `/api/bookings/${id}/payments`, w.staff, { method: 'gateway_2', amount: '1.00' })
  assert.equal(more.statusCode, 422)
  assert.deepEqual(more.json(), { message: 'This booking is already paid.' })
  await assertBooksBalance()
})

test('who may start a desk QR payment, and for how much', async () => {
  const w = await world(app)
  const id = (await book(app, w.customer, fixedSlot(w.court.id, 5))).json().data.id as number
  const url = `/api/bookings/${id}/payments`
  const body = { method: 'gateway_2', amount: '100.00' }
  assert.equal((await call('POST', url, undefined, body)).statusCode, 401)
  assert.equal((await call('POST', url, w.customer, body)).statusCode, 403)
  const stranger = await createUser(app, { roles: ['staff'] })
  assert.equal((await call('POST', url, stranger, body)).statusCode, 403)
  assert.equal((await call('POST', '/api/bookings/99999999/payments', w.staff, body)).statusCode, 404)
  const own = (await book(app, w.staff, fixedSlot(w.court.id, 5, '12:00', '13:00'))).json().data.id
  const refused = await call('POST', `/api/bookings/${own}/payments`, w.staff, body)
  assert.equal(refused.statusCode, 403)
  assert.deepEqual(refused.json(), { message: 'You may not record a payment on your own booking.' })
  const tooMuch = await call('POST', url, w.staff, { method: 'gateway_1', amount: '1500.01' })
  assert.equal(tooMuch.statusCode, 422)
  assert.deepEqual(tooMuch.json().errors, {
    amount: ['The amount must not be greater than the balance due of 1500.00.'],
  })
  for (const bad of [
    { method: 'gateway_9', amount: '10.00' },
    { method: 'gateway_1', amount: null },
    { method: 'gateway_1', amount: '0.00' },
    { method: 'gateway_1', amount: '1.001' },
    { method: 1, amount: '10.00' },
  ]) {
    const res = await call('POST', url, w.staff, bad)
    assert.equal(res.statusCode, 422, `${JSON.stringify(bad)}: ${res.body}`)
    assert.equal(res.json().message, 'The given data was invalid.')
  }
  const cancelled = (await book(app, w.customer, fixedSlot(w.court.id, 5, '14:00', '15:00'))).json().data.id
  await call('PATCH', `/api/bookings/${cancelled}/cancel`, w.customer, {})
  const late = await call('POST', `/api/bookings/${cancelled}/payments`, w.staff, body)
  assert.equal(late.statusCode, 422)
  assert.deepEqual(late.json(), { message: 'This booking cannot be paid.' })
  const payments = await app.ctx.db
    .selectFrom('payments')
    .select('id')
    .where('payable_id', 'in', [id, own, cancelled])
    .where('payable_type', '=', 'court')
    .execute()
  assert.deepEqual(payments, [])
})

test('refunded, desk QR money goes back through the gateway: a refund due the platform marks done, never cash or wallet', async () => {
  const w = await world(app)
  const id = (await book(app, w.customer, fixedSlot(w.court.id, 6))).json().data.id as number
  const { intent } = await payAtDeskByQr(app, w.staff, { id }, '1500.00', 'gateway_1')
  const walletBefore = (await ledger(app, w.customer.id)).balance
  const expectedBefore = await cashUpExpected(w)
  // Never to a wallet, never at the desk.
  for (const to of ['wallet', 'desk']) {
    const res = await call('POST', `/api/payments/${intent.payment.id}/refund`, w.owner, { to })
    assert.equal(res.statusCode, 422, res.body)
    assert.deepEqual(res.json().errors, {
      to: ['Gateway money taken at the desk is refunded through its gateway, never as cash or to a wallet.'],
    })
  }
  const preview = await call('GET', `/api/bookings/${id}/cancellation`, w.customer)
  assert.match(
    preview.json().data.reason,
    /Rs 1,500\.00 paid by eSewa, Khalti or Fonepay at the venue goes back through that gateway\./,
  )
  const cancel = await call('PATCH', `/api/bookings/${id}/status`, w.manager, { status: 'cancelled' })
  assert.equal(cancel.statusCode, 200, cancel.body)
  assert.equal((await ledger(app, w.customer.id)).balance, walletBefore)
  assert.deepEqual((await call('GET', `/api/venues/${w.venue.id}/cash-backs?status=all`, w.staff)).json().data, [])
  assert.equal(await cashUpExpected(w), expectedBefore)
  const list = `/api/venues/${w.venue.id}/gateway-refunds`
  assert.equal((await call('GET', list, w.staff)).statusCode, 403)
  assert.equal((await call('GET', list, w.customer)).statusCode, 403)
  const due = (await call('GET', list, w.owner)).json().data
  assert.equal(due.length, 1)
  assert.deepEqual(
    [due[0].payment_id, due[0].method, due[0].amount, due[0].status, due[0].gateway_reference],
    [intent.payment.id, 'gateway_1', '1500.00', 'due', null],
  )
  const done = `${list}/${due[0].id}/done`
  assert.equal((await call('POST', done, w.staff, { reference: 'ESW-R-1' })).statusCode, 403)
  assert.equal((await call('POST', done, w.manager, {})).statusCode, 422)
  assert.equal((await call('POST', done, w.manager, { reference: '' })).statusCode, 422)
  assert.equal((await call('POST', `${list}/99999999/done`, w.manager, { reference: 'X' })).statusCode, 404)
  assert.equal((await call('POST', done, w.manager, { reference: '   ' })).statusCode, 422)
  // The platform's gateway took this money: the platform sends it back, not the venue.
  assert.equal(due[0].refund_from, 'platform')
  const venueTries = await call('POST', done, w.manager, { reference: 'ESW-R-1' })
  assert.equal(venueTries.statusCode, 403, venueTries.body)
  assert.deepEqual(venueTries.json(), {
    message: "The platform's gateway took this money: the platform sends it back and marks it done (super_admin).",
  })
  const admin = await createUser(app, { roles: ['super_admin'] })
  const marked = await call('POST', done, admin, { reference: 'ESW-R-1' })
  assert.equal(marked.statusCode, 200, marked.body)
  assert.deepEqual(
    [marked.json().data.status, marked.json().data.gateway_reference, marked.json().data.done_by],
    ['done', 'ESW-R-1', admin.id],
  )
  const twice = await call('POST', done, admin, { reference: 'ESW-R-2' })
  assert.equal(twice.statusCode, 422)
  assert.deepEqual(twice.json(), { message: 'This gateway refund is already done.' })
  assert.deepEqual((await call('GET', list, w.owner)).json().data, [])
  assert.equal((await call('GET', `${list}?status=done`, w.owner)).json().data.length, 1)
  // The same gateway reference cannot settle a second refund.
  const second = (await book(app, w.customer, fixedSlot(w.court.id, 7))).json().data.id as number
  const paid2 = await payAtDeskByQr(app, w.staff, { id: second }, '1500.00', 'gateway_1')
  const refund = await call('POST', `/api/payments/${paid2.intent.payment.id}/refund`, w.owner, { amount: '500.00' })
  assert.equal(refund.statusCode, 200, refund.body)
  assert.match(refund.json().message, /^Refund due at the gateway/)
  const due2 = (await call('GET', list, w.owner)).json().data[0]
  assert.equal(due2.amount, '500.00')
  const dup = await call('POST', `${list}/${due2.id}/done`, admin, { reference: ' esw-r-1 ' })
  assert.equal(dup.statusCode, 409)
  assert.deepEqual(dup.json(), { message: 'The gateway reference esw-r-1 is already recorded for another refund.' })
  // Two refunds marked done at once with one new reference: one 200, one 409 (never a 500).
  const third = (await book(app, w.customer, fixedSlot(w.court.id, 7, '12:00', '13:00'))).json().data.id as number
  const paid3 = await payAtDeskByQr(app, w.staff, { id: third }, '1500.00', 'gateway_1')
  await call('POST', `/api/payments/${paid3.intent.payment.id}/refund`, w.owner, {})
  const pair = (await call('GET', list, w.owner)).json().data.map((r: { id: number }) => r.id)
  assert.equal(pair.length, 2)
  const raced = await Promise.all(
    pair.map((id: number) => call('POST', `${list}/${id}/done`, admin, { reference: 'ESW-SAME' })),
  )
  assert.deepEqual(raced.map((r) => r.statusCode).sort(), [200, 409], raced.map((r) => r.body).join('\n'))
  await assertBooksBalance()
})

test("a verified Khalti QR payment's refund is sent through Khalti's refund API by the refund job", async () => {
  const w = await world(app)
  const id = (await book(app, w.customer, fixedSlot(w.court.id, 8))).json().data.id as number
  const { intent } = await payAtDeskByQr(app, w.staff, { id }, '1500.00', 'gateway_2')
  const res = await call('POST', `/api/payments/${intent.payment.id}/refund`, w.owner, {})
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().message, 'Refund due at the gateway: it is being sent back through Khalti.')
  const due = (await call('GET', `/api/venues/${w.venue.id}/gateway-refunds`, w.owner)).json().data
  assert.equal(due.length, 1)
  const job = await app.ctx.db
    .selectFrom('jobs')
    .select('name')
    .where('unique_key', '=', `gateway-refund:${due[0].id}`)
    .executeTakeFirst()
  assert.equal(job?.name, 'payments.gateway_refund')
  assert.equal(await sendGatewayRefund(app.ctx, app.gateways, due[0].id), true)
  // Run again (a retried job): nothing is sent twice.
  assert.equal(await sendGatewayRefund(app.ctx, app.gateways, due[0].id), false)
  // A refund already asked for whose answer was lost is never asked again: it waits for a person.
  const id2 = (await book(app, w.customer, fixedSlot(w.court.id, 8, '12:00', '13:00'))).json().data.id as number
  const paid2 = await payAtDeskByQr(app, w.staff, { id: id2 }, '1500.00', 'gateway_2')
  await call('POST', `/api/payments/${paid2.intent.payment.id}/refund`, w.owner, {})
  const lost = (await call('GET', `/api/venues/${w.venue.id}/gateway-refunds`, w.owner)).json().data[0]
  await app.ctx.db.updateTable('gateway_refunds').set({ sent_at: new Date() }).where('id', '=', lost.id).execute()
  assert.equal(await sendGatewayRefund(app.ctx, app.gateways, lost.id), false)
  const after = (await call('GET', `/api/venues/${w.venue.id}/gateway-refunds`, w.owner)).json().data[0]
  assert.deepEqual([after.status, after.last_error], ['due', ANSWER_LOST])
  const done = (await call('GET', `/api/venues/${w.venue.id}/gateway-refunds?status=done`, w.owner)).json().data
  assert.equal(done.length, 1)
  assert.equal(done[0].done_by, null)
  assert.match(done[0].gateway_reference, /^khalti-refund:/)
  await assertBooksBalance()
})

test('two QR payments for the same balance: the booking takes one, the other goes back through its gateway', async () => {
  const w = await world(app)
  const b = await walkIn(w, 9)
  const url = `/api/bookings/${b.id}/payments`
  const [a, c] = await Promise.all([
    call('POST', url, w.staff, { method: 'gateway_1', amount: '1500.00' }),
    // eSewa and Khalti: whichever arrives second is the surplus, returned in full (neither has promotions).
    call('POST', url, w.manager, { method: 'gateway_2', amount: '1500.00' }),
  ])
  assert.equal(a.statusCode, 201, a.body)
  assert.equal(c.statusCode, 201, c.body)
  const backs = await Promise.all(
    [a, c].map(async (r) =>
      app.inject({ method: 'GET', url: await simulate(app, r.json().data.payment_url, 'success') }),
    ),
  )
  for (const r of backs) assert.ok([200, 302].includes(r.statusCode), r.body)
  assert.deepEqual(await bookingOf(b.id), { status: 'confirmed', paid_amount: 150000, total_amount: 150000 })
  const due = (await call('GET', `/api/venues/${w.venue.id}/gateway-refunds`, w.owner)).json().data
  assert.equal(due.length, 1)
  assert.equal(due[0].amount, '1500.00')
  await assertBooksBalance()
})

test('a payment staff typed before desk QR payments is unverified: refunded only at the gateway, never as cash or wallet', async () => {
  const w = await world(app)
  const id = (await book(app, w.customer, fixedSlot(w.court.id, 10))).json().data.id as number
  // What the old desk route wrote for {"method":"gateway_2","reference":"OLD-1"}, as migration 030 marks it.
  await call('POST', `/api/bookings/${id}/payments`, w.staff, { method: 'cash', amount: '1500.00' })
  await app.ctx.db
    .updateTable('payments')
    .set({ method: 'gateway_2', gateway_transaction_id: 'OLD-1', unverified: true })
    .where('payable_type', '=', 'court')
    .where('payable_id', '=', id)
    .execute()
  const shown = (await call('GET', `/api/bookings/${id}`, w.customer)).json().data
  assert.equal(shown.payments[0].unverified, true)
  const pid = shown.payments[0].id
  const wallet = await call('POST', `/api/payments/${pid}/refund`, w.owner, { to: 'wallet' })
  assert.equal(wallet.statusCode, 422, wallet.body)
  assert.equal((await ledger(app, w.customer.id)).balance, 0)
  const cancel = await call('PATCH', `/api/bookings/${id}/status`, w.manager, { status: 'cancelled' })
  assert.equal(cancel.statusCode, 200, cancel.body)
  assert.deepEqual((await call('GET', `/api/venues/${w.venue.id}/cash-backs?status=all`, w.staff)).json().data, [])
  const due = (await call('GET', `/api/venues/${w.venue.id}/gateway-refunds`, w.owner)).json().data
  assert.deepEqual(
    due.map((d: { method: string; amount: string }) => [d.method, d.amount]),
    [['gateway_2', '1500.00']],
  )
  // Unverified Khalti money is not sent by the refund API: the owner settles it by hand.
  assert.equal(await sendGatewayRefund(app.ctx, app.gateways, due[0].id), false)
  // It went to the venue's own merchant account: the venue sends it back and marks it done.
  assert.equal(due[0].refund_from, 'venue')
  const marked = await call('POST', `/api/venues/${w.venue.id}/gateway-refunds/${due[0].id}/done`, w.owner, {
    reference: 'KHALTI-MANUAL-7',
  })
  assert.equal(marked.statusCode, 200, marked.body)
  assert.equal((await ledger(app, w.customer.id)).balance, 0)
  await assertBooksBalance()
})

test('a Fonepay QR payment the customer paid less for (a gateway promotion): only what they paid goes back', async () => {
  const w = await world(app)
  const id = (await book(app, w.customer, fixedSlot(w.court.id, 11))).json().data.id as number
  const { intent } = await payAtDeskByQr(app, w.staff, { id }, '1500.00', 'gateway_3')
  // Fonepay said the customer paid 1,350.00 of it (P_AMT), as the settle path records it.
  await app.ctx.db.updateTable('payments').set({ paid_amount: 135000 }).where('id', '=', intent.payment.id).execute()
  const cancel = await call('PATCH', `/api/bookings/${id}/status`, w.manager, { status: 'cancelled' })
  assert.equal(cancel.statusCode, 200, cancel.body)
  const due = (await call('GET', `/api/venues/${w.venue.id}/gateway-refunds`, w.owner)).json().data
  assert.deepEqual(
    due.map((d: { method: string; amount: string }) => [d.method, d.amount]),
    [['gateway_3', '1350.00']],
  )
  await assertBooksBalance()
})
