import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser, daysFromFixedNow, FIXED_NOW, type TestUser } from '../helpers/factories.ts'
import { scene } from '../indoor-bookings/helpers.ts'
import { ledger } from '../payments/helpers.ts'
import { book, fixedSlot, world } from './helpers.ts'

// GET /api/bookings/{booking}/cancellation and GET /api/indoor-game-bookings/{id}/cancellation:
// what cancelling now would refund, and why, for the booking's customer only.

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

type Kind = 'court' | 'indoor'
const base = (kind: Kind) => (kind === 'court' ? '/api/bookings' : '/api/indoor-game-bookings')
const table = (kind: Kind) => (kind === 'court' ? 'bookings' : 'indoor_game_bookings')

function preview(kind: Kind, user: TestUser | undefined, id: number | string) {
  return app.inject({ method: 'GET', url: `${base(kind)}/${id}/cancellation`, headers: user?.headers })
}

/** A venue with a customer (wallet 5,000.00), its owner and a staff member, and a way to book it. */
async function setup(kind: Kind, freeCancellationHours = 24) {
  if (kind === 'court') {
    const w = await world(app, { wallet: 500000, freeCancellationHours })
    let hour = 8
    return {
      ...w,
      price: '1500.00',
      make: async (days = 4) => {
        const start = `${String(hour++).padStart(2, '0')}:00`
        const res = await book(
          app,
          w.customer,
          fixedSlot(w.court.id, days, start, `${String(hour).padStart(2, '0')}:00`),
        )
        assert.equal(res.statusCode, 201, res.body)
        return res.json().data.id as number
      },
    }
  }
  const s = await scene(app, { wallet: 500000, freeCancellationHours })
  const staff = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, s.venue.id, staff.id, 'staff')
  let hour = 8
  return {
    ...s,
    staff,
    price: '300.00',
    make: async (days = 4) => {
      const start = `${String(hour++).padStart(2, '0')}:00`
      const res = await app.inject({
        method: 'POST',
        url: '/api/indoor-game-bookings',
        headers: s.customer.headers,
        payload: {
          indoor_game_id: s.game.id,
          date: daysFromFixedNow(days),
          start_time: start,
          end_time: `${String(hour).padStart(2, '0')}:00`,
        },
      })
      assert.equal(res.statusCode, 201, res.body)
      return res.json().data.id as number
    },
  }
}

async function payByWallet(kind: Kind, user: TestUser, id: number) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: user.headers,
    payload: { booking_type: kind, booking_id: id, method: 'wallet' },
  })
  assert.equal(res.statusCode, 200, res.body)
}

async function assertLedger(userId: number) {
  const l = await ledger(app, userId)
  assert.equal(l.balance, l.sum, 'balance == sum(ledger)')
  return l.balance
}

for (const kind of ['court', 'indoor'] as const) {
  test(`${kind} preview: refundable, then the cancel credits exactly that`, async () => {
    const s = await setup(kind)
    const id = await s.make()
    await payByWallet(kind, s.customer, id)
    const before = await assertLedger(s.customer.id)
    const res = await preview(kind, s.customer, id)
    assert.equal(res.statusCode, 200, res.body)
    const rupees = `Rs ${Number(s.price).toLocaleString('en-US', { minimumFractionDigits: 2 })}`
    assert.deepEqual(res.json(), {
      data: {
        cancellable: true,
        refund_amount: s.price,
        reason: `At least 24 hours before the start: ${rupees} refunded to your wallet.`,
      },
    })
    // Looking changes nothing.
    assert.equal(await assertLedger(s.customer.id), before)
    const row = await app.ctx.db.selectFrom(table(kind)).select('status').where('id', '=', id).executeTakeFirstOrThrow()
    assert.equal(row.status, 'confirmed')

    const cancel = await app.inject({
      method: 'PATCH',
      url: `${base(kind)}/${id}/cancel`,
      headers: s.customer.headers,
      payload: {},
    })
    assert.equal(cancel.statusCode, 200, cancel.body)
    assert.equal(cancel.json().refund_amount, s.price)
    assert.equal(cancel.json().message, `Booking cancelled. ${rupees} refunded to your wallet.`)
    assert.equal((await assertLedger(s.customer.id)) - before, Math.round(Number(s.price) * 100))
  })

  test(`${kind} preview: not refundable inside the window; unpaid has nothing to refund`, async () => {
    const s = await setup(kind, 720)
    const paid = await s.make()
    await payByWallet(kind, s.customer, paid)
    assert.deepEqual((await preview(kind, s.customer, paid)).json(), {
      data: { cancellable: true, refund_amount: '0.00', reason: 'No refund: less than 720 hours before the start.' },
    })
    const unpaid = await s.make()
    assert.deepEqual((await preview(kind, s.customer, unpaid)).json(), {
      data: {
        cancellable: true,
        refund_amount: '0.00',
        reason: 'Nothing has been paid for this booking, so there is nothing to refund.',
      },
    })
    await assertLedger(s.customer.id)
  })

  test(`${kind} preview: not cancellable (cancelled, completed, playing, started)`, async () => {
    const s = await setup(kind)
    const cases: Array<[Record<string, string>, string]> = [
      [{ status: 'cancelled' }, 'A cancelled booking cannot be cancelled.'],
      [{ status: 'completed' }, 'A completed booking cannot be cancelled.'],
      [{ status: 'playing' }, 'A playing booking cannot be cancelled.'],
      [{ status: 'confirmed', date: daysFromFixedNow(-1) }, 'A booking that has started cannot be cancelled.'],
    ]
    for (const [set, reason] of cases) {
      const id = await s.make()
      await app.ctx.db.updateTable(table(kind)).set(set).where('id', '=', id).execute()
      const res = await preview(kind, s.customer, id)
      assert.equal(res.statusCode, 200, res.body)
      assert.deepEqual(res.json(), { data: { cancellable: false, refund_amount: '0.00', reason } })
    }
  })

  test(`${kind} preview: 401, 403 for another customer and for venue staff, 404, bad ids`, async () => {
    const s = await setup(kind)
    const id = await s.make()
    assert.equal((await preview(kind, undefined, id)).statusCode, 401)
    const stranger = await createUser(app)
    for (const who of [stranger, s.owner, s.staff]) {
      const res = await preview(kind, who, id)
      assert.equal(res.statusCode, 403, res.body)
      assert.deepEqual(res.json(), { message: 'This action is unauthorized.' })
    }
    for (const bad of ['99999999', '0x10', '1e1', '0', '-1', 'abc']) {
      const res = await preview(kind, s.customer, bad)
      assert.equal(res.statusCode, 404, `${bad}: ${res.body}`)
      assert.deepEqual(res.json(), { message: 'Not found.' })
    }
  })
}
