import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { vatIncluded } from '../../src/modules/ledger/commission.ts'
import { accountSum } from '../../src/modules/ledger/index.ts'
import { bsMonthDays, lastEndedMonth } from '../../src/modules/payouts/commission-invoices.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW } from '../helpers/factories.ts'
import { caller, paidBooking, taxWorld } from '../receipts/helpers.ts'

// The platform's own VAT on its commission and its monthly commission invoice to each venue
// (issue 49). The clock starts at FIXED_NOW: 10 March 2026, 2082-11-26 BS (Falgun, month 11 of 2082/83).

let app: App
let clock: ManualClock
let call: ReturnType<typeof caller>
before(async () => {
  clock = new ManualClock(FIXED_NOW)
  app = await build(undefined, { PLATFORM_COMMISSION_PERCENT: '10', PLATFORM_PAN: '600000001' }, { clock })
  call = caller(app)
})
after(() => app.close())

test('the VAT in a VAT-inclusive commission; the days of a BS month; the last ended month', () => {
  assert.equal(vatIncluded(15000), 1726) // 150.00 = 132.74 + 17.26
  assert.equal(vatIncluded(0), 0)
  assert.deepEqual(bsMonthDays('2082/83', 11), { bsMonth: '2082-11', from: '2026-02-13', to: '2026-03-14' })
  assert.deepEqual(lastEndedMonth('2026-03-10'), { fiscalYear: '2082/83', month: 10 })
  assert.deepEqual(lastEndedMonth('2026-07-20'), { fiscalYear: '2082/83', month: 3 }) // Shrawan 2083 began 17 July
})

test("commission carries the platform's VAT to vat:payable; a month's invoice to the venue; statements show it", async () => {
  const w = await taxWorld(app)
  const { paymentId } = await paidBooking(app, w, 3)
  // 10% of 1,500.00 = 150.00: 132.74 commission + 17.26 VAT owed to IRD; the venue is charged 150.00.
  assert.equal(await accountSum(app.ctx.db, 'vat:payable'), -1726)
  assert.equal(await accountSum(app.ctx.db, 'commission:platform'), -13274)
  // Half refunded: half the commission and half its VAT go back.
  const half = await call('POST', `/api/payments/${paymentId}/refund`, w.owner, { amount: '750.00' })
  assert.equal(half.statusCode, 200, half.body)
  assert.equal(await accountSum(app.ctx.db, 'vat:payable'), -863)
  assert.equal(await accountSum(app.ctx.db, 'commission:platform'), -6637)

  const admin = await createUser(app, { roles: ['super_admin'] })
  const body = { fiscal_year: '2082/83', month: 11 }
  for (const who of [w.owner, w.manager, w.customer]) {
    assert.equal((await call('POST', '/api/admin/commission-invoices', who, body)).statusCode, 403)
  }
  const early = await call('POST', '/api/admin/commission-invoices', admin, body)
  assert.equal(early.statusCode, 422)
  assert.deepEqual(early.json().errors, { month: ['The month has not ended yet.'] })
  for (const bad of [
    { fiscal_year: '2082', month: 11 },
    { fiscal_year: '2082/83', month: '11' },
    { fiscal_year: '2082/83', month: 13 },
  ]) {
    assert.equal((await call('POST', '/api/admin/commission-invoices', admin, bad)).statusCode, 422)
  }

  clock.set('2026-03-20T03:15:00Z') // 2082-12-06 BS: Falgun has ended
  const issued = await call('POST', '/api/admin/commission-invoices', admin, body)
  assert.equal(issued.statusCode, 201, issued.body)
  const mine = issued.json().data.filter((i: { buyer: { venue_id: number } }) => i.buyer.venue_id === w.venue.id)
  assert.equal(mine.length, 1)
  assert.deepEqual(
    { ...mine[0], id: undefined, invoice_number: undefined },
    {
      id: undefined,
      invoice_number: undefined,
      fiscal_year: '2082/83',
      bs_month: '2082-11',
      period_from: '2026-02-13',
      period_to: '2026-03-14',
      issued_on: '2026-03-20',
      issued_on_bs: '2082-12-06',
      seller: { name: 'Courtside', pan_number: '600000001' },
      buyer: { venue_id: w.venue.id, legal_name: 'Baneshwor Futsal Pvt. Ltd.', pan_number: '601234567' },
      total: '75.00',
      taxable_amount: '66.37',
      vat: '8.63',
    },
  )
  assert.match(mine[0].invoice_number, /^PC-2082\/83-\d{6}$/)
  // The invoice's VAT is the month's vat:payable for the venue.
  assert.equal(Math.round(Number(mine[0].vat) * 100), -(await accountSum(app.ctx.db, 'vat:payable')))

  // Idempotent: a second run issues nothing more.
  const again = await call('POST', '/api/admin/commission-invoices', admin, body)
  assert.equal(again.statusCode, 201)
  assert.deepEqual(again.json().data, [])

  const list = await call('GET', `/api/venues/${w.venue.id}/commission-invoices`, w.manager)
  assert.equal(list.statusCode, 200, list.body)
  assert.deepEqual(list.json().data, mine)
  assert.equal((await call('GET', `/api/venues/${w.venue.id}/commission-invoices`, w.staff)).statusCode, 403)
  const st = await call('GET', `/api/venues/${w.venue.id}/statement?from=2026-03-01&to=2026-03-20`, w.owner)
  assert.equal(st.statusCode, 200, st.body)
  assert.deepEqual(st.json().data.commission_invoices, mine)
  assert.equal(st.json().data.commission, '75.00') // the venue's side is unchanged by the VAT split
  clock.set(FIXED_NOW)
})
