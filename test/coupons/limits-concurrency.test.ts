import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { redeemCoupon, releaseCoupon } from '../../src/modules/coupons/service.ts'
import { build } from '../helpers/app.ts'
import { createUser, createVenue } from '../helpers/factories.ts'

// Redemptions run inside a booking's transaction; these call the service the way bookings do,
// many at once, each in its own transaction.

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

let bookingId = 1_000_000
let n = 0
async function setup(fields: Record<string, unknown>) {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const code = `LIM${process.pid}X${++n}`
  const row = await app.ctx.db
    .insertInto('coupons')
    .values({ venue_id: venue.id, code, type: 'fixed', value: 10000, ...fields })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { venue, code, couponId: row.id }
}

function redeem(code: string, userId: number, venueId: number) {
  const id = ++bookingId
  return app.ctx.db
    .transaction()
    .execute((trx) =>
      redeemCoupon(trx, {
        code,
        userId,
        venueId,
        amount: 50000,
        bookingKind: 'court',
        bookingId: id,
        now: app.ctx.clock.now(),
      }),
    )
    .then(
      (r) => ({ ok: true as const, id, discount: r.discount }),
      (err) => ({
        ok: false as const,
        id,
        message: (err as { errors?: Record<string, string[]> }).errors?.coupon_code?.[0],
      }),
    )
}

test('usage_limit holds when 20 customers redeem at once', async () => {
  const { venue, code, couponId } = await setup({ usage_limit: 5 })
  const users = await Promise.all(Array.from({ length: 20 }, () => createUser(app)))
  const results = await Promise.all(users.map((u) => redeem(code, u.id, venue.id)))
  assert.equal(results.filter((r) => r.ok).length, 5)
  for (const r of results.filter((r) => !r.ok)) assert.equal(r.message, 'This coupon has reached its usage limit.')
  const c = await app.ctx.db
    .selectFrom('coupons')
    .select('used_count')
    .where('id', '=', couponId)
    .executeTakeFirstOrThrow()
  assert.equal(c.used_count, 5)
  const usages = await app.ctx.db.selectFrom('coupon_usages').select('id').where('coupon_id', '=', couponId).execute()
  assert.equal(usages.length, 5)
})

test('per_user_limit holds when one customer redeems 10 times at once', async () => {
  const { venue, code, couponId } = await setup({ per_user_limit: 2 })
  const user = await createUser(app)
  const results = await Promise.all(Array.from({ length: 10 }, () => redeem(code, user.id, venue.id)))
  assert.equal(results.filter((r) => r.ok).length, 2)
  for (const r of results.filter((r) => !r.ok)) {
    assert.equal(r.message, 'You have already used this coupon the maximum number of times.')
  }
  const c = await app.ctx.db
    .selectFrom('coupons')
    .select('used_count')
    .where('id', '=', couponId)
    .executeTakeFirstOrThrow()
  assert.equal(c.used_count, 2)
})

test('a release gives the usage back; coupon_usage describes the redemption', async () => {
  const { venue, code, couponId } = await setup({ usage_limit: 1 })
  const user = await createUser(app)
  const first = await redeem(code, user.id, venue.id)
  assert.ok(first.ok)
  assert.equal(first.discount, 10000)
  const usage = await liveUsage(first.id)
  assert.equal(usage?.coupon_id, couponId)
  assert.equal(usage?.discount_amount, 10000)
  assert.equal((await redeem(code, user.id, venue.id)).ok, false)
  await app.ctx.db.transaction().execute((trx) => releaseCoupon(trx, 'court', first.id, app.ctx.clock.now()))
  assert.equal(await liveUsage(first.id), undefined)
  const c = await app.ctx.db
    .selectFrom('coupons')
    .select('used_count')
    .where('id', '=', couponId)
    .executeTakeFirstOrThrow()
  assert.equal(c.used_count, 0)
  assert.equal((await redeem(code, user.id, venue.id)).ok, true)
  await app.ctx.db.transaction().execute((trx) => releaseCoupon(trx, 'court', 424242, app.ctx.clock.now())) // no usage: no-op
})

/** The live (not released) coupon usage of a court booking, as stored. */
function liveUsage(bookingId: number) {
  return app.ctx.db
    .selectFrom('coupon_usages')
    .select(['coupon_id', 'discount_amount'])
    .where('booking_type', '=', 'court')
    .where('booking_id', '=', bookingId)
    .where('released_at', 'is', null)
    .executeTakeFirst()
}
