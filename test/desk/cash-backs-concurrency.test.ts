import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { account, accountSum } from '../../src/modules/ledger/index.ts'
import { world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { assignStaff, createUser } from '../helpers/factories.ts'
import { call, day, noonClock } from '../reports/helpers.ts'
import {
  cashBacks,
  legacyGatewayPayment,
  paidOutTheOldWay,
  payUrl,
  refundedTheOldWay,
  takeCash,
  walkIn,
} from './cash-back-helpers.ts'

// Two staff pay out two cash-backs of the same booking at once when the booking's cash left in the
// drawer covers only one: exactly one is paid (the booking's row lock orders them), the other is 422,
// and the drawer goes down once.

const clock = noonClock()
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

test('two pays at once of two cash-backs the drawer covers only one of: one 200, one 422', async () => {
  const w = await world(app, { price: 150000 })
  const second = await createUser(app, { roles: ['staff'] })
  await assignStaff(app, w.venue.id, second.id, 'staff')
  for (let round = 0; round < 3; round++) {
    // Cash 1,000 and a typed gateway 500 whose cash-back went out of the drawer by the old rule: 500 of
    // the booking's cash is left; the cash is refunded as two cash-backs of 500.
    const id = await walkIn(app, w.staff, w.venue.id, w.court.id, day(2 + round))
    const cash = await takeCash(app, w.staff, id, '1000.00')
    const typed = await legacyGatewayPayment(app, w.staff, id, 50000, `TYPED-${round}`)
    const refund = await refundedTheOldWay(app, typed, () =>
      call(app, 'POST', `/api/payments/${typed}/refund`, w.owner, {}),
    )
    assert.equal(refund.statusCode, 200, refund.body)
    const old = (await cashBacks(app, w.venue.id, w.staff)).find((c) => c.payment_id === typed)!
    await paidOutTheOldWay(app, w.venue.id, old.id, w.staff)
    for (let i = 0; i < 2; i++) {
      const res = await call(app, 'POST', `/api/payments/${cash}/refund`, w.owner, { amount: '500.00' })
      assert.equal(res.statusCode, 200, res.body)
    }
    const due = (await cashBacks(app, w.venue.id, w.staff)).filter((c) => c.payment_id === cash)
    assert.equal(due.length, 2)
    assert.ok(due.every((c) => c.covered_by_drawer))
    const desk = await accountSum(app.ctx.db, account.venueDesk(w.venue.id))

    const answers = await Promise.all([
      call(app, 'POST', payUrl(w.venue.id, due[0].id), w.staff),
      call(app, 'POST', payUrl(w.venue.id, due[1].id), second),
    ])
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 422], answers.map((r) => r.body).join('\n'))
    const refused = answers.find((r) => r.statusCode === 422)!
    assert.equal(refused.json().message, 'This cash-back is more than the cash taken for this booking.')
    assert.equal(await accountSum(app.ctx.db, account.venueDesk(w.venue.id)), desk - 50000)
    const left = (await cashBacks(app, w.venue.id, w.staff)).filter((c) => c.payment_id === cash)
    assert.equal(left.length, 1)
    assert.equal(left[0].covered_by_drawer, false)
  }
})
