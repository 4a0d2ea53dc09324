import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { ReusedStatements } from '../../src/lib/db.ts'
import { statements as dayStatements } from '../../src/modules/availability/repository.ts'
import { statements as bookingStatements } from '../../src/modules/bookings/repository.ts'
import { build } from '../helpers/app.ts'
import {
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
} from '../helpers/factories.ts'

// Hot statements are built with Kysely once and reused with fresh parameters. With the arguments
// given as an object the parameter order is derived; a shape that cannot be reused (a hand-kept
// list in the wrong order, a builder that transforms an argument) is listed in `refused`.

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('the day queries and the booking INSERT are reused after their first build, with fresh parameters', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { opening_time: '06:00:00', closing_time: '22:00:00' })
  const courts = [await createCourt(app, venue.id), await createCourt(app, venue.id)]
  const game = await createIndoorGame(app, venue.id)
  const customer = await createUser(app)
  const date = daysFromFixedNow(2)
  for (const court of courts) {
    const res = await app.inject({ url: `/api/courts/${court.id}/availability?date=${date}` })
    assert.equal(res.statusCode, 200)
  }
  assert.equal((await app.inject({ url: `/api/indoor-games/${game.id}/availability?date=${date}` })).statusCode, 200)
  const book = (courtId: number, start: string, end: string) =>
    app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: customer.headers,
      payload: { court_id: courtId, date, start_time: start, end_time: end },
    })
  const first = await book(courts[0].id, '10:00', '11:00')
  const second = await book(courts[1].id, '11:00', '12:00')
  assert.equal(first.statusCode, 201)
  assert.equal(second.statusCode, 201)
  assert.equal(second.json().data.court_id, courts[1].id, 'the reused INSERT took the new values')
  assert.equal(second.json().data.start_time, '11:00')
  assert.ok(dayStatements.has('court-day:true'), 'availability of a court')
  assert.ok(dayStatements.has('court-day:false'), 'the day a booking is priced on')
  assert.ok(dayStatements.has('indoor-day:true'), 'availability of an indoor game')
  assert.equal(bookingStatements.size, 1, 'the booking INSERT of a customer')
  assert.deepEqual([...dayStatements.refused, ...bookingStatements.refused], [], 'every hot shape is reused')
  // A reused day query answers for the court asked about, not the first one.
  const grid = (await app.inject({ url: `/api/courts/${courts[1].id}/availability?date=${date}` })).json()
  assert.equal(grid.slots.find((s: { start_time: string }) => s.start_time === '11:00').is_available, false)
  assert.equal(grid.slots.find((s: { start_time: string }) => s.start_time === '10:00').is_available, true)
})

test('arguments by name: the parameter order is derived, constants of the shape stay, transforms are refused', async () => {
  const db = app.ctx.db
  const a = await createUser(app, { name: 'Reuse A' })
  const b = await createUser(app, { name: 'Reuse B' })
  const statements = new ReusedStatements()
  // The arguments in a different order than the query uses them, and a constant list in between.
  const find = (args: { name: string; id: number }) =>
    statements.run(db, 'user', args, ({ name, id }) =>
      db
        .selectFrom('users')
        .select(['id', 'name'])
        .where('id', '=', id)
        .where('is_active', 'in', [true, false])
        .where('name', '=', name),
    )
  assert.deepEqual(await find({ name: 'Reuse A', id: a.id }), [{ id: a.id, name: 'Reuse A' }])
  assert.ok(statements.has('user'))
  assert.deepEqual(
    await find({ name: 'Reuse B', id: b.id }),
    [{ id: b.id, name: 'Reuse B' }],
    'reused with new arguments',
  )
  assert.deepEqual(await find({ name: 'Reuse A', id: b.id }), [])

  // A builder that computes a parameter from an argument cannot be reused: built every time, still right.
  const shifted = (args: { id: number }) =>
    statements.run(db, 'shifted', args, ({ id }) =>
      db
        .selectFrom('users')
        .select('id')
        .where('id', '=', id + 0),
    )
  assert.deepEqual(await shifted({ id: a.id }), [{ id: a.id }])
  assert.deepEqual(await shifted({ id: b.id }), [{ id: b.id }])
  assert.ok(!statements.has('shifted'))
  assert.deepEqual([...statements.refused], ['shifted'])

  // A builder that branches on an argument is refused too.
  const branching = (args: { id: number }) =>
    statements.run(db, 'branching', args, ({ id }) =>
      id === a.id
        ? db.selectFrom('users').select('id').where('id', '=', id)
        : db.selectFrom('users').select('id').where('id', '<', 0),
    )
  assert.deepEqual(await branching({ id: a.id }), [{ id: a.id }])
  assert.ok(!statements.has('branching'))

  // An optional filter: the placeholder (an object) takes the "filter on" branch, so the first call
  // with a name caches that text; a call without one must not reuse it (it would filter on NULL).
  const optional = (args: { name: string | undefined }) =>
    statements.run(db, 'optional', args, ({ name }) => {
      const q = db.selectFrom('users').select('id').where('id', 'in', [a.id, b.id])
      return (name ? q.where('name', '=', name) : q).orderBy('id')
    })
  assert.deepEqual(await optional({ name: 'Reuse B' }), [{ id: b.id }])
  assert.ok(statements.has('optional'))
  assert.deepEqual(await optional({ name: undefined }), [{ id: a.id }, { id: b.id }], 'built as written, not reused')
  assert.deepEqual(await optional({ name: 'Reuse A' }), [{ id: a.id }])

  // A builder that calls a method on an argument throws on the placeholder: refused, still answered.
  const trimmed = (args: { name: string }) =>
    statements.run(db, 'trimmed', args, ({ name }) =>
      db.selectFrom('users').select('id').where('name', '=', name.trim()),
    )
  assert.deepEqual(await trimmed({ name: ' Reuse A ' }), [{ id: a.id }])
  assert.ok(statements.refused.has('trimmed'))
})
