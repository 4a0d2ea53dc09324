import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import {
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
  type TestUser,
} from '../helpers/factories.ts'
import { expireLapsedHolds } from '../helpers/sweeps.ts'
import { openPaymentPage, simulate } from '../payments/helpers.ts'

// Random sequences of create / pay / start paying / cancel / expire / late success / refund on court
// and indoor bookings, through the public API and the hold sweep. After every step:
// - no two live bookings of one court (or game) overlap;
// - each coupon's used_count equals its live usages; a cancelled booking holds one only while
//   something stays paid for it (a late cancel without refund), and a live discounted one holds one;
// - every booking's paid_amount is what its payments say: Σ (amount − refunded_amount) of the
//   payments that completed (paid_amount is net of refunds; money a booking could not take went
//   back to the wallet and is refunded on its payment).

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

type Kind = 'court' | 'indoor'
const SLOTS = [
  ['10:00', '11:00'],
  ['10:00', '12:00'],
  ['11:00', '12:00'],
  ['12:00', '13:00'],
] as const

const Step = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('create' as const),
      kind: fc.constantFrom<Kind>('court', 'indoor'),
      who: fc.nat(1),
      slot: fc.nat(SLOTS.length - 1),
      coupon: fc.boolean(),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constantFrom('pay' as const, 'start' as const, 'cancel' as const, 'expire' as const, 'late' as const),
      pick: fc.nat(20),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('refund' as const), pick: fc.nat(20), part: fc.boolean() }) },
)

interface Made {
  kind: Kind
  id: number
  user: TestUser
  /** A gateway payment started and left open (the customer is still on the gateway's page). */
  open?: string
}

let run = 0
/** What the runs exercised (the scripted test asserts it reaches every path; the random runs report it). */
const seen = { created: 0, paid: 0, cancelled: 0, expired: 0, late: 0, refunded: 0 }

async function world() {
  run++
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id, { price_per_hour: 100000 })
  const game = await createIndoorGame(app, venue.id, { price_per_hour: 40000 })
  const code = `PROP${process.pid}R${run}`
  const coupon = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/coupons`,
    headers: owner.headers,
    payload: { code, type: 'fixed', value: '100.00', usage_limit: 2 },
  })
  assert.equal(coupon.statusCode, 201, coupon.body)
  const users = [await createUser(app), await createUser(app)]
  return {
    owner,
    venue,
    court,
    game,
    code,
    couponId: coupon.json().data.id as number,
    users,
    date: daysFromFixedNow(3),
  }
}

type World = Awaited<ReturnType<typeof world>>

async function apply(w: World, made: Made[], step: StepValue) {
  /** One of the bookings in `statuses` (or with a refundable payment), chosen by the step's pick. */
  const pick = async (statuses: string[] | 'refundable') => {
    const candidates: Made[] = []
    for (const m of made) {
      if (statuses === 'refundable') {
        const p = await app.ctx.db
          .selectFrom('payments')
          .select('id')
          .where('payable_type', '=', m.kind)
          .where('payable_id', '=', m.id)
          .where('status', 'in', ['completed', 'partially_refunded'])
          .executeTakeFirst()
        if (p) candidates.push(m)
      } else {
        const row = await app.ctx.db
          .selectFrom(m.kind === 'court' ? 'bookings' : 'indoor_game_bookings')
          .select('status')
          .where('id', '=', m.id)
          .executeTakeFirstOrThrow()
        if (statuses.includes(row.status)) candidates.push(m)
      }
    }
    return 'pick' in step && candidates.length > 0 ? candidates[step.pick % candidates.length] : undefined
  }
  switch (step.op) {
    case 'create': {
      const [start, end] = SLOTS[step.slot]
      const user = w.users[step.who]
      const res =
        step.kind === 'court'
          ? await app.inject({
              method: 'POST',
              url: '/api/bookings',
              headers: user.headers,
              payload: {
                court_id: w.court.id,
                date: w.date,
                start_time: start,
                end_time: end,
                ...(step.coupon ? { coupon_code: w.code } : {}),
              },
            })
          : await app.inject({
              method: 'POST',
              url: '/api/indoor-game-bookings',
              headers: user.headers,
              payload: { indoor_game_id: w.game.id, date: w.date, start_time: start, end_time: end },
            })
      assert.ok([201, 409, 422].includes(res.statusCode), `create: ${res.statusCode} ${res.body}`)
      if (res.statusCode === 201) {
        made.push({ kind: step.kind, id: res.json().data.id, user })
        seen.created++
      }
      return
    }
    case 'pay':
    case 'start': {
      const b = await pick(['pending'])
      if (!b) return
      const res = await app.inject({
        method: 'POST',
        url: '/api/payments/initiate',
        headers: b.user.headers,
        payload: { booking_type: b.kind, booking_id: b.id, method: 'gateway_1' },
      })
      if (res.statusCode !== 201) return // not payable now (paid, cancelled): refused, nothing changed
      const url = res.json().data.payment_url as string
      if (step.op === 'pay') {
        const cb = await app.inject({ method: 'GET', url: await simulate(app, url, 'success') })
        assert.ok([200, 422].includes(cb.statusCode), `callback: ${cb.statusCode} ${cb.body}`)
        if (cb.statusCode === 200) seen.paid++
      } else {
        await openPaymentPage(app, url)
        b.open = url
      }
      return
    }
    case 'cancel': {
      const b = await pick(['pending', 'confirmed'])
      if (!b) return
      const base = b.kind === 'court' ? '/api/bookings' : '/api/indoor-game-bookings'
      const res = await app.inject({ method: 'PATCH', url: `${base}/${b.id}/cancel`, headers: b.user.headers })
      assert.ok([200, 403, 422].includes(res.statusCode), `cancel: ${res.statusCode} ${res.body}`)
      if (res.statusCode === 200) seen.cancelled++
      return
    }
    case 'expire': {
      const b = await pick(['pending'])
      if (!b) return
      await app.ctx.db
        .updateTable(b.kind === 'court' ? 'bookings' : 'indoor_game_bookings')
        .set({ hold_expires_at: new Date(app.ctx.clock.now().getTime() - 60_000) })
        .where('id', '=', b.id)
        .where('status', '=', 'pending')
        .execute()
      seen.expired += await expireLapsedHolds(app)
      return
    }
    case 'late': {
      // A payment still open on the gateway's page: it succeeds now, however late.
      const open = made.filter((m) => m.open)
      const b = open[step.pick % Math.max(open.length, 1)]
      if (!b?.open) return
      const cb = await app.inject({ method: 'GET', url: await simulate(app, b.open, 'success') })
      assert.ok([200, 422].includes(cb.statusCode), `late callback: ${cb.statusCode} ${cb.body}`)
      seen.late++
      b.open = undefined
      return
    }
    case 'refund': {
      const b = await pick('refundable')
      if (!b) return
      const payment = await app.ctx.db
        .selectFrom('payments')
        .select(['id', 'amount', 'refunded_amount'])
        .where('payable_type', '=', b.kind)
        .where('payable_id', '=', b.id)
        .where('status', 'in', ['completed', 'partially_refunded'])
        .orderBy('id')
        .executeTakeFirst()
      if (!payment) return
      const left = payment.amount - payment.refunded_amount
      const amount = step.part ? Math.max(1, Math.floor(left / 2)) : left
      const res = await app.inject({
        method: 'POST',
        url: `/api/payments/${payment.id}/refund`,
        headers: w.owner.headers,
        payload: { amount: (amount / 100).toFixed(2) },
      })
      assert.equal(res.statusCode, 200, `refund: ${res.body}`)
      seen.refunded++
      return
    }
  }
}

type StepValue = typeof Step extends fc.Arbitrary<infer T> ? T : never

/** The three invariants, checked on everything this world holds. */
async function check(w: World, made: Made[], trail: string) {
  for (const kind of ['court', 'indoor'] as const) {
    const table = kind === 'court' ? 'bookings' : 'indoor_game_bookings'
    const live = await app.ctx.db
      .selectFrom(table)
      .select(['id', 'start_time', 'end_time'])
      .where('venue_id', '=', w.venue.id)
      .where('status', 'in', ['pending', 'confirmed', 'playing'])
      .execute()
    for (const a of live) {
      for (const b of live) {
        if (a.id < b.id) {
          assert.ok(
            a.end_time <= b.start_time || b.end_time <= a.start_time,
            `${trail}: ${kind} ${a.id} overlaps ${b.id}`,
          )
        }
      }
    }
  }
  const coupon = await app.ctx.db
    .selectFrom('coupons')
    .select('used_count')
    .where('id', '=', w.couponId)
    .executeTakeFirstOrThrow()
  const usages = await app.ctx.db
    .selectFrom('coupon_usages as u')
    .innerJoin('bookings as b', 'b.id', 'u.booking_id')
    .select(['u.booking_id', 'b.status', 'b.paid_amount', 'b.discount_amount'])
    .where('u.coupon_id', '=', w.couponId)
    .where('u.booking_type', '=', 'court')
    .where('u.released_at', 'is', null)
    .execute()
  assert.equal(coupon.used_count, usages.length, `${trail}: used_count ${coupon.used_count} ≠ live uses`)
  for (const u of usages) {
    assert.ok(u.status !== 'cancelled' || u.paid_amount > 0 || u.discount_amount === 0, `${trail}: ${u.booking_id}`)
  }
  for (const b of made) {
    const row = await app.ctx.db
      .selectFrom(b.kind === 'court' ? 'bookings' : 'indoor_game_bookings')
      .select(['paid_amount', 'discount_amount', 'status'])
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow()
    const pays = await app.ctx.db
      .selectFrom('payments')
      .select(['amount', 'refunded_amount'])
      .where('payable_type', '=', b.kind)
      .where('payable_id', '=', b.id)
      .where('status', 'in', ['completed', 'partially_refunded', 'refunded'])
      .execute()
    const net = pays.reduce((s, p) => s + p.amount - p.refunded_amount, 0)
    assert.equal(row.paid_amount, net, `${trail}: ${b.kind} ${b.id} paid_amount ${row.paid_amount} ≠ payments ${net}`)
    // A live discounted booking holds a live usage of its coupon.
    if (b.kind === 'court' && row.discount_amount > 0 && ['pending', 'confirmed'].includes(row.status)) {
      assert.ok(
        usages.some((u) => Number(u.booking_id) === b.id),
        `${trail}: live booking ${b.id} has a discount but no usage`,
      )
    }
  }
}

/** Runs one sequence and checks after each step (PROPERTY_STEPS replays a counterexample as JSON). */
async function runSteps(steps: StepValue[]) {
  const w = await world()
  const made: Made[] = []
  const trail: string[] = []
  for (const step of steps) {
    trail.push(JSON.stringify(step))
    await apply(w, made, step)
    await check(w, made, trail.join(' → '))
  }
}

test('a scripted lifecycle reaches every step: coupon, lapse and late success, pay, refund, cancel', async () => {
  const before = { ...seen }
  await runSteps([
    { op: 'create', kind: 'court', who: 0, slot: 0, coupon: true },
    { op: 'start', pick: 0 },
    { op: 'expire', pick: 0 },
    { op: 'late', pick: 0 }, // reinstated: the coupon taken again
    { op: 'create', kind: 'indoor', who: 1, slot: 1, coupon: false },
    { op: 'pay', pick: 1 },
    { op: 'refund', pick: 0, part: true },
    { op: 'create', kind: 'court', who: 1, slot: 3, coupon: true },
    { op: 'cancel', pick: 1 },
    { op: 'refund', pick: 1, part: false },
  ])
  for (const [path, n] of Object.entries(seen))
    assert.ok(n > before[path as keyof typeof seen], `never reached ${path}`)
})

test('random booking lifecycles keep slots, coupon counts and paid amounts true after every step', async (t) => {
  if (process.env.PROPERTY_STEPS) return runSteps(JSON.parse(process.env.PROPERTY_STEPS))
  await fc.assert(fc.asyncProperty(fc.array(Step, { minLength: 4, maxLength: 14 }), runSteps), {
    numRuns: Number(process.env.PROPERTY_RUNS ?? 30),
    seed: process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : undefined,
  })
  t.diagnostic(`exercised: ${JSON.stringify(seen)}`)
})
