import assert from 'node:assert/strict'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import type { CompiledQuery } from 'kysely'
import type { App } from '../../src/app.ts'
import { hashToken, loadTokenOwner } from '../../src/lib/auth.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import type { Executor, ReusedStatements } from '../../src/lib/db.ts'
import { statements as dayStatements } from '../../src/modules/availability/repository.ts'
import { statements as bookingStatements } from '../../src/modules/bookings/repository.ts'
import { loadVenueResources } from '../../src/modules/venues/queries.ts'
import { resolveVenue, searchVenues } from '../../src/modules/venues/repository.ts'
import { build } from '../helpers/app.ts'
import {
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
} from '../helpers/factories.ts'
import { formatSql, recordingDb } from '../helpers/sql.ts'

// The SQL of the hot paths, checked in under __snapshots__/sql/, so a reviewer sees a query change
// in the diff. A changed query fails here with the difference; after checking it, update with
//   UPDATE_SQL_SNAPSHOTS=1 npm test -- test/foundation/sql-snapshot.test.ts
// What is compiled is listed in the two tables below (fix their imports when queries move).

interface World {
  venue: { id: number; slug: string }
  token: { id: number; hash: string }
}

/** Reused statements (src/lib/db.ts ReusedStatements): every shape the flow below builds. */
const REUSED: Record<string, ReusedStatements> = {
  availability: dayStatements,
  bookings: bookingStatements,
}

/** Hot queries not reused: each runs on a recording executor and every statement it sends is kept. */
const HOT: Record<string, (db: Executor, w: World) => Promise<unknown>> = {
  'venue-list': (db) => searchVenues(db, { scope: { kind: 'public' }, sort: 'recommended', limit: 15, offset: 0 }),
  'venue-nearby': (db) =>
    searchVenues(db, {
      scope: { kind: 'public' },
      geo: { lat: 27.7, lng: 85.33, radiusKm: 10 },
      sort: 'distance',
      limit: 15,
      offset: 0,
    }),
  'venue-show': (db, w) => resolveVenue(db, w.venue.slug),
  'venue-resources': (db, w) => loadVenueResources(app.ctx, [w.venue.id], { db }),
  'token-lookup': (db, w) => loadTokenOwner(db, w.token.id, w.token.hash),
}

const dir = join(import.meta.dirname, '__snapshots__/sql')
const update = process.env.UPDATE_SQL_SNAPSHOTS === '1'

let app: App
let world: World
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const game = await createIndoorGame(app, venue.id)
  const customer = await createUser(app)
  const [id, secret] = customer.token.split('|')
  world = { venue, token: { id: Number(id), hash: hashToken(secret) } }
  // The flow that builds every reused shape: availability of a court and a game, a customer's
  // booking and a desk booking.
  const date = daysFromFixedNow(2)
  assert.equal((await app.inject({ url: `/api/courts/${court.id}/availability?date=${date}` })).statusCode, 200)
  assert.equal((await app.inject({ url: `/api/indoor-games/${game.id}/availability?date=${date}` })).statusCode, 200)
  const booked = await app.inject({
    method: 'POST',
    url: '/api/bookings',
    headers: customer.headers,
    payload: { court_id: court.id, date, start_time: '10:00', end_time: '11:00' },
  })
  assert.equal(booked.statusCode, 201)
  // A desk booking: the plain INSERT, no unpaid cap in it (a customer's own carries one).
  const desk = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/bookings`,
    headers: owner.headers,
    payload: { court_id: court.id, date, start_time: '11:00', end_time: '12:00', customer_name: 'Walk-in' },
  })
  assert.equal(desk.statusCode, 201, desk.body)
})
after(() => app.close())

async function snapshots(): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const [name, statements] of Object.entries(REUSED)) {
    assert.deepEqual([...statements.refused], [], `${name}: statements that cannot be reused`)
    const body = statements.entries().map(([shape, text]) => `-- shape: ${shape}\n${formatSql(text)};\n`)
    files.set(`reused-${name}.sql`, `-- Reused statements of ${name}\n\n${body.join('\n')}`)
  }
  for (const [name, run] of Object.entries(HOT)) {
    const sent: CompiledQuery[] = []
    await run(recordingDb(app.ctx.db, sent), world)
    assert.ok(sent.length > 0, `${name} sent no query`)
    const body = sent.map((q) => `${formatSql(q.sql)};\n`)
    files.set(`${name}.sql`, `-- ${name}\n\n${body.join('\n')}`)
  }
  return files
}

test('the SQL of each reused statement and hot query is the checked-in one', async () => {
  const files = await snapshots()
  if (update) {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    for (const [name, text] of files) writeFileSync(join(dir, name), text)
    return
  }
  const present = readdirSync(dir, { withFileTypes: true })
    .filter((f) => f.isFile())
    .map((f) => f.name)
  assert.deepEqual(present.sort(), [...files.keys()].sort(), 'snapshot files (UPDATE_SQL_SNAPSHOTS=1 rewrites them)')
  for (const [name, text] of files) {
    assert.equal(text, readFileSync(join(dir, name), 'utf8'), `${name} changed (UPDATE_SQL_SNAPSHOTS=1 rewrites it)`)
  }
})
