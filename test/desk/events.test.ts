import assert from 'node:assert/strict'
import http, { type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { MAX_STREAMS_PER_USER } from '../../src/modules/desk/events.ts'
import { book, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, createUser, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'

// GET /api/venues/{venue}/events: server-sent events from the database's change notifications, on a
// listening server (the read cache is off in tests, so the stream starts the listener itself). The
// client is node:http without keep-alive: fetch's pool kept sockets of aborted streams open, which made
// the server's close wait for its connection timeout.

let app: App
let base: string
before(async () => {
  app = await build(undefined, { DESK_HEARTBEAT_MS: '100' }, { clock: new ManualClock(FIXED_NOW) })
  await app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})
after(() => app.close())

interface Sse {
  event?: string
  data?: string
  retry?: string
  comment?: string
}

/** A response of node:http, without keep-alive (each request its own connection, closed with it). */
function get(url: string, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, resolve)
    req.on('error', reject)
  })
}

async function json(res: IncomingMessage): Promise<{ message: string }> {
  let text = ''
  for await (const chunk of res) text += chunk
  return JSON.parse(text)
}

/** A streaming reader of one event stream: `next(match)` waits for a matching event. */
async function open(venue: number | string, headers: Record<string, string>, at = base) {
  const res = await get(`${at}/api/venues/${venue}/events`, headers)
  const seen: Sse[] = []
  const waiters: { match: (e: Sse) => boolean; resolve: (e: Sse) => void }[] = []
  let endedResolve: () => void = () => {}
  const endedPromise = new Promise<void>((r) => {
    endedResolve = r
  })
  let buf = ''
  res.setEncoding('utf8')
  res.on('data', (chunk: string) => {
    buf += chunk
    let cut = buf.indexOf('\n\n')
    while (cut >= 0) {
      const block = buf.slice(0, cut)
      buf = buf.slice(cut + 2)
      const e: Sse = {}
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) e.comment = line.slice(1).trim()
        else {
          const i = line.indexOf(':')
          const field = line.slice(0, i) as 'event' | 'data' | 'retry'
          e[field] = line.slice(i + 1).trim()
        }
      }
      seen.push(e)
      for (const w of [...waiters]) {
        if (w.match(e)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(e)
        }
      }
      cut = buf.indexOf('\n\n')
    }
  })
  res.on('close', () => endedResolve())
  res.on('error', () => endedResolve())
  return {
    res,
    seen,
    endedPromise,
    close: () => res.destroy(),
    next(match: (e: Sse) => boolean, ms = 1000): Promise<Sse> {
      const already = seen.find(match)
      if (already) return Promise.resolve(already)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching event within ${ms} ms: ${JSON.stringify(seen)}`)),
          ms,
        )
        waiters.push({
          match,
          resolve: (e) => {
            clearTimeout(timer)
            resolve(e)
          },
        })
      })
    },
  }
}

const change = (kind: string, id: number) => (e: Sse) => e.event === 'change' && e.data === JSON.stringify({ kind, id })

test('a stream says ready, then a change for every booking, payment, charge, block and holiday at its venue (none from elsewhere), and pings', async (t) => {
  const w = await world(app)
  const other = await world(app)
  const game = await createIndoorGame(app, w.venue.id)
  const s = await open(w.venue.id, w.staff.headers)
  t.after(() => s.close())
  assert.equal(s.res.statusCode, 200)
  assert.match(s.res.headers['content-type'] ?? '', /^text\/event-stream/)
  assert.equal(s.res.headers['cache-control'], 'no-store')
  const ready = await s.next((e) => e.event === 'ready')
  assert.equal(ready.data, JSON.stringify({ venue_id: w.venue.id }))
  assert.equal(s.seen[0].retry, '3000')
  await s.next((e) => e.comment === 'ping')

  const date = daysFromFixedNow(3)
  // A booking at the other venue first: it must not reach this stream.
  const elsewhere = await book(app, other.customer, {
    court_id: other.court.id,
    date,
    start_time: '09:00',
    end_time: '10:00',
  })
  assert.equal(elsewhere.statusCode, 201)

  const created = await app.inject({
    method: 'POST',
    url: `/api/venues/${w.venue.id}/bookings`,
    headers: w.staff.headers,
    payload: { court_id: w.court.id, date, start_time: '10:00', end_time: '11:00', customer_name: 'Walk In' },
  })
  assert.equal(created.statusCode, 201, created.body)
  // From the commit's answer to the event: milliseconds on a quiet machine; the bound allows a loaded CI box.
  const t0 = performance.now()
  await s.next(change('court', w.court.id))
  const latency = performance.now() - t0
  assert.ok(latency < 2000, `change after ${latency} ms`)
  const booking = created.json().data

  // A cash payment announces the booking's court.
  let count = s.seen.filter(change('court', w.court.id)).length
  const paid = await app.inject({
    method: 'POST',
    url: `/api/bookings/${booking.id}/payments`,
    headers: w.staff.headers,
    payload: { amount: 500, method: 'cash' },
  })
  assert.equal(paid.statusCode, 201, paid.body)
  await s.next((e) => change('court', w.court.id)(e) && s.seen.filter(change('court', w.court.id)).length > count)

  // So does an extra charge.
  count = s.seen.filter(change('court', w.court.id)).length
  const charged = await app.inject({
    method: 'POST',
    url: `/api/bookings/${booking.id}/charges`,
    headers: w.staff.headers,
    payload: { description: 'Balls', amount: 100 },
  })
  assert.equal(charged.statusCode, 201, charged.body)
  await s.next(() => s.seen.filter(change('court', w.court.id)).length > count)

  // A maintenance block.
  count = s.seen.filter(change('court', w.court.id)).length
  const blocked = await app.inject({
    method: 'POST',
    url: `/api/courts/${w.court.id}/blocks`,
    headers: w.manager.headers,
    payload: { date, start_time: '15:00', end_time: '16:00', reason: 'Net' },
  })
  assert.equal(blocked.statusCode, 201, blocked.body)
  await s.next(() => s.seen.filter(change('court', w.court.id)).length > count)

  // An indoor booking names the game; a holiday names the venue.
  const indoor = await app.inject({
    method: 'POST',
    url: '/api/indoor-game-bookings',
    headers: w.customer.headers,
    payload: { indoor_game_id: game.id, date, start_time: '16:00', end_time: '17:00' },
  })
  assert.equal(indoor.statusCode, 201, indoor.body)
  await s.next(change('indoor_game', game.id))
  // A cash payment on the indoor booking names the game again.
  count = s.seen.filter(change('indoor_game', game.id)).length
  const indoorPaid = await app.inject({
    method: 'POST',
    url: `/api/indoor-game-bookings/${indoor.json().data.id}/payments`,
    headers: w.staff.headers,
    payload: { amount: 100, method: 'cash' },
  })
  assert.equal(indoorPaid.statusCode, 201, indoorPaid.body)
  await s.next(() => s.seen.filter(change('indoor_game', game.id)).length > count)
  const holiday = await app.inject({
    method: 'POST',
    url: `/api/venues/${w.venue.id}/holidays`,
    headers: w.manager.headers,
    payload: { date, name: 'Tihar' },
  })
  assert.equal(holiday.statusCode, 201, holiday.body)
  await s.next(change('venue', w.venue.id))

  // Nothing of the other venue arrived.
  const changes = s.seen.filter((e) => e.event === 'change').map((e) => JSON.parse(e.data ?? '{}'))
  for (const c of changes) {
    assert.ok(
      (c.kind === 'court' && c.id === w.court.id) ||
        (c.kind === 'indoor_game' && c.id === game.id) ||
        (c.kind === 'venue' && c.id === w.venue.id),
      JSON.stringify(c),
    )
  }
})

test('who may open a stream: 401, 403 (customer, staff of another venue), 404; super_admin and the slug work', async (t) => {
  const w = await world(app)
  const other = await world(app)
  const admin = await createUser(app, { roles: ['super_admin'] })
  const status = async (venue: number | string, headers: Record<string, string> = {}) => {
    const res = await get(`${base}/api/venues/${venue}/events`, headers)
    await json(res)
    return res.statusCode
  }
  assert.equal(await status(w.venue.id), 401)
  assert.equal(await status(w.venue.id, w.customer.headers), 403)
  assert.equal(await status(w.venue.id, other.staff.headers), 403)
  assert.equal(await status(999999999, w.staff.headers), 404)
  for (const [key, who] of [
    [w.venue.slug, w.owner],
    [w.venue.id, admin],
  ] as const) {
    const s = await open(key, who.headers)
    t.after(() => s.close())
    assert.equal(s.res.statusCode, 200)
    assert.equal((await s.next((e) => e.event === 'ready')).data, JSON.stringify({ venue_id: w.venue.id }))
  }
})

test(`at most ${MAX_STREAMS_PER_USER} streams per user: then 429; a closed stream frees its place`, async (t) => {
  const w = await world(app)
  const streams = []
  for (let i = 0; i < MAX_STREAMS_PER_USER; i++) {
    const s = await open(w.venue.id, w.manager.headers)
    t.after(() => s.close())
    assert.equal(s.res.statusCode, 200)
    await s.next((e) => e.event === 'ready')
    streams.push(s)
  }
  const refused = await get(`${base}/api/venues/${w.venue.id}/events`, w.manager.headers)
  assert.equal(refused.statusCode, 429)
  assert.match((await json(refused)).message, /Too many open event streams/)
  // Another user is not affected.
  const staff = await open(w.venue.id, w.staff.headers)
  t.after(() => staff.close())
  assert.equal(staff.res.statusCode, 200)

  streams[0].close()
  await streams[0].endedPromise
  for (let i = 0; i < 50; i++) {
    const again = await get(`${base}/api/venues/${w.venue.id}/events`, w.manager.headers)
    again.destroy()
    if (again.statusCode === 200) return
    await new Promise((r) => setTimeout(r, 20))
  }
  assert.fail('the closed stream did not free its place')
})

test('app.close() ends open streams and does not hang', async () => {
  const own = await build(undefined, { DESK_HEARTBEAT_MS: '100' }, { clock: new ManualClock(FIXED_NOW) })
  await own.listen({ port: 0, host: '127.0.0.1' })
  const url = `http://127.0.0.1:${(own.server.address() as AddressInfo).port}`
  const w = await world(own)
  const s = await open(w.venue.id, w.staff.headers, url)
  assert.equal(s.res.statusCode, 200)
  await s.next((e) => e.event === 'ready')
  const t0 = performance.now()
  await own.close()
  // A stream that kept the server open would hang close() for good; the bound only has to be far
  // above what close() takes on a busy machine (the ledger check and dropping the database: up to 6 s seen).
  assert.ok(performance.now() - t0 < 20_000, `close took ${Math.round(performance.now() - t0)} ms`)
  // The stream ended from the server's side.
  await s.endedPromise
})

// Access that outlived its grant (issue 32): a stream kept delivering after logout or after the
// staff member was removed. Each heartbeat re-checks the token and the staff role in the database.
test('a stream ends at the next heartbeat after logout, token deletion, suspension or removal from the staff', async () => {
  const w = await world(app)
  const admin = await createUser(app, { roles: ['super_admin'] })
  const cases: Array<
    [string, (user: { id: number; token: string; headers: Record<string, string> }) => Promise<void>]
  > = [
    [
      'logout',
      async (u) => {
        const res = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: u.headers })
        assert.equal(res.statusCode, 200)
      },
    ],
    [
      'token deleted',
      async (u) => {
        await app.ctx.db
          .deleteFrom('api_tokens')
          .where('id', '=', Number(u.token.split('|')[0]))
          .execute()
      },
    ],
    [
      'suspended',
      async (u) => {
        const res = await app.inject({
          method: 'PATCH',
          url: `/api/admin/users/${u.id}`,
          headers: admin.headers,
          payload: { is_active: false },
        })
        assert.equal(res.statusCode, 200)
      },
    ],
    [
      'removed from the staff',
      async (u) => {
        const res = await app.inject({
          method: 'DELETE',
          url: `/api/venues/${w.venue.id}/staff/${u.id}`,
          headers: w.owner.headers,
        })
        assert.equal(res.statusCode, 200, res.body)
      },
    ],
  ]
  for (const [what, revoke] of cases) {
    const staff = await createUser(app, { roles: ['staff'] })
    await app.ctx.db
      .insertInto('venue_staff')
      .values({ venue_id: w.venue.id, user_id: staff.id, role: 'staff' })
      .execute()
    const stream = await open(w.venue.id, staff.headers)
    assert.equal(stream.res.statusCode, 200, what)
    await stream.next((e) => e.event === 'ready')
    await stream.next((e) => e.comment === 'ping', 2000)
    await revoke(staff)
    const ended = await Promise.race([
      stream.endedPromise.then(() => true),
      new Promise((r) => setTimeout(() => r(false), 3000)),
    ])
    assert.equal(ended, true, `${what}: the stream ended`)
    // A booking change after that reaches no one.
    stream.close()
  }
  // A colleague's stream is not affected.
  const stays = await open(w.venue.id, w.manager.headers)
  await stays.next((e) => e.event === 'ready')
  await stays.next((e) => e.comment === 'ping', 2000)
  stays.close()
})

test('logout, a revoked device, suspension or removal from the staff end a stream at once, not at the next heartbeat', async () => {
  // A heartbeat of a minute: only the change notification can end the stream within a second.
  const slow = await build(undefined, { DESK_HEARTBEAT_MS: '60000' }, { clock: new ManualClock(FIXED_NOW) })
  await slow.listen({ port: 0, host: '127.0.0.1' })
  const at = `http://127.0.0.1:${(slow.server.address() as AddressInfo).port}`
  try {
    const w = await world(slow)
    const admin = await createUser(slow, { roles: ['super_admin'] })
    const revocations: Array<
      [string, (u: { id: number; token: string; headers: Record<string, string> }) => Promise<number>]
    > = [
      [
        'logout',
        async (u) => (await slow.inject({ method: 'POST', url: '/api/auth/logout', headers: u.headers })).statusCode,
      ],
      [
        'device revoked',
        async (u) =>
          (
            await slow.inject({
              method: 'DELETE',
              url: `/api/auth/devices/${u.token.split('|')[0]}`,
              headers: u.headers,
            })
          ).statusCode,
      ],
      [
        'suspended',
        async (u) =>
          (
            await slow.inject({
              method: 'PATCH',
              url: `/api/admin/users/${u.id}`,
              headers: admin.headers,
              payload: { is_active: false },
            })
          ).statusCode,
      ],
      [
        'removed from the staff',
        async (u) =>
          (
            await slow.inject({
              method: 'DELETE',
              url: `/api/venues/${w.venue.id}/staff/${u.id}`,
              headers: w.owner.headers,
            })
          ).statusCode,
      ],
    ]
    const colleague = await open(w.venue.id, w.manager.headers, at)
    await colleague.next((e) => e.event === 'ready')
    for (const [what, revoke] of revocations) {
      const staff = await createUser(slow, { roles: ['staff'] })
      await slow.ctx.db
        .insertInto('venue_staff')
        .values({ venue_id: w.venue.id, user_id: staff.id, role: 'staff' })
        .execute()
      const stream = await open(w.venue.id, staff.headers, at)
      assert.equal(stream.res.statusCode, 200, what)
      await stream.next((e) => e.event === 'ready')
      assert.equal(await revoke(staff), 200, what)
      const ended = await Promise.race([
        stream.endedPromise.then(() => true),
        new Promise((r) => setTimeout(() => r(false), 1000)),
      ])
      assert.equal(ended, true, `${what}: the stream ended within a second`)
      stream.close()
    }
    // The colleague's stream still stands, and still hears the venue's changes.
    assert.equal(colleague.res.destroyed, false)
    await slow.ctx.db.updateTable('venues').set({ name: 'Renamed' }).where('id', '=', w.venue.id).execute()
    await colleague.next(change('venue', w.venue.id))
    colleague.close()
  } finally {
    await slow.close()
  }
})
