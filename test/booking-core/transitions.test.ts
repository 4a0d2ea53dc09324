import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { HOLD_EXPIRED_REASON, lockBooking, transition } from '../../src/modules/booking-core/index.ts'
import { BOOKING_EVENTS, BOOKING_STATUSES, TRANSITIONS } from '../../src/modules/booking-core/state.ts'
import { TransitionRefused } from '../../src/modules/booking-core/transitions.ts'
import { build } from '../helpers/app.ts'
import {
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
} from '../helpers/factories.ts'
import { insertBooking } from '../payments/helpers.ts'

// The transition table, enumerated: for both kinds, every status × every event. The table's moves
// land on the table's status through the one writer (booking-core's transition); every other pair is
// refused with TransitionRefused and leaves the row as it was.

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('the transition table is what docs/bookings.md describes', () => {
  assert.deepEqual(
    Object.fromEntries(BOOKING_EVENTS.map((e) => [e, `${TRANSITIONS[e].from.join('|')} -> ${TRANSITIONS[e].to}`])),
    {
      confirm: 'pending -> confirmed',
      cancel: 'pending|confirmed -> cancelled',
      expire: 'pending -> cancelled',
      reinstate: 'cancelled -> pending',
      playing: 'confirmed -> playing',
      completed: 'playing -> completed',
      no_show: 'pending|confirmed -> no_show',
    },
  )
  // completed and no_show are final; cancelled only comes back by reinstate.
  for (const final of ['completed', 'no_show'] as const) {
    assert.ok(
      BOOKING_EVENTS.every((e) => !TRANSITIONS[e].from.includes(final)),
      final,
    )
  }
})

for (const kind of ['court', 'indoor'] as const) {
  test(`${kind}: every status × event is moved as the table says or refused`, async () => {
    const owner = await createUser(app, { roles: ['venue_owner'] })
    const venue = await createVenue(app, owner.id)
    const court = await createCourt(app, venue.id)
    const game = kind === 'indoor' ? await createIndoorGame(app, venue.id) : undefined
    const customer = await createUser(app)
    let day = 3
    let moved = 0
    let refused = 0
    for (const from of BOOKING_STATUSES) {
      for (const event of BOOKING_EVENTS) {
        const b = await insertBooking(app, {
          userId: customer.id,
          venueId: venue.id,
          courtId: court.id,
          indoorGameId: game?.id,
          total: 100000,
          date: daysFromFixedNow(day++),
        })
        const table = kind === 'court' ? 'bookings' : 'indoor_game_bookings'
        // A cancelled booking here is a lapsed hold, the one kind a late payment may bring back.
        await app.ctx.db
          .updateTable(table)
          .set({ status: from, cancel_reason: from === 'cancelled' ? HOLD_EXPIRED_REASON : null })
          .where('id', '=', b.id)
          .execute()
        const expected = TRANSITIONS[event].from.includes(from) ? TRANSITIONS[event].to : null
        const attempt = app.ctx.db.transaction().execute(async (trx) => {
          const locked = (await lockBooking(trx, kind, b.id))!
          return transition(app.ctx, trx, locked, event, { reason: 'Enumerated', by: 'venue' })
        })
        const row = async () =>
          (await app.ctx.db.selectFrom(table).select('status').where('id', '=', b.id).executeTakeFirstOrThrow()).status
        if (expected === null) {
          await assert.rejects(attempt, TransitionRefused, `${kind} ${from} --${event}--> refused`)
          assert.equal(await row(), from, `${kind} ${from} --${event}--> left alone`)
          refused++
        } else {
          const outcome = await attempt
          assert.equal(outcome.moved, true, `${kind} ${from} --${event}--> moved`)
          assert.equal(await row(), expected, `${kind} ${from} --${event}--> ${expected}`)
          moved++
        }
      }
    }
    assert.equal(moved, 9)
    assert.equal(refused, BOOKING_STATUSES.length * BOOKING_EVENTS.length - 9)
  })
}
