import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import type { App } from '../../src/app.ts'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { account, accountSum, checkLedger } from '../../src/modules/ledger/index.ts'
import { notificationsOf, type World, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { call, day, noonClock, TODAY, zone } from '../reports/helpers.ts'
import {
  approveUrl,
  cashBacks,
  legacyGatewayPayment,
  paidOutTheOldWay,
  payUrl,
  refundedTheOldWay,
  takeCash,
  walkIn,
} from './cash-back-helpers.ts'

// Cash-backs are visible and bounded (issue 46): the drawer pays back only the cash it took for the
// booking (never a gateway payment typed at the desk), above CASH_BACK_APPROVAL_AMOUNT (default
// 5000.00) an owner or manager approves first, the cash-up lists every cash-back with who took the
// payment, who cancelled, who approved and who paid it out, and the owner is told of each.

const clock = noonClock()
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

const drawer = (venueId: number) => accountSum(app.ctx.db, account.venueDesk(venueId))
const nameOf = async (id: number) =>
  (await app.ctx.db.selectFrom('users').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name
const cashUpOf = async (w: World) => {
  const res = await call(app, 'GET', `/api/venues/${w.venue.id}/cash-up?date=${TODAY}`, w.staff)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data
}
const cancel = async (who: World['staff'], id: number) => {
  const res = await call(app, 'PATCH', `/api/bookings/${id}/status`, who, { status: 'cancelled' })
  assert.equal(res.statusCode, 200, res.body)
}

test("the issue's reproduction: a made-up gateway reference taken at the desk and cancelled never leaves the drawer", async () => {
  clock.set(zone.instant(TODAY, '12:00'))
  const w = await world(app, { price: 120000 })
  const id = await walkIn(app, w.staff, w.venue.id, w.court.id, day(2))
  const paymentId = await legacyGatewayPayment(app, w.staff, id, 120000)
  const before = await cashUpOf(w)
  // The ledger's desk account holds all desk money, the typed gateway payment too.
  const desk = await drawer(w.venue.id)
  assert.equal(desk, 120000)
  // Cancelled before desk QR payments, it left a cash-back due (now it is a gateway refund due).
  await refundedTheOldWay(app, paymentId, () => cancel(w.staff, id))

  const [due] = await cashBacks(app, w.venue.id, w.staff)
  assert.equal(due.payment_id, paymentId)
  assert.equal(due.payment_method, 'gateway_2')
  assert.equal(due.amount, '1200.00')
  assert.equal(due.covered_by_drawer, false)
  assert.equal(due.needs_approval, false)
  assert.deepEqual([due.taken_by, due.cancelled_by], [w.staff.id, w.staff.id])
  assert.equal(due.taken_by_name, await nameOf(w.staff.id))

  const refusal = 'This cash-back refunds a gateway_2 payment, not cash: it is never paid out from the drawer.'
  for (const who of [w.staff, w.manager, w.owner]) {
    const pay = await call(app, 'POST', payUrl(w.venue.id, due.id), who)
    assert.equal(pay.statusCode, 422, pay.body)
    assert.equal(pay.json().message, refusal)
  }
  const approve = await call(app, 'POST', approveUrl(w.venue.id, due.id), w.owner)
  assert.equal(approve.statusCode, 422, approve.body)
  assert.equal(approve.json().message, refusal)

  // The drawer and the cash-up are as they were: nothing was taken in cash, nothing goes out.
  const after = await cashUpOf(w)
  assert.equal(after.expected_cash, before.expected_cash)
  assert.equal(after.cash_backs, '0.00')
  assert.equal(await drawer(w.venue.id), desk)
  assert.equal((await cashBacks(app, w.venue.id, w.staff))[0].status, 'due')
  // Listed for the owner to see: who took it and who cancelled.
  const listed = after.cash_backs_of_day.find((c: { id: number }) => c.id === due.id)
  const staff = { id: w.staff.id, name: await nameOf(w.staff.id) }
  assert.deepEqual(
    [listed.status, listed.payment_method, listed.amount, listed.taken_by, listed.cancelled_by, listed.paid_by],
    ['due', 'gateway_2', '1200.00', staff, staff, null],
  )
})

test("a cash-back is paid only against the booking's cash still in the drawer", async () => {
  clock.set(zone.instant(TODAY, '12:00'))
  const w = await world(app, { price: 150000 })
  // Cash 1,000 and a typed gateway 500; the venue cancels; the gateway's cash-back was handed over by
  // the old rule, so 500 of the booking's cash already left the drawer.
  const id = await walkIn(app, w.staff, w.venue.id, w.court.id, day(3))
  await takeCash(app, w.staff, id, '1000.00')
  const typedId = await legacyGatewayPayment(app, w.staff, id, 50000)
  await refundedTheOldWay(app, typedId, () => cancel(w.manager, id))
  const due = await cashBacks(app, w.venue.id, w.staff)
  const cash = due.find((c) => c.payment_method === 'cash')!
  const gateway = due.find((c) => c.payment_method === 'gateway_2')!
  assert.equal(cash.amount, '1000.00')
  assert.equal(cash.covered_by_drawer, true)
  assert.equal(cash.cancelled_by, w.manager.id)
  await paidOutTheOldWay(app, w.venue.id, gateway.id, w.staff)
  // The desk account: 1,000 cash and the typed 500 in, 500 out.
  assert.equal(await drawer(w.venue.id), 100000)

  const listed = (await cashBacks(app, w.venue.id, w.staff)).find((c) => c.id === cash.id)!
  assert.equal(listed.covered_by_drawer, false)
  for (const who of [w.staff, w.owner]) {
    const pay = await call(app, 'POST', payUrl(w.venue.id, cash.id), who)
    assert.equal(pay.statusCode, 422, pay.body)
    assert.equal(pay.json().message, 'This cash-back is more than the cash taken for this booking.')
  }
  assert.equal(await drawer(w.venue.id), 100000)

  // Partial refunds of cash are paid out up to exactly the cash taken; the refunder is kept.
  const other = await walkIn(app, w.staff, w.venue.id, w.court.id, day(4))
  const paymentId = await takeCash(app, w.staff, other, '1500.00')
  for (const amount of ['600.00', '900.00']) {
    const refund = await call(app, 'POST', `/api/payments/${paymentId}/refund`, w.owner, { amount })
    assert.equal(refund.statusCode, 200, refund.body)
    const c = (await cashBacks(app, w.venue.id, w.staff)).find((x) => x.payment_id === paymentId)!
    assert.deepEqual(
      [c.amount, c.cancelled_by, c.taken_by, c.covered_by_drawer],
      [amount, w.owner.id, w.staff.id, true],
    )
    const pay = await call(app, 'POST', payUrl(w.venue.id, c.id), w.staff)
    assert.equal(pay.statusCode, 200, pay.body)
  }
  assert.equal(await drawer(w.venue.id), 100000)
  const closing = await cashUpOf(w)
  assert.deepEqual([closing.cash, closing.cash_backs, closing.expected_cash], ['2500.00', '2000.00', '500.00'])
})

test('above 5,000.00 staff pay a cash-back only after an owner or manager approves it', async () => {
  clock.set(zone.instant(TODAY, '12:00'))
  const w = await world(app, { price: 600000 })
  const id = await walkIn(app, w.staff, w.venue.id, w.court.id, day(5))
  await takeCash(app, w.staff, id, '6000.00')
  await cancel(w.staff, id)
  const [due] = await cashBacks(app, w.venue.id, w.staff)
  assert.deepEqual([due.amount, due.needs_approval, due.approved_by, due.approved_at], ['6000.00', true, null, null])
  assert.deepEqual(
    (await cashBacks(app, w.venue.id, w.staff, 'awaiting_approval')).map((c) => c.id),
    [due.id],
  )

  const early = await call(app, 'POST', payUrl(w.venue.id, due.id), w.staff)
  assert.equal(early.statusCode, 422, early.body)
  assert.equal(early.json().message, "This cash-back needs an owner's or manager's approval.")
  assert.equal(await drawer(w.venue.id), 600000)
  assert.equal((await call(app, 'POST', approveUrl(w.venue.id, due.id), w.staff)).statusCode, 403)

  clock.set(zone.instant(TODAY, '12:30'))
  const approved = await call(app, 'POST', approveUrl(w.venue.id, due.id), w.manager)
  assert.equal(approved.statusCode, 200, approved.body)
  const a = approved.json().data
  assert.deepEqual(
    [a.id, a.status, a.approved_by, a.approved_by_name, a.approved_at],
    [due.id, 'due', w.manager.id, await nameOf(w.manager.id), `${TODAY} 12:30:00`],
  )
  assert.deepEqual(await cashBacks(app, w.venue.id, w.staff, 'awaiting_approval'), [])
  const twice = await call(app, 'POST', approveUrl(w.venue.id, due.id), w.owner)
  assert.equal(twice.statusCode, 422, twice.body)
  assert.equal(twice.json().message, 'This cash-back has already been approved.')

  clock.set(zone.instant(TODAY, '13:00'))
  const paid = await call(app, 'POST', payUrl(w.venue.id, due.id), w.staff)
  assert.equal(paid.statusCode, 200, paid.body)
  const p = paid.json().data
  assert.deepEqual(
    [p.status, p.paid_by, p.paid_by_name, p.paid_at, p.approved_by, p.taken_by, p.cancelled_by],
    ['paid', w.staff.id, await nameOf(w.staff.id), `${TODAY} 13:00:00`, w.manager.id, w.staff.id, w.staff.id],
  )
  assert.equal(await drawer(w.venue.id), 0)
  const late = await call(app, 'POST', approveUrl(w.venue.id, due.id), w.owner)
  assert.equal(late.statusCode, 422, late.body)
  assert.equal(late.json().message, 'This cash-back has already been paid.')

  // The owner paying one themselves approves it; exactly 5,000.00 needs no approval.
  const big = await walkIn(app, w.staff, w.venue.id, w.court.id, day(6))
  await takeCash(app, w.staff, big, '6000.00')
  await cancel(w.manager, big)
  const [second] = await cashBacks(app, w.venue.id, w.staff)
  const byOwner = await call(app, 'POST', payUrl(w.venue.id, second.id), w.owner)
  assert.equal(byOwner.statusCode, 200, byOwner.body)
  assert.deepEqual([byOwner.json().data.approved_by, byOwner.json().data.paid_by], [w.owner.id, w.owner.id])

  const edge = await walkIn(app, w.staff, w.venue.id, w.court.id, day(7))
  const payment = await takeCash(app, w.staff, edge, '6000.00')
  assert.equal(
    (await call(app, 'POST', `/api/payments/${payment}/refund`, w.manager, { amount: '5000.00' })).statusCode,
    200,
  )
  const [small] = await cashBacks(app, w.venue.id, w.staff)
  assert.deepEqual([small.amount, small.needs_approval], ['5000.00', false])
  const needless = await call(app, 'POST', approveUrl(w.venue.id, small.id), w.owner)
  assert.equal(needless.statusCode, 422, needless.body)
  assert.equal(needless.json().message, 'This cash-back needs no approval.')
  assert.equal((await call(app, 'POST', payUrl(w.venue.id, small.id), w.staff)).statusCode, 200)

  // The cash-up lists each with who took the payment, who cancelled, who approved and who paid it out.
  const up = await cashUpOf(w)
  const ref = async (id: number) => ({ id, name: await nameOf(id) })
  const line = (cid: number) => up.cash_backs_of_day.find((c: { id: number }) => c.id === cid)
  assert.deepEqual(
    {
      ...line(due.id),
      created_at: undefined,
    },
    {
      id: due.id,
      payment_id: due.payment_id,
      payment_method: 'cash',
      booking_number: due.booking_number,
      booking_type: 'court',
      amount: '6000.00',
      reason: `Refund for cancelled booking ${due.booking_number}`,
      status: 'paid',
      needs_approval: true,
      created_at: undefined,
      taken_by: await ref(w.staff.id),
      cancelled_by: await ref(w.staff.id),
      approved_by: await ref(w.manager.id),
      approved_at: `${TODAY} 12:30:00`,
      paid_by: await ref(w.staff.id),
      paid_at: `${TODAY} 13:00:00`,
    },
  )
  assert.deepEqual(
    [line(second.id).cancelled_by, line(second.id).approved_by, line(second.id).paid_by],
    [await ref(w.manager.id), await ref(w.owner.id), await ref(w.owner.id)],
  )
  assert.deepEqual([line(small.id).cancelled_by, line(small.id).approved_by], [await ref(w.manager.id), null])
  const paidLine = up.cash_backs_paid.find((c: { id: number }) => c.id === due.id)
  assert.deepEqual(
    [paidLine.staff, paidLine.taken_by, paidLine.cancelled_by, paidLine.approved_by],
    [await ref(w.staff.id), await ref(w.staff.id), await ref(w.staff.id), await ref(w.manager.id)],
  )
  assert.deepEqual([up.cash, up.cash_backs, up.expected_cash], ['18000.00', '17000.00', '1000.00'])

  // The owner was told of each: when it fell due and when it was paid out.
  const told = (await notificationsOf(app, w.owner.id)).filter((n) => n.type.startsWith('CashBack'))
  assert.deepEqual(
    told.map((n) => [n.type, n.data.cash_back_id, n.data.amount]),
    [
      ['CashBackDue', due.id, '6000.00'],
      ['CashBackPaid', due.id, '6000.00'],
      ['CashBackDue', second.id, '6000.00'],
      ['CashBackPaid', second.id, '6000.00'],
      ['CashBackDue', small.id, '5000.00'],
      ['CashBackPaid', small.id, '5000.00'],
    ],
  )
  assert.match(
    String(told[0].data.message),
    /^A cash-back of Rs 6000\.00 for booking .* is due at the desk of .*approval/,
  )
  assert.match(
    String(told[1].data.message),
    new RegExp(`paid out at the desk of .* by ${await nameOf(w.staff.id)}\\.$`),
  )
  assert.deepEqual(
    [told[1].data.taken_by, told[1].data.cancelled_by, told[1].data.approved_by, told[1].data.paid_by],
    [w.staff.id, w.staff.id, w.manager.id, w.staff.id],
  )
})

test("a refund split over several cash payments is judged as a whole: the booking's cash-backs together need approval", async () => {
  clock.set(zone.instant(TODAY, '12:00'))
  const w = await world(app, { price: 1200000 })
  const id = await walkIn(app, w.staff, w.venue.id, w.court.id, day(4))
  for (let i = 0; i < 3; i++) await takeCash(app, w.staff, id, '4000.00')
  await cancel(w.staff, id)
  const due = (await cashBacks(app, w.venue.id, w.staff)).filter((c) => c.booking_id === id)
  assert.deepEqual(
    due.map((c) => [c.amount, c.needs_approval]),
    [
      ['4000.00', true],
      ['4000.00', true],
      ['4000.00', true],
    ],
  )
  const pay = await call(app, 'POST', payUrl(w.venue.id, due[0].id), w.staff)
  assert.equal(pay.statusCode, 422, pay.body)
  assert.equal(pay.json().message, "This cash-back needs an owner's or manager's approval.")
  const awaiting = await cashBacks(app, w.venue.id, w.owner, 'awaiting_approval')
  assert.deepEqual(awaiting.filter((c) => c.booking_id === id).length, 3)
})

test('CASH_BACK_APPROVAL_AMOUNT sets the bound', async (t) => {
  const low = await build(t, { CASH_BACK_APPROVAL_AMOUNT: '1000.00' }, { clock: noonClock() })
  const w = await world(low, { price: 150000 })
  const id = await walkIn(low, w.staff, w.venue.id, w.court.id, day(2))
  await takeCash(low, w.staff, id, '1500.00')
  assert.equal(
    (await call(low, 'PATCH', `/api/bookings/${id}/status`, w.staff, { status: 'cancelled' })).statusCode,
    200,
  )
  const [due] = await cashBacks(low, w.venue.id, w.staff)
  assert.equal(due.needs_approval, true)
  assert.equal((await call(low, 'POST', payUrl(w.venue.id, due.id), w.staff)).statusCode, 422)
  // A typed gateway payment's cash-back above it awaits no approval: the drawer never pays it.
  const typed = await walkIn(low, w.staff, w.venue.id, w.court.id, day(3))
  const typedId = await legacyGatewayPayment(low, w.staff, typed, 150000)
  await refundedTheOldWay(low, typedId, async () =>
    assert.equal(
      (await call(low, 'PATCH', `/api/bookings/${typed}/status`, w.staff, { status: 'cancelled' })).statusCode,
      200,
    ),
  )
  assert.deepEqual(
    (await cashBacks(low, w.venue.id, w.staff)).map((c) => [c.payment_method, c.needs_approval, c.covered_by_drawer]),
    [
      ['gateway_2', true, false],
      ['cash', true, true],
    ],
  )
  assert.deepEqual(
    (await cashBacks(low, w.venue.id, w.owner, 'awaiting_approval')).map((c) => c.id),
    [due.id],
  )

  assert.equal(loadConfig({}).cashBackApprovalAmount, 500_000)
  assert.equal(loadConfig({ CASH_BACK_APPROVAL_AMOUNT: '250' }).cashBackApprovalAmount, 25_000)
  for (const bad of ['0', '-5', '10.005', 'lots', '10000000.01']) {
    assert.throws(
      () => loadConfig({ CASH_BACK_APPROVAL_AMOUNT: bad }),
      (err) =>
        err instanceof ConfigError &&
        /^CASH_BACK_APPROVAL_AMOUNT must be an amount between 0\.01 and/.test(err.message),
      bad,
    )
  }
})

test("migration 032: a typed gateway payment's cash-back still due becomes a gateway refund the venue makes and marks done", async () => {
  clock.set(zone.instant(TODAY, '12:00'))
  const w = await world(app, { price: 90000 })
  const id = await walkIn(app, w.staff, w.venue.id, w.court.id, day(6))
  const typed = await legacyGatewayPayment(app, w.staff, id, 90000)
  await refundedTheOldWay(app, typed, () => cancel(w.staff, id))
  const [left] = await cashBacks(app, w.venue.id, w.staff)
  assert.equal(left.status, 'due')
  const { rows } = await sql<{ moved: number }>`SELECT courtside_move_typed_cash_backs() AS moved`.execute(app.ctx.db)
  assert.ok(Number(rows[0].moved) >= 1)
  assert.deepEqual(await cashBacks(app, w.venue.id, w.staff), [])
  const all = await cashBacks(app, w.venue.id, w.staff, 'all')
  assert.deepEqual(
    all.map((c) => [c.id, c.status]),
    [[left.id, 'moved']],
  )
  const due = (await call(app, 'GET', `/api/venues/${w.venue.id}/gateway-refunds`, w.owner)).json().data
  assert.deepEqual(
    due.map((r: { payment_id: number; amount: string; refund_from: string }) => [
      r.payment_id,
      r.amount,
      r.refund_from,
    ]),
    [[typed, '900.00', 'venue']],
  )
  const done = await call(app, 'POST', `/api/venues/${w.venue.id}/gateway-refunds/${due[0].id}/done`, w.owner, {
    reference: 'KHALTI-OLD-1',
  })
  assert.equal(done.statusCode, 200, done.body)
  assert.deepEqual((await checkLedger(app.ctx.db)).problems, [])
  // Run again: nothing left to move.
  const again = await sql<{ moved: number }>`SELECT courtside_move_typed_cash_backs() AS moved`.execute(app.ctx.db)
  assert.equal(Number(again.rows[0].moved), 0)
})
