import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import type { App } from '../../src/app.ts'
import { type CacheTag, cacheTags } from '../../src/lib/cache-tags.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import {
  createCourt,
  createIndoorGame,
  createUser,
  createVenue,
  daysFromFixedNow,
  FIXED_NOW,
} from '../helpers/factories.ts'

// The tags the database announces on the cache channel (the triggers of migrations/003 and 005) are
// the ones src/lib/cache-tags.ts builds: each announcing table has a row changed here, and what
// arrives through the app's LISTEN must equal the builders' output, on PGlite and PostgreSQL alike.

let app: App
const arrived: string[] = []
let ids: {
  venue: number
  court: number
  game: number
  booking: number
  indoorBooking: number
  user: number
  token: number
  amenity: number
  sport: number
  media: number
  review: number
}

before(async () => {
  app = await build(undefined, { CACHE_TTL_MS: '30000' }, { clock: new ManualClock(FIXED_NOW) })
  const invalidate = app.ctx.cache.invalidate.bind(app.ctx.cache)
  app.ctx.cache.invalidate = (tag: string) => {
    arrived.push(tag)
    invalidate(tag)
  }
  const db = app.ctx.db
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const customer = await createUser(app)
  const venue = await createVenue(app, owner.id)
  const court = await createCourt(app, venue.id)
  const game = await createIndoorGame(app, venue.id)
  const date = daysFromFixedNow(3)
  const booked = await app.inject({
    method: 'POST',
    url: '/api/bookings',
    headers: customer.headers,
    payload: { court_id: court.id, date, start_time: '10:00', end_time: '11:00' },
  })
  assert.equal(booked.statusCode, 201, booked.body)
  const indoor = await db
    .insertInto('indoor_game_bookings')
    .values({
      booking_number: `IG-TAGS-${process.pid}`,
      tenant_id: owner.id,
      user_id: customer.id,
      indoor_game_id: game.id,
      venue_id: venue.id,
      status: 'confirmed',
      date,
      start_time: '10:00',
      end_time: '11:00',
      base_amount: 30000,
      total_amount: 30000,
      customer_name: 'Customer',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('court_blocks')
    .values({ court_id: court.id, date, start_time: '12:00', end_time: '13:00' })
    .execute()
  await db
    .insertInto('court_schedules')
    .values({ court_id: court.id, day_of_week: 1, open_time: '06:00', close_time: '22:00' })
    .execute()
  await db
    .insertInto('pricing_rules')
    .values({ court_id: court.id, type: 'peak', start_time: '18:00', end_time: '21:00', price_per_hour: 200000 })
    .execute()
  await db.insertInto('venue_holidays').values({ venue_id: venue.id, date, name: 'Holiday' }).execute()
  const amenity = await db.selectFrom('amenities').select('id').orderBy('id').executeTakeFirstOrThrow()
  await db.insertInto('venue_amenities').values({ venue_id: venue.id, amenity_id: amenity.id }).execute()
  const sport = await db.selectFrom('sports').select('id').orderBy('id').executeTakeFirstOrThrow()
  const media = await db
    .insertInto('media')
    .values({
      model_type: 'venue',
      model_id: venue.id,
      collection: 'gallery',
      path: 'venues/x.jpg',
      mime_type: 'image/jpeg',
      size: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('webhook_endpoints')
    .values({ venue_id: venue.id, url: 'https://example.com/hooks', events: ['booking.created'], secret: 'whsec_eA==' })
    .execute()
  const review = await db
    .insertInto('reviews')
    .values({ venue_id: venue.id, user_id: customer.id, rating: 5 })
    .returning('id')
    .executeTakeFirstOrThrow()
  ids = {
    venue: venue.id,
    court: court.id,
    game: game.id,
    booking: booked.json().data.id,
    indoorBooking: indoor.id,
    user: customer.id,
    token: Number(customer.token.split('|')[0]),
    amenity: amenity.id,
    sport: sport.id,
    media: media.id,
    review: review.id,
  }
  await quiet()
})
after(() => app.close())

/** Waits until no notification has arrived for a while (the set-up's are delivered asynchronously). */
async function quiet() {
  for (let seen = -1; seen !== arrived.length; ) {
    seen = arrived.length
    await sleep(300)
  }
}

/** Each announcing table: a change to one of its rows, and the tags the builders say it announces. */
const CHANGES: { table: string; change: () => string; tags: () => CacheTag[] }[] = [
  {
    table: 'bookings',
    change: () => `notes = 'x' WHERE id = ${ids.booking}`,
    tags: () => [cacheTags.slots(ids.court)],
  },
  {
    table: 'indoor_game_bookings',
    change: () => `notes = 'x' WHERE id = ${ids.indoorBooking}`,
    tags: () => [cacheTags.game(ids.game)],
  },
  {
    table: 'court_blocks',
    change: () => `reason = 'x' WHERE court_id = ${ids.court}`,
    tags: () => [cacheTags.court(ids.court)],
  },
  {
    table: 'court_schedules',
    change: () => `is_closed = false WHERE court_id = ${ids.court}`,
    // and the catalogue: its cards show today's lowest price (migrations/034)
    tags: () => [cacheTags.court(ids.court), cacheTags.catalogue],
  },
  {
    table: 'pricing_rules',
    change: () => `is_active = true WHERE court_id = ${ids.court}`,
    // and the catalogue: its cards show today's lowest price (migrations/034)
    tags: () => [cacheTags.court(ids.court), cacheTags.catalogue],
  },
  {
    table: 'venue_holidays',
    change: () => `name = 'x' WHERE venue_id = ${ids.venue}`,
    // and the catalogue: its cards show today's lowest price (migrations/034)
    tags: () => [cacheTags.venue(ids.venue), cacheTags.catalogue],
  },
  {
    table: 'courts',
    change: () => `name = name WHERE id = ${ids.court}`,
    tags: () => [cacheTags.court(ids.court), cacheTags.catalogue],
  },
  {
    table: 'indoor_games',
    change: () => `name = name WHERE id = ${ids.game}`,
    tags: () => [cacheTags.game(ids.game), cacheTags.catalogue],
  },
  {
    table: 'venues',
    change: () => `name = name WHERE id = ${ids.venue}`,
    tags: () => [cacheTags.venue(ids.venue), cacheTags.catalogue],
  },
  {
    table: 'venue_amenities',
    change: () => `amenity_id = amenity_id WHERE venue_id = ${ids.venue}`,
    tags: () => [cacheTags.catalogue],
  },
  { table: 'amenities', change: () => `icon = icon WHERE id = ${ids.amenity}`, tags: () => [cacheTags.catalogue] },
  { table: 'sports', change: () => `label = label WHERE id = ${ids.sport}`, tags: () => [cacheTags.catalogue] },
  { table: 'media', change: () => `sort_order = 1 WHERE id = ${ids.media}`, tags: () => [cacheTags.catalogue] },
  { table: 'reviews', change: () => `comment = 'x' WHERE id = ${ids.review}`, tags: () => [cacheTags.catalogue] },
  {
    table: 'api_tokens',
    change: () => `token_hash = token_hash WHERE id = ${ids.token}`,
    tags: () => [cacheTags.token(ids.token)],
  },
  { table: 'users', change: () => `name = 'Renamed' WHERE id = ${ids.user}`, tags: () => [cacheTags.user(ids.user)] },
  {
    table: 'webhook_endpoints',
    change: () => `events = events WHERE venue_id = ${ids.venue}`,
    tags: () => [cacheTags.venue(ids.venue)],
  },
  {
    table: 'user_roles',
    change: () => `role_id = role_id WHERE user_id = ${ids.user}`,
    tags: () => [cacheTags.user(ids.user)],
  },
]

test('every announcing table sends the tags the builders produce', async () => {
  assert.ok(app.ctx.cache.live, 'the app is listening on the cache channel')
  for (const { table, change, tags } of CHANGES) {
    arrived.length = 0
    const { numAffectedRows } = await sql`UPDATE ${sql.table(table)} SET ${sql.raw(change())}`.execute(app.ctx.db)
    assert.ok(Number(numAffectedRows) >= 1, `${table}: a row was changed`)
    const expected = [...new Set(tags())].sort()
    const deadline = Date.now() + 5000
    while (!expected.every((t) => arrived.includes(t)) && Date.now() < deadline) await sleep(20)
    await quiet()
    assert.deepEqual([...new Set(arrived)].sort(), expected, `${table} announced`)
  }
  // A webhook delivery's bookkeeping (failing_since) changes who hears nothing: no announcement.
  arrived.length = 0
  await sql`UPDATE webhook_endpoints SET failing_since = now() WHERE venue_id = ${ids.venue}`.execute(app.ctx.db)
  await sleep(200)
  await quiet()
  assert.deepEqual(arrived, [], 'failing_since announces nothing')
})
