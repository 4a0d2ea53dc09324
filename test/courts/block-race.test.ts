import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'

// A maintenance block and a booking of the same slot racing (issue 32): whichever commits first
// wins, and the other is refused; never a live booking inside a block. The block refuses live
// bookings it finds; a booking's row is refused by the database when a block committed while it
// waited for the court (migrations/021_block_guard.sql).

test('a block and a booking racing for one slot: never both', async (t) => {
  const clock = new ManualClock('2027-03-10T06:00:00Z')
  const app = await build(t, { MAX_UNPAID_BOOKINGS: '100' }, { clock })
  const w = await world(app)
  let blocked = 0
  let booked = 0
  for (let i = 0; i < 12; i++) {
    const hour = String(6 + i).padStart(2, '0')
    const slot = { date: '2027-03-15', start_time: `${hour}:00`, end_time: `${hour}:59` }
    const [block, booking] = await Promise.all([
      app.inject({
        method: 'POST',
        url: `/api/courts/${w.court.id}/blocks`,
        headers: w.owner.headers,
        payload: { ...slot, reason: 'Net repair' },
      }),
      app.inject({
        method: 'POST',
        url: '/api/bookings',
        headers: w.customer.headers,
        payload: { court_id: w.court.id, ...slot, end_time: `${String(7 + i).padStart(2, '0')}:00` },
      }),
    ])
    assert.ok([201, 409].includes(block.statusCode), block.body)
    assert.ok([201, 409, 422].includes(booking.statusCode), booking.body)
    assert.ok(!(block.statusCode === 201 && booking.statusCode === 201), `trial ${i}: both succeeded`)
    if (block.statusCode === 201) blocked++
    if (booking.statusCode === 201) booked++
  }
  // Inside every block there is no live booking.
  const overlaps = await app.ctx.db
    .selectFrom('bookings as b')
    .innerJoin('court_blocks as k', (j) =>
      j
        .onRef('k.court_id', '=', 'b.court_id')
        .onRef('k.date', '=', 'b.date')
        .onRef('k.start_time', '<', 'b.end_time')
        .onRef('b.start_time', '<', 'k.end_time'),
    )
    .select('b.id')
    .where('b.status', 'in', ['pending', 'confirmed', 'playing'])
    .execute()
  assert.deepEqual(overlaps, [])
  assert.equal(blocked + booked, 12)
})
