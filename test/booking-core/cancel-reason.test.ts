import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import {
  assignStaff,
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
  type TestUser,
} from '../helpers/factories.ts'

// One cancel-reason rule for both kinds (booking-core/schemas.ts, cancelReason; docs/bookings.md,
// "Cancel reason"): cancel_reason, else its alias reason, the first that is not blank, trimmed. The
// customer's cancel and the staff's status change read it the same way on courts and indoor games.

const clock = new ManualClock(FIXED_NOW)
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

interface Place {
  customer: TestUser
  manager: TestUser
  courtId: number
  gameId: number
}

async function place(): Promise<Place> {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const manager = await createUser(app, { roles: ['manager'] })
  const customer = await createUser(app, { phone: null })
  const venue = await createVenue(app, owner.id)
  await assignStaff(app, venue.id, manager.id, 'manager')
  const court = await createCourt(app, venue.id)
  const game = await createIndoorGame(app, venue.id, { slot_minutes: 60 })
  return { customer, manager, courtId: court.id, gameId: game.id }
}

const KINDS = {
  court: { path: '/api/bookings', resource: (p: Place) => ({ court_id: p.courtId }) },
  indoor: { path: '/api/indoor-game-bookings', resource: (p: Place) => ({ indoor_game_id: p.gameId }) },
} as const
type Kind = keyof typeof KINDS

async function bookOne(p: Place, kind: Kind, hour: number): Promise<number> {
  const start = `${String(hour).padStart(2, '0')}:00`
  const end = `${String(hour + 1).padStart(2, '0')}:00`
  const res = await app.inject({
    method: 'POST',
    url: KINDS[kind].path,
    headers: p.customer.headers,
    payload: { ...KINDS[kind].resource(p), date: daysFromFixedNow(3), start_time: start, end_time: end },
  })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data.id
}

/** [body sent, cancel_reason stored] */
const CASES: [Record<string, unknown>, string][] = [
  [{ reason: '  Rain expected  ' }, 'Rain expected'],
  [{ cancel_reason: '\tPlans changed ' }, 'Plans changed'],
  [{ reason: 'Alias', cancel_reason: '  Field wins ' }, 'Field wins'],
  [{ cancel_reason: '   ', reason: ' Blank field skipped ' }, 'Blank field skipped'],
  [{ cancel_reason: null, reason: '  ' }, 'Cancelled by the customer'],
  [{}, 'Cancelled by the customer'],
]

test("the customer's cancel: both kinds take cancel_reason before reason, trimmed, blank as absent", async () => {
  const p = await place()
  for (const kind of ['court', 'indoor'] as const) {
    let hour = 8
    for (const [body, stored] of CASES) {
      const id = await bookOne(p, kind, hour++)
      const res = await app.inject({
        method: 'PATCH',
        url: `${KINDS[kind].path}/${id}/cancel`,
        headers: p.customer.headers,
        payload: body,
      })
      assert.equal(res.statusCode, 200, `${kind} ${JSON.stringify(body)}: ${res.body}`)
      assert.equal(res.json().data.status, 'cancelled')
      assert.equal(res.json().data.cancel_reason, stored, `${kind} ${JSON.stringify(body)}`)
    }
  }
})

test("the staff's status change: both kinds read the reason by the same rule", async () => {
  const p = await place()
  const cases: [Record<string, unknown>, string][] = [
    [{ reason: 'Alias', cancel_reason: ' Floodlights broken ' }, 'Floodlights broken'],
    [{ cancel_reason: '  ', reason: ' Console broken ' }, 'Console broken'],
  ]
  for (const kind of ['court', 'indoor'] as const) {
    let hour = 14
    for (const [body, stored] of cases) {
      const id = await bookOne(p, kind, hour++)
      const res = await app.inject({
        method: 'PATCH',
        url: `${KINDS[kind].path}/${id}/status`,
        headers: p.manager.headers,
        payload: { status: 'cancelled', ...body },
      })
      assert.equal(res.statusCode, 200, `${kind} ${JSON.stringify(body)}: ${res.body}`)
      assert.equal(res.json().data.cancel_reason, stored, `${kind} ${JSON.stringify(body)}`)
    }
  }
})
