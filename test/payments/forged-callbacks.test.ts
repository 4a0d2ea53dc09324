import assert from 'node:assert/strict'
import type { Server } from 'node:http'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import {
  createCourt,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
  type TestUser,
} from '../helpers/factories.ts'
import {
  esewaCallback,
  esewaData,
  type FakeState,
  fake,
  fonepayCallback,
  khaltiCallback,
  reset,
  startFakeGateways,
  stopFakeGateways,
} from './fake-gateways.ts'
import { bookingRow, insertBooking, ledger } from './helpers.ts'

// Every forged or mismatched callback answers 422 {message} and changes nothing: not the payment,
// not the booking, not the wallet ledger. One table per gateway, run against the live drivers.

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time); booking
// dates count from that day, never from the machine's date.
let server: Server
let app: App
before(async () => {
  const started = await startFakeGateways()
  server = started.server
  app = await build(
    undefined,
    { ...started.env, RETURN_URL_ALLOWLIST: 'https://app.example/' },
    { clock: new ManualClock(FIXED_NOW) },
  )
})
after(async () => {
  await app.close()
  await stopFakeGateways(server)
})

type Gateway = 'gateway_1' | 'gateway_2' | 'gateway_3'
interface Pay {
  id: number
  ref: string
  bookingId: number
}
interface Case {
  name: string
  /** The gateway's status API for this case (default: it confirms the payment). */
  api?: Partial<FakeState>
  /** Settle the payment with a genuine callback first, then send the forged one. */
  settled?: boolean
  /** Something to do to this payment first (as a crash might have left it). */
  prepare?: (mine: Pay) => Promise<unknown>
  /** The forged callback, given this payment and another payment of the same customer. */
  callback: (mine: Pay, other: Pay) => string
}

const CONFIRMED: Record<Gateway, string> = { gateway_1: 'COMPLETE', gateway_2: 'Completed', gateway_3: 'successful' }

// Bookings of Rs 1,500.00; eSewa writes that amount "1,500.0".
const esewaOk = (p: Pay, fields: Record<string, string> = {}) =>
  esewaCallback(esewaData({ total_amount: '1,500.0', transaction_uuid: p.ref, ...fields }))
const khaltiOk = (p: Pay, fields: Record<string, string> = {}) =>
  khaltiCallback({
    pidx: `pidx-${p.ref}`,
    amount: '150000',
    total_amount: '150000',
    purchase_order_id: p.ref,
    ...fields,
  })
const fonepayOk = (p: Pay, fields: Record<string, string> = {}, secret?: string) =>
  fonepayCallback({ PRN: p.ref, P_AMT: '1500.0', R_AMT: '1500.00', ...fields }, secret)
const GENUINE: Record<Gateway, (p: Pay) => string> = { gateway_1: esewaOk, gateway_2: khaltiOk, gateway_3: fonepayOk }

const CASES: Record<Gateway, Case[]> = {
  gateway_1: [
    {
      name: 'signed with another key',
      callback: (p) =>
        esewaCallback(esewaData({ total_amount: '1,500.0', transaction_uuid: p.ref }, { secret: 'not-the-key' })),
    },
    { name: "an amount that is not the payment's", callback: (p) => esewaOk(p, { total_amount: '15.0' }) },
    { name: 'an unknown transaction_uuid', callback: () => esewaOk({ id: 0, ref: 'CSUNKNOWN1', bookingId: 0 }) },
    {
      name: 'a signature that leaves out product_code',
      callback: (p) =>
        esewaOk(p, { signed_field_names: 'transaction_code,status,total_amount,transaction_uuid,signed_field_names' }),
    },
    { name: "another merchant's product code", callback: (p) => esewaOk(p, { product_code: 'OTHERSHOP' }) },
    {
      name: "another payment's signed data with this transaction_uuid",
      callback: (p, other) => {
        const theirs = JSON.parse(
          Buffer.from(esewaData({ total_amount: '1,500.0', transaction_uuid: other.ref }), 'base64').toString(),
        )
        return esewaCallback(Buffer.from(JSON.stringify({ ...theirs, transaction_uuid: p.ref })).toString('base64'))
      },
    },
    { name: 'data that is not base64 JSON', callback: () => '/api/payments/gateway_1/callback?data=bm90IGpzb24' },
    { name: 'COMPLETE, but the status API says NOT_FOUND', api: { unknown: true }, callback: (p) => esewaOk(p) },
    { name: 'COMPLETE, but the status API says PENDING', api: { status: 'PENDING' }, callback: (p) => esewaOk(p) },
    { name: 'COMPLETE, but the status API says CANCELED', api: { status: 'CANCELED' }, callback: (p) => esewaOk(p) },
    { name: 'COMPLETE, but the status API reports another amount', api: { amount: 1500 }, callback: (p) => esewaOk(p) },
    {
      name: 'a settled payment replayed with another amount',
      settled: true,
      callback: (p) => esewaOk(p, { total_amount: '1.0' }),
    },
    {
      name: 'the failure URL of a settled payment',
      settled: true,
      callback: (p) => `/api/payments/gateway_1/callback?status=failure&transaction_uuid=${p.ref}`,
    },
  ],
  gateway_2: [
    { name: 'an unknown purchase_order_id', callback: (p) => khaltiOk(p, { purchase_order_id: 'CSUNKNOWN2' }) },
    { name: "another payment's pidx", callback: (p, other) => khaltiOk(p, { pidx: `pidx-${other.ref}` }) },
    {
      name: "an amount that is not the payment's",
      callback: (p) => khaltiOk(p, { amount: '1000', total_amount: '1000' }),
    },
    {
      name: "another payment's pidx, on a payment whose own pidx was never stored",
      prepare: (mine) =>
        app.ctx.db.updateTable('payments').set({ gateway_payload: null }).where('id', '=', mine.id).execute(),
      callback: (p, other) => khaltiOk(p, { pidx: `pidx-${other.ref}` }),
    },
    { name: 'amount and total_amount that disagree', callback: (p) => khaltiOk(p, { total_amount: '1000' }) },
    { name: 'Completed, but the lookup says Pending', api: { status: 'Pending' }, callback: (p) => khaltiOk(p) },
    { name: 'Completed, but the lookup says Expired', api: { status: 'Expired' }, callback: (p) => khaltiOk(p) },
    {
      name: 'Completed, but the lookup says User canceled',
      api: { status: 'User canceled' },
      callback: (p) => khaltiOk(p),
    },
    { name: 'Completed, but the lookup does not know the pidx', api: { unknown: true }, callback: (p) => khaltiOk(p) },
    { name: 'Completed, but the lookup reports another amount', api: { amount: 1000 }, callback: (p) => khaltiOk(p) },
    {
      name: 'a settled payment replayed with another amount',
      settled: true,
      callback: (p) => khaltiOk(p, { amount: '1000', total_amount: '1000' }),
    },
    {
      name: 'User canceled on a settled payment',
      settled: true,
      callback: (p) => khaltiOk(p, { status: 'User canceled' }),
    },
  ],
  gateway_3: [
    { name: 'a DV made with another key', callback: (p) => fonepayOk(p, {}, 'not-the-key') },
    {
      name: "a requested amount that is not the payment's",
      callback: (p) => fonepayOk(p, { R_AMT: '15.00', P_AMT: '15.0' }),
    },
    {
      name: "another payment's signed answer with this PRN",
      callback: (p, other) => {
        const theirs = new URL(fonepayOk(other), 'http://x').searchParams
        theirs.set('PRN', p.ref)
        return `/api/payments/gateway_3/callback?${theirs}`
      },
    },
    { name: "another merchant's PID", callback: (p) => fonepayOk(p, { PID: 'OTHER' }) },
    { name: 'an unknown PRN', callback: () => fonepayOk({ id: 0, ref: 'CSUNKNOWN3', bookingId: 0 }) },
    { name: 'PS=true, but verification says failed', api: { status: 'failed' }, callback: (p) => fonepayOk(p) },
    { name: 'PS=true, but verification reports another amount', api: { amount: 1500 }, callback: (p) => fonepayOk(p) },
    {
      name: 'a settled payment replayed with another amount',
      settled: true,
      callback: (p) => fonepayOk(p, { R_AMT: '1.00' }),
    },
  ],
}

let day = 0
async function gatewayBooking(user: TestUser, method: Gateway): Promise<Pay> {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const booking = await insertBooking(app, {
    userId: user.id,
    venueId: venue.id,
    courtId: court.id,
    total: 150000,
    date: daysFromFixedNow(2 + (day++ % 300)),
  })
  const res = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: user.headers,
    // With a return_url: a forged callback must be 422, never a redirect to the app.
    payload: { booking_id: booking.id, method, return_url: 'https://app.example/paid' },
  })
  assert.equal(res.statusCode, 201, res.body)
  const id = res.json().data.payment.id
  const row = await app.ctx.db.selectFrom('payments').select('reference').where('id', '=', id).executeTakeFirstOrThrow()
  return { id, ref: row.reference!, bookingId: booking.id }
}

async function snapshot(user: TestUser, pays: Pay[]) {
  const payments = await app.ctx.db
    .selectFrom('payments')
    .select(['id', 'status', 'gateway_transaction_id'])
    .where(
      'id',
      'in',
      pays.map((p) => p.id),
    )
    .orderBy('id')
    .execute()
  const bookings = await Promise.all(pays.map((p) => bookingRow(app, 'court', p.bookingId)))
  const l = await ledger(app, user.id)
  return { payments, bookings: bookings.map((b) => [b.status, b.paid_amount]), balance: l.balance, rows: l.rows.length }
}

for (const gateway of ['gateway_1', 'gateway_2', 'gateway_3'] as const) {
  test(`${gateway}: forged or mismatched callbacks are 422 and change nothing`, async () => {
    for (const c of CASES[gateway]) {
      reset(CONFIRMED[gateway])
      const user = await createUser(app)
      const mine = await gatewayBooking(user, gateway)
      const other = await gatewayBooking(user, gateway)
      if (c.settled) {
        const genuine = await app.inject({ method: 'GET', url: GENUINE[gateway](mine) })
        assert.equal(genuine.statusCode, 302, `${c.name}: ${genuine.body}`)
        assert.equal(new URL(genuine.headers.location as string).searchParams.get('status'), 'completed', c.name)
      }
      await c.prepare?.(mine)
      const before = await snapshot(user, [mine, other])
      Object.assign(fake, c.api ?? {})
      const res = await app.inject({ method: 'GET', url: c.callback(mine, other) })
      assert.equal(res.statusCode, 422, `${gateway} ${c.name}: ${res.statusCode} ${res.body}`)
      assert.deepEqual(res.json(), { message: 'The payment could not be verified.' }, c.name)
      assert.deepEqual(await snapshot(user, [mine, other]), before, `${gateway} ${c.name} changed something`)
    }
  })
}
