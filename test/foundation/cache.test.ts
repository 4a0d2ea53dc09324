import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { hashToken } from '../../src/lib/auth.ts'
import { ReadCache, sizeOf } from '../../src/lib/cache.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { createCourt, createUser, createVenue, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'

// The read cache: tags, lifetimes, and invalidation by the database's change notifications (a write
// made outside the app, straight into the database, still reaches the cached reads).

test('ReadCache: a memory budget (CACHE_MAX_MB) evicts the oldest entries by estimated size', () => {
  const row = { id: 1, name: 'Court A', price: '1200.00', slots: ['06:00', '07:00', '08:00'] }
  const one = 3 * sizeOf(row)
  assert.ok(sizeOf(row) > 100 && sizeOf(row) < 1000, `a small row is estimated at ${sizeOf(row)} bytes`)
  assert.ok(sizeOf('x'.repeat(1000)) > 2000, 'strings count two bytes a character')
  const cache = new ReadCache(60_000, 100, undefined, 2.5 * one)
  cache.live = true
  cache.set('a', row, ['t'])
  cache.set('b', { ...row }, ['t'])
  assert.equal(cache.bytes, 2 * one)
  cache.set('c', { ...row }, ['u'])
  assert.equal(cache.size, 2, 'the third entry does not fit beside two')
  assert.equal(cache.get('a'), undefined, 'the oldest went first')
  assert.ok(cache.get('b') && cache.get('c'))
  assert.equal(cache.bytes, 2 * one)
  cache.invalidate('t')
  assert.equal(cache.bytes, one, 'invalidated entries give their bytes back')
  cache.set('c', { ...row }, ['u'])
  assert.equal(cache.bytes, one, 'storing a key again replaces its bytes')
  cache.set('huge', { text: 'x'.repeat(10_000) }, [])
  assert.equal(cache.get('huge'), undefined, 'a value larger than the whole budget is not kept')
  assert.ok(cache.get('c'), 'and evicts nothing')
  cache.clear()
  assert.equal(cache.bytes, 0)
})

test('ReadCache: mark, unchanged and changedSince tell data kept beside the cache what changed since it was read', () => {
  const cache = new ReadCache(60_000, 100)
  const off = cache.mark()
  assert.equal(cache.unchanged(off, ['a']), false, 'a cache not live vouches for nothing')
  assert.equal(cache.changedSince(off), null)
  cache.live = true
  const mark = cache.mark()
  assert.deepEqual(cache.changedSince(mark), [])
  cache.invalidate('slots:1')
  cache.invalidate('catalogue')
  assert.deepEqual(cache.changedSince(mark), ['catalogue', 'slots:1'], 'most recent first')
  assert.equal(cache.unchanged(mark, ['slots:2']), true)
  assert.equal(cache.unchanged(mark, ['slots:1']), false)
  const later = cache.mark()
  assert.deepEqual(cache.changedSince(later), [])
  // More invalidations than the log holds: what changed since `later` is no longer known.
  for (let i = 0; i < 9000; i++) cache.invalidate(`slots:${i}`)
  assert.equal(cache.changedSince(later), null)
  const recent = cache.mark()
  cache.invalidate('game:1')
  assert.deepEqual(cache.changedSince(recent), ['game:1'])
  cache.clear()
  assert.equal(cache.changedSince(recent), null, 'a cleared cache knows nothing of before')
})

test("ReadCache: what a followed read made is kept under its entries' tags and earliest expiry, never after their invalidation", () => {
  const clock = new ManualClock(FIXED_NOW)
  const start = clock.now().getTime()
  const cache = new ReadCache(60_000, 100, clock)
  cache.live = true
  cache.set('day', { slots: 1 }, ['court:1', 'venue:1'], start + 40_000)
  cache.set('venue', { name: 'A' }, ['venue:1'])

  const read = cache.follow(() => [cache.get('day'), cache.get('venue'), cache.get('missing')])
  assert.equal(read.trail.hits, 2)
  assert.equal(read.trail.expires, start + 40_000, 'the earliest expiry of the entries hit')
  cache.keep('answer', 'bytes', read.trail, 10)
  assert.equal(cache.kept('answer'), 'bytes')
  assert.equal(cache.get('answer'), undefined, 'kept apart from the entries')
  clock.advance(40_000)
  assert.equal(cache.kept('answer'), undefined, 'it expires with the day')

  cache.set('day', { slots: 2 }, ['court:1', 'venue:1'])
  const narrowed = cache.follow(() => {
    cache.narrow(clock.now().getTime() + 5_000)
    return cache.get('day')
  })
  cache.keep('answer', 'bytes', narrowed.trail)
  clock.advance(5_000)
  assert.equal(cache.kept('answer'), undefined, 'a narrowed read expires sooner')
  assert.ok(cache.get('day'), 'while the day stays')

  const again = cache.follow(() => cache.get('day'))
  cache.keep('answer', 'bytes', again.trail)
  cache.invalidate('court:1')
  assert.equal(cache.kept('answer'), undefined, 'dropped with the tag of an entry it was made from')

  cache.set('day', { slots: 3 }, ['court:1'])
  const raced = cache.follow(() => cache.get('day'))
  cache.invalidate('court:1') // arrives between the read and the store
  cache.keep('answer', 'bytes', raced.trail)
  assert.equal(cache.kept('answer'), undefined, 'not kept after an invalidation of what it read')

  const nothing = cache.follow(() => cache.get('missing'))
  cache.keep('answer', 'bytes', nothing.trail)
  assert.equal(cache.kept('answer'), undefined, 'a read that hit nothing is not kept')
  // A follow within a follow records its own reads, and the outer one goes on recording after it.
  cache.set('venue', { name: 'B' }, ['venue:2'])
  cache.set('day', { slots: 4 }, ['court:1'])
  const outer = cache.follow(() => {
    const inner = cache.follow(() => cache.get('day'))
    assert.deepEqual(inner.trail.tags, ['court:1'])
    return cache.get('venue')
  })
  assert.deepEqual(outer.trail.tags, ['venue:2'])
  cache.get('day')
  assert.equal(outer.trail.hits, 1, 'reads after a follow are not added to it')
})

test('ReadCache: what is kept from its entries has a budget of its own and never pushes them out', () => {
  const cache = new ReadCache(60_000, 10, undefined, 40_000)
  cache.live = true
  for (let i = 0; i < 5; i++) cache.set(`day:${i}`, { i }, [`court:${i}`])
  for (let i = 0; i < 1000; i++) {
    const read = cache.follow(() => cache.get(`day:${i % 5}`))
    cache.keep(`url:${i}`, 'bytes', read.trail, 2_000)
  }
  for (let i = 0; i < 5; i++) assert.ok(cache.get(`day:${i}`), `day ${i} is still held`)
  assert.equal(cache.size, 5)
  assert.ok(cache.keptSize.entries <= 5, 'at most half the entry cap for what is kept')
  assert.ok(cache.keptSize.bytes <= 10_000, 'and a quarter of the byte budget')
  assert.equal(cache.kept('url:999'), 'bytes', 'the newest kept answer is there')
  assert.equal(cache.kept('url:0'), undefined, 'the oldest went first')
  cache.invalidate('court:4')
  assert.equal(cache.kept('url:999'), undefined, 'invalidated with the entry it came from')
  const beforeClear = cache.follow(() => cache.get('day:0'))
  cache.clear()
  assert.equal(cache.keptSize.entries, 0)
  cache.keep('url:late', 'bytes', beforeClear.trail, 10)
  assert.equal(cache.kept('url:late'), undefined, 'a read from before a clear() is not kept')
  cache.set('day:0', { i: 0 }, ['court:0'])
  const read = cache.follow(() => cache.get('day:0'))
  cache.live = false // the listener dropped: nothing is stored, kept answers included
  cache.keep('url:offline', 'bytes', read.trail, 10)
  cache.live = true
  assert.equal(cache.kept('url:offline'), undefined)
})

test('ReadCache: tags, lifetimes, size cap, and nothing stored while not live', async () => {
  const clock = new ManualClock(FIXED_NOW)
  const cache = new ReadCache(1000, 3, clock)
  cache.set('a', 1, ['t1'])
  assert.equal(cache.get('a'), undefined, 'not live: nothing stored')
  cache.live = true
  cache.set('a', 1, ['t1'])
  cache.set('b', 2, ['t1', 't2'])
  cache.set('c', 3, ['t3'], clock.now().getTime() - 1)
  assert.equal(cache.get('a'), 1)
  assert.equal(cache.get('c'), undefined, 'expired entries are not served')
  cache.invalidate('t2')
  assert.equal(cache.get('b'), undefined)
  assert.equal(cache.get('a'), 1)
  cache.set('d', 4, [])
  cache.set('e', 5, [])
  cache.set('f', 6, [])
  assert.ok(cache.size <= 3, 'never more than maxEntries')
  assert.equal(cache.get('a'), undefined, 'the oldest entry went first')
  let loads = 0
  const load = async () => ++loads
  assert.equal(await cache.through('k', load, () => ({ tags: ['k'] })), 1)
  assert.equal(await cache.through('k', load, () => ({ tags: ['k'] })), 1)
  assert.equal(await cache.through('n', load, () => null), 2, 'a value the store refuses is not kept')
  assert.equal(await cache.through('n', load, () => null), 3)
  // Concurrent misses share one load; a load that overlaps an invalidation is served but not kept.
  let slow = 0
  let release!: () => void
  const gate = new Promise<void>((r) => {
    release = r
  })
  const slowLoad = async () => {
    slow++
    await gate
    return 'old'
  }
  const both = Promise.all([
    cache.through('s', slowLoad, () => ({ tags: ['s'] })),
    cache.through('s', slowLoad, () => ({ tags: ['s'] })),
  ])
  cache.invalidate('s')
  release()
  assert.deepEqual(await both, ['old', 'old'])
  assert.equal(slow, 1, 'one load for two concurrent misses')
  assert.equal(cache.get('s'), undefined, 'a load that raced a write is not cached')
  // A miss after an invalidation does not join a load that started before it (it may hold the old data).
  let releaseOld!: () => void
  const oldGate = new Promise<void>((r) => {
    releaseOld = r
  })
  const before = cache.through(
    'j',
    async () => {
      await oldGate
      return 'before'
    },
    () => ({ tags: ['j'] }),
  )
  cache.invalidate('j')
  const afterWrite = cache.through(
    'j',
    async () => 'after',
    () => ({ tags: ['j'] }),
  )
  releaseOld()
  assert.deepEqual(await Promise.all([before, afterWrite]), ['before', 'after'])
  // A write to something else while a load runs does not stop that load being kept.
  let releaseOther!: () => void
  const otherGate = new Promise<void>((r) => {
    releaseOther = r
  })
  const pending = cache.through(
    'u',
    async () => {
      await otherGate
      return 'fresh'
    },
    () => ({ tags: ['u'] }),
  )
  cache.invalidate('unrelated')
  releaseOther()
  assert.equal(await pending, 'fresh')
  assert.equal(cache.get('u'), 'fresh', 'kept: none of its tags changed while it loaded')
  // hit(): the value held, counted as a hit; nothing counted for a miss or an expired entry.
  const counted = new ReadCache(1000, undefined, clock)
  counted.live = true
  counted.set('h', 'held', [])
  counted.set('gone', 'old', [], clock.now().getTime() - 1)
  assert.equal(counted.hit('h'), 'held')
  assert.equal(counted.hit('nothing'), undefined)
  assert.equal(counted.hit('gone'), undefined)
  assert.equal(counted.hits, 1)
  // read(): a hit is the value itself (no promise), a miss is through()'s promise of the load.
  assert.equal(
    counted.read(
      'h',
      async () => 'loaded',
      () => ({ tags: [] }),
    ),
    'held',
  )
  const missed = counted.read(
    'r',
    async () => 'loaded',
    () => ({ tags: ['r'] }),
  )
  assert.ok(missed instanceof Promise)
  assert.equal(await missed, 'loaded')
  assert.equal(
    counted.read(
      'r',
      async () => 'again',
      () => ({ tags: ['r'] }),
    ),
    'loaded',
    'kept, then a hit',
  )
  assert.deepEqual([counted.hits, counted.misses], [3, 1])
  const off = new ReadCache(0)
  off.live = true
  assert.equal(off.enabled, false, 'a zero lifetime turns the cache off')
  off.set('h', 'held', [])
  assert.equal(off.hit('h'), undefined)
})

let app: App
const appClock = new ManualClock(FIXED_NOW)
before(async () => {
  app = await build(undefined, { CACHE_TTL_MS: '30000' }, { clock: appClock })
})
after(() => app.close())

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await read()
  for (let i = 0; i < 100 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 20))
    v = await read()
  }
  return v
}

async function setup() {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { opening_time: '06:00:00', closing_time: '22:00:00' })
  const court = await createCourt(app, venue.id)
  return { venue, court }
}

type Grid = { slots: Array<{ start_time: string; is_available: boolean; price_per_hour: string }> }

test('availability is served from the cache and drops the entry when a booking commits', async () => {
  const { venue, court } = await setup()
  const date = daysFromFixedNow(2)
  const grid = async () =>
    (await app.inject({ url: `/api/courts/${court.id}/availability?date=${date}` })).json() as Grid
  const slot10 = (g: Grid) => g.slots.find((s) => s.start_time === '10:00')!
  assert.equal(slot10(await grid()).is_available, true)
  // The set-up's own change notifications may still arrive during the first load (not kept then).
  const cached = await eventually(
    async () => {
      await grid()
      return app.ctx.cache.get(`availability:court:${court.id}:${date}`)
    },
    (day) => day !== undefined,
  )
  assert.ok(cached, 'the day is cached')

  await app.ctx.db
    .insertInto('bookings')
    .values({
      booking_number: `BK-C-${process.pid}`,
      court_id: court.id,
      venue_id: venue.id,
      status: 'confirmed',
      date,
      start_time: '10:00',
      end_time: '11:00',
      base_amount: 100000,
      total_amount: 100000,
      customer_name: 'Walk-in',
    })
    .execute()
  const after = await eventually(grid, (g) => !slot10(g).is_available)
  assert.equal(slot10(after).is_available, false, 'the committed booking shows')

  // A pricing rule (another table the day depends on) also invalidates it.
  await app.ctx.db
    .insertInto('pricing_rules')
    .values({ court_id: court.id, type: 'peak', start_time: '10:00', end_time: '12:00', price_per_hour: 250000 })
    .execute()
  const priced = await eventually(
    grid,
    (g) => g.slots.find((s) => s.start_time === '11:00')!.price_per_hour === '2500.00',
  )
  assert.equal(priced.slots.find((s) => s.start_time === '11:00')!.price_per_hour, '2500.00')
})

test('a cached hold stops occupying its slot when it ends, with no write at all', async () => {
  const { venue, court } = await setup()
  const date = daysFromFixedNow(3)
  await app.ctx.db
    .insertInto('bookings')
    .values({
      booking_number: `BK-H-${process.pid}`,
      court_id: court.id,
      venue_id: venue.id,
      status: 'pending',
      date,
      start_time: '12:00',
      end_time: '13:00',
      base_amount: 100000,
      total_amount: 100000,
      customer_name: 'Holder',
      hold_expires_at: new Date(appClock.now().getTime() + 700),
    })
    .execute()
  const grid = async () =>
    (await app.inject({ url: `/api/courts/${court.id}/availability?date=${date}` })).json() as Grid
  const slot12 = (g: Grid) => g.slots.find((s) => s.start_time === '12:00')!
  const held = await eventually(grid, (g) => !slot12(g).is_available)
  assert.equal(slot12(held).is_available, false)
  appClock.advance(800) // the hold has ended: no write, only the app's clock moved on
  assert.equal(slot12(await grid()).is_available, true)
})

test('the guest catalogue is cached per URL and refreshed when a venue changes', async () => {
  const { venue } = await setup()
  const show = async () => (await app.inject({ url: `/api/venues/${venue.slug}` })).json().data.name as string
  assert.equal(await show(), venue.name)
  const list = async () =>
    (await app.inject({ url: `/api/venues?search=${encodeURIComponent(venue.name)}` })).json().data as Array<{
      name: string
    }>
  assert.equal((await list()).length, 1)
  await app.ctx.db.updateTable('venues').set({ name: 'Renamed Arena' }).where('id', '=', venue.id).execute()
  assert.equal(await eventually(show, (n) => n === 'Renamed Arena'), 'Renamed Arena')
  assert.equal((await eventually(list, (l) => l.length === 0)).length, 0, 'the old name no longer matches')
  // A venue owner's view is never cached: it sees the change at once.
})

test('a signed-in user is cached per token and dropped on logout, suspension and role change', async () => {
  const user = await createUser(app)
  const me = () => app.inject({ url: '/api/auth/me', headers: user.headers })
  assert.equal((await me()).statusCode, 200)
  const key = `auth:${user.token.split('|')[0]}:${hashToken(user.token.split('|')[1])}`
  const cached = await eventually(
    async () => {
      await me()
      return app.ctx.cache.get(key)
    },
    (entry) => entry !== undefined,
  )
  assert.ok(cached, 'the token owner is cached')
  // A wrong secret for a cached token id is never served from the cache.
  const forged = `${user.token.split('|')[0]}|${'x'.repeat(40)}`
  assert.equal(
    (await app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${forged}` } })).statusCode,
    401,
  )

  // A role granted straight in the database shows on the next requests.
  const admin = await app.ctx.db
    .selectFrom('roles')
    .select('id')
    .where('name', '=', 'venue_owner')
    .executeTakeFirstOrThrow()
  await app.ctx.db.insertInto('user_roles').values({ user_id: user.id, role_id: admin.id }).execute()
  const roles = await eventually(
    async () => (await me()).json().data.roles as string[],
    (r) => r.includes('venue_owner'),
  )
  assert.ok(roles.includes('venue_owner'))

  // Suspension: 403 as soon as the change is announced.
  await app.ctx.db.updateTable('users').set({ is_active: false }).where('id', '=', user.id).execute()
  assert.equal((await eventually(me, (r) => r.statusCode === 403)).statusCode, 403)
  await app.ctx.db.updateTable('users').set({ is_active: true }).where('id', '=', user.id).execute()
  assert.equal((await eventually(me, (r) => r.statusCode === 200)).statusCode, 200)

  // Logout deletes the token: the very next request with it is 401.
  assert.equal((await app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.headers })).statusCode, 200)
  assert.equal((await eventually(me, (r) => r.statusCode === 401)).statusCode, 401)
})

test('a booking sees a maintenance block or a deactivated court added after its day was cached', async () => {
  const { court } = await setup()
  const user = await createUser(app)
  const date = daysFromFixedNow(4)
  const book = (start: string, end: string) =>
    app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: user.headers,
      payload: { court_id: court.id, date, start_time: start, end_time: end },
    })
  assert.equal((await book('08:00', '09:00')).statusCode, 201, 'caches the day of the court')
  await app.ctx.db
    .insertInto('court_blocks')
    .values({ court_id: court.id, date, start_time: '10:00', end_time: '12:00', reason: 'Repairs' })
    .execute()
  assert.equal(
    (
      await eventually(
        () => book('10:00', '11:00'),
        (r) => r.statusCode === 409,
      )
    ).statusCode,
    409,
  )
  await app.ctx.db.updateTable('courts').set({ is_active: false }).where('id', '=', court.id).execute()
  const refused = await eventually(
    () => book('14:00', '15:00'),
    (r) => r.statusCode === 422,
  )
  assert.equal(refused.statusCode, 422)
  assert.deepEqual(Object.keys(refused.json().errors), ['court_id'])
})

test('a cached answer is encoded once and sent as JSON, with every per-request header still set', async () => {
  const { venue, court } = await setup()
  const date = daysFromFixedNow(4)
  for (const url of [
    `/api/venues/${venue.slug}`,
    `/api/venues?search=${encodeURIComponent(venue.name)}`,
    `/api/courts/${court.id}/availability?date=${date}`,
  ]) {
    const first = await app.inject({ url })
    // Until the entry is kept (the set-up's own change notifications may drop the first loads).
    await eventually(
      async () => {
        const hits = app.ctx.cache.hits
        await app.inject({ url })
        return app.ctx.cache.hits > hits
      },
      (hit) => hit,
    )
    const hits = app.ctx.cache.hits
    const [a, b] = [await app.inject({ url }), await app.inject({ url })]
    for (const res of [first, a, b]) {
      assert.equal(res.statusCode, 200, url)
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', url)
      assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body), url)
      assert.ok(res.headers['x-request-id'], url)
    }
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id'], 'hooks still run on a cached answer')
    assert.equal(app.ctx.cache.hits, hits + 2, `${url}: both answered from the cache`)
    assert.equal(a.body, b.body, url)
    assert.deepEqual(a.json(), first.json(), `${url}: the cached bytes are the answer`)
  }
  // The links of a cached page carry the request's own query.
  const page = (await app.inject({ url: `/api/venues?search=${encodeURIComponent(venue.name)}&per_page=5` })).json()
  assert.match(page.links.first, /per_page=5/)
  assert.match(page.meta.path, /\/api\/venues$/)
})

test('a cached day of a venue outside the catalogue is served to its owner, one hit a request, and 404 to others', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { verification_status: 'pending' })
  const court = await createCourt(app, venue.id)
  const stranger = await createUser(app)
  const url = `/api/courts/${court.id}/availability?date=${daysFromFixedNow(5)}`
  const ownerGet = () => app.inject({ url, headers: owner.headers })
  assert.equal((await ownerGet()).statusCode, 200)
  // Until the day is kept (the set-up's own change notifications may drop the first loads).
  await eventually(
    async () => {
      const hits = app.ctx.cache.hits
      await ownerGet()
      return app.ctx.cache.hits - hits
    },
    (n) => n > 0,
  )
  const hits = app.ctx.cache.hits
  const res = await ownerGet()
  assert.equal(res.statusCode, 200)
  assert.ok((res.json() as Grid).slots.length > 0)
  // The owner's token comes from the cache as well: one hit for the token, one for the day.
  assert.equal(app.ctx.cache.hits - hits, 2, 'the day is read from the cache once')
  assert.equal((await app.inject({ url })).statusCode, 404, 'a guest')
  assert.equal((await app.inject({ url, headers: stranger.headers })).statusCode, 404, 'a stranger')
  assert.equal((await ownerGet()).statusCode, 200, 'the owner again')
})
