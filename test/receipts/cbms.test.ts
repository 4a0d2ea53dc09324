import assert from 'node:assert/strict'
import { after, before, beforeEach, test } from 'node:test'
import { sql } from 'kysely'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { CBMS_MAX_ATTEMPTS } from '../../src/modules/receipts/cbms.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { type FakeCbms, startFakeCbms } from '../helpers/fake-cbms.ts'
import { caller, paidBooking, receiptsOf, taxWorld } from './helpers.ts'

// Reporting each invoice and credit note to IRD's CBMS (issue 49) through the job queue, against a
// local fake CBMS speaking its protocol (test/helpers/fake-cbms.ts).

let app: App
let cbms: FakeCbms
let call: ReturnType<typeof caller>
before(async () => {
  cbms = await startFakeCbms()
  app = await build(undefined, { IRD_CBMS_URL: cbms.url }, { clock: new ManualClock(FIXED_NOW) })
  call = caller(app)
})
after(async () => {
  await app.close()
  await cbms.close()
})
beforeEach(() => {
  cbms.force = null
  cbms.received.length = 0
})

let day = 3
const settings = { enabled: true, username: 'venue-user', password: 's3cret-pass', seller_pan: '601234567' }

/** Runs the due jobs, first making every waiting retry due now (the queue's back-off is real time). */
async function runJobs() {
  await sql`UPDATE jobs SET run_at = now() WHERE done_at IS NULL`.execute(app.ctx.db)
  await app.ctx.jobs.runDue()
}

async function cbmsWorld() {
  const w = await taxWorld(app)
  const set = await call('PUT', `/api/venues/${w.venue.id}/ird`, w.owner, settings)
  assert.equal(set.statusCode, 200, set.body)
  return w
}

test('the owner sets the CBMS account; the password is stored encrypted and never returned', async () => {
  const w = await taxWorld(app)
  const url = `/api/venues/${w.venue.id}/ird`
  for (const who of [w.manager, w.staff, w.customer])
    assert.equal((await call('PUT', url, who, settings)).statusCode, 403)
  assert.equal((await call('PUT', url, undefined, settings)).statusCode, 401)
  assert.equal((await call('PUT', '/api/venues/999999999/ird', w.owner, settings)).statusCode, 404)
  const wrongType = await call('PUT', url, w.owner, { ...settings, enabled: 'yes' })
  assert.equal(wrongType.statusCode, 422)
  const noPassword = await call('PUT', url, w.owner, { ...settings, password: undefined })
  assert.equal(noPassword.statusCode, 422)
  assert.deepEqual(noPassword.json().errors, { password: ['The password field is required.'] })
  const otherPan = await call('PUT', url, w.owner, { ...settings, seller_pan: '111111111' })
  assert.equal(otherPan.statusCode, 422)
  assert.ok(otherPan.json().errors.seller_pan)
  const set = await call('PUT', url, w.owner, settings)
  assert.equal(set.statusCode, 200, set.body)
  assert.deepEqual(set.json().data, {
    configured: true,
    enabled: true,
    username: 'venue-user',
    seller_pan: '601234567',
    password_set: true,
    pending: 0,
    failed: 0,
    failures: [],
  })
  assert.ok(!set.body.includes('s3cret-pass'))
  const stored = await app.ctx.db
    .selectFrom('venue_ird_settings')
    .selectAll()
    .where('venue_id', '=', w.venue.id)
    .executeTakeFirstOrThrow()
  assert.ok(!stored.password_encrypted.includes('s3cret-pass'))
  assert.match(stored.password_encrypted, /^v1\./)
  // Later changes keep the stored password when none is sent.
  const again = await call('PUT', url, w.owner, { ...settings, password: undefined, username: 'venue-user-2' })
  assert.equal(again.statusCode, 200, again.body)
  const get = await call('GET', url, w.owner)
  assert.equal(get.json().data.username, 'venue-user-2')
  assert.equal((await call('GET', url, w.manager)).statusCode, 403)

  // CBMS is for VAT registered venues.
  const noVat = await taxWorld(app, { vat: false })
  const refused = await call('PUT', `/api/venues/${noVat.venue.id}/ird`, noVat.owner, settings)
  assert.equal(refused.statusCode, 422)
  assert.deepEqual(refused.json().errors, { enabled: ['CBMS reporting is for VAT registered venues.'] })
})

test("an invoice is posted to /api/bill with IRD's fields and shows synced; a credit note to /api/billreturn", async () => {
  const w = await cbmsWorld()
  await call('PUT', '/api/profile/invoice-details', w.buyer, { buyer_pan: '123456789', buyer_address: null })
  const { booking, invoice } = await paidBooking(app, w, day++)
  assert.equal(invoice.ird_sync, 'pending')
  await runJobs()
  assert.equal(cbms.received.length, 1)
  const [{ path, body }] = cbms.received
  assert.equal(path, '/api/bill')
  assert.deepEqual(body, {
    username: 'venue-user',
    password: 's3cret-pass',
    seller_pan: '601234567',
    buyer_pan: '123456789',
    buyer_name: 'Sita Sharma',
    fiscal_year: '2082.083',
    invoice_number: invoice.receipt_number,
    invoice_date: '2082.11.26',
    total_sales: 1500,
    taxable_sales_vat: 1327.43,
    vat: 172.57,
    excisable_amount: 0,
    excise: 0,
    taxable_sales_hst: 0,
    hst: 0,
    amount_for_esf: 0,
    esf: 0,
    export_sales: 0,
    tax_exempted_sales: 0,
    isrealtime: true,
    datetimeClient: '2026-03-10 09:00:00',
  })
  assert.equal((await receiptsOf(app, w, booking.id))[0].ird_sync, 'synced')

  const cancel = await call('PATCH', `/api/bookings/${booking.id}/cancel`, w.customer, {})
  assert.equal(cancel.statusCode, 200, cancel.body)
  await runJobs()
  const ret = cbms.received[1]
  assert.equal(ret.path, '/api/billreturn')
  assert.equal(ret.body.ref_invoice_number, invoice.receipt_number)
  assert.match(String(ret.body.credit_note_number), /^CN-2082\/83-/)
  assert.equal(ret.body.credit_note_date, '2082.11.26')
  assert.match(String(ret.body.reason_for_return), /cancelled booking/)
  assert.equal(ret.body.total_sales, 1500)
  const list = await receiptsOf(app, w, booking.id)
  assert.deepEqual(
    list.map((r) => [r.type, r.ird_sync]),
    [
      ['receipt', 'synced'],
      ['credit_note', 'synced'],
    ],
  )
})

test('CBMS answering 101 (the bill already exists) counts as synced', async () => {
  const w = await cbmsWorld()
  const { booking } = await paidBooking(app, w, day++)
  cbms.force = 101
  await runJobs()
  assert.equal(cbms.received.length, 1)
  assert.equal((await receiptsOf(app, w, booking.id))[0].ird_sync, 'synced')
})

test('a CBMS that is down is tried again with back-off, then failed; the owner sees it and retries', async () => {
  const w = await cbmsWorld()
  const { booking, invoice } = await paidBooking(app, w, day++)
  cbms.force = 'down'
  await runJobs()
  assert.equal((await receiptsOf(app, w, booking.id))[0].ird_sync, 'pending')
  const job = await app.ctx.db
    .selectFrom('jobs')
    .select(['attempts', 'run_at', 'last_error'])
    .where('unique_key', '=', `ird:${invoice.id}`)
    .executeTakeFirstOrThrow()
  assert.equal(job.attempts, 1)
  assert.match(job.last_error ?? '', /HTTP 503/)
  for (let i = 1; i < CBMS_MAX_ATTEMPTS; i++) await runJobs()
  assert.equal(cbms.received.length, CBMS_MAX_ATTEMPTS)
  assert.equal((await receiptsOf(app, w, booking.id))[0].ird_sync, 'failed')
  await runJobs() // no more tries
  assert.equal(cbms.received.length, CBMS_MAX_ATTEMPTS)
  const status = (await call('GET', `/api/venues/${w.venue.id}/ird`, w.owner)).json().data
  assert.equal(status.failed, 1)
  assert.deepEqual(
    status.failures.map((f: { receipt_number: string; code: number | null }) => [f.receipt_number, f.code]),
    [[invoice.receipt_number, null]],
  )
  assert.match(status.failures[0].error, /HTTP 503/)

  cbms.force = null
  assert.equal((await call('POST', `/api/venues/${w.venue.id}/ird/retry`, w.manager)).statusCode, 403)
  const retry = await call('POST', `/api/venues/${w.venue.id}/ird/retry`, w.owner)
  assert.equal(retry.statusCode, 200, retry.body)
  assert.deepEqual(retry.json().data, { queued: 1 })
  await runJobs()
  assert.equal((await receiptsOf(app, w, booking.id))[0].ird_sync, 'synced')
  assert.equal((await call('GET', `/api/venues/${w.venue.id}/ird`, w.owner)).json().data.failed, 0)
})

test('wrong credentials (100) fail at once without retries; 102 is retried', async () => {
  const w = await cbmsWorld()
  const { booking } = await paidBooking(app, w, day++)
  cbms.force = 100
  await runJobs()
  await runJobs()
  assert.equal(cbms.received.length, 1)
  assert.equal((await receiptsOf(app, w, booking.id))[0].ird_sync, 'failed')

  const { booking: second } = await paidBooking(app, w, day++)
  cbms.force = 102
  await runJobs()
  assert.equal((await receiptsOf(app, w, second.id))[0].ird_sync, 'pending')
  cbms.force = null
  await runJobs()
  assert.equal((await receiptsOf(app, w, second.id))[0].ird_sync, 'synced')
})

test('a venue without CBMS: not_required, nothing posted', async () => {
  const w = await taxWorld(app)
  const { invoice } = await paidBooking(app, w, day++)
  assert.equal(invoice.ird_sync, 'not_required')
  await runJobs()
  assert.equal(cbms.received.length, 0)
})
