import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build, buildOn } from '../helpers/app.ts'
import { lastOtp } from './helpers.ts'

// OTP brute force (issue 32): a new code used to reset the 5-try limit, so a few addresses gave ~25
// guesses a minute per account. Now, per identifier and in the database: at most 10 wrong tries an
// hour across codes (then 429, even for the right code, until the hour has passed) and at most 10
// sends a day. Two apps on one database stand for two instances.

const clock = new ManualClock('2031-03-04T06:00:00Z')
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

const send = (a: App, identifier: string, type = 'sms') =>
  a.inject({ method: 'POST', url: '/api/auth/otp/send', payload: { identifier, type } })
const verify = (a: App, identifier: string, otp: string, type = 'sms') =>
  a.inject({ method: 'POST', url: '/api/auth/otp/verify', payload: { identifier, otp, type } })
const wrongFor = (code: string, i = 0) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0')

test('new codes do not reset the count: after 10 wrong tries in an hour even the right code is 429 until the hour passes', async () => {
  const phone = '9811000001'
  // Two codes, five wrong tries each (each code's own limit), as an attacker re-sending would do.
  for (let round = 0; round < 2; round++) {
    assert.equal((await send(app, phone)).statusCode, 200)
    const code = await lastOtp(app, phone)
    for (let i = 0; i < 5; i++) {
      const res = await verify(app, phone, wrongFor(code, i))
      assert.equal(res.statusCode, 422, `round ${round} try ${i}`)
    }
    clock.advance(60_000)
  }
  // A third code: the right code is refused, with the contract's 429.
  assert.equal((await send(app, phone)).statusCode, 200)
  const code = await lastOtp(app, phone)
  const locked = await verify(app, phone, code)
  assert.equal(locked.statusCode, 429)
  assert.deepEqual(locked.json(), { message: 'Too Many Attempts.' })
  const retryAfter = Number(locked.headers['retry-after'])
  assert.ok(retryAfter > 3000 && retryAfter <= 3600, `Retry-After ${retryAfter}`)
  assert.equal(locked.headers['x-ratelimit-limit'], '10')
  assert.equal(locked.headers['x-ratelimit-remaining'], '0')
  // Locked tries are not counted as tries of the code: it still works once the hour has passed.
  clock.advance(retryAfter * 1000 - 5000)
  assert.equal((await verify(app, phone, code)).statusCode, 429, 'still inside the hour')
  clock.advance(5000)
  const fresh = await send(app, phone)
  assert.equal(fresh.statusCode, 200)
  const ok = await verify(app, phone, await lastOtp(app, phone))
  assert.equal(ok.statusCode, 200, ok.body)
})

test('the limit is per identifier: another phone is unaffected', async () => {
  const phone = '9811000002'
  await send(app, phone)
  const code = await lastOtp(app, phone)
  for (let i = 0; i < 5; i++) await verify(app, phone, wrongFor(code, i))
  await send(app, phone)
  const code2 = await lastOtp(app, phone)
  for (let i = 0; i < 5; i++) await verify(app, phone, wrongFor(code2, i))
  assert.equal((await verify(app, phone, code2)).statusCode, 429)
  await send(app, '9811000003')
  assert.equal((await verify(app, '9811000003', await lastOtp(app, '9811000003'))).statusCode, 200)
})

test('parallel wrong tries from two instances never exceed 10 counted guesses', async () => {
  const peer = await buildPeer()
  try {
    const email = 'burst@example.com'
    const guessed: number[] = []
    // Three codes' worth of guesses at once, half through each instance.
    for (let round = 0; round < 3; round++) {
      await send(round % 2 ? peer : app, email, 'email')
      const code = await lastOtp(app, email)
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => verify(i % 2 ? peer : app, email, wrongFor(code, i), 'email')),
      )
      guessed.push(...results.map((r) => r.statusCode))
    }
    const judged = guessed.filter((s) => s === 422).length
    assert.ok(judged <= 10, `${judged} wrong tries were judged`)
    assert.ok(guessed.every((s) => s === 422 || s === 429))
    const code = await lastOtp(app, email)
    assert.equal((await verify(peer, email, code, 'email')).statusCode, 429)
    assert.equal((await verify(app, email, code, 'email')).statusCode, 429)
  } finally {
    await peer.close()
  }
})

test('at most 10 sends per identifier a day, counted across instances', async () => {
  const peer = await buildPeer()
  try {
    const phone = '9811000004'
    for (let i = 0; i < 10; i++) {
      const res = await send(i % 2 ? peer : app, phone)
      assert.equal(res.statusCode, 200, `send ${i}`)
      clock.advance(60 * 60_000)
    }
    const refused = await send(app, phone)
    assert.equal(refused.statusCode, 429)
    assert.deepEqual(refused.json(), { message: 'Too Many Attempts.' })
    // The first send was 10 hours ago: a day after it, one more is allowed.
    const retryAfter = Number(refused.headers['retry-after'])
    assert.ok(retryAfter > 13 * 3600 && retryAfter <= 14 * 3600, `Retry-After ${retryAfter}`)
    assert.equal((await send(peer, phone)).statusCode, 429)
    clock.advance(retryAfter * 1000)
    assert.equal((await send(peer, phone)).statusCode, 200)
    assert.equal((await send(app, phone)).statusCode, 429)
  } finally {
    await peer.close()
  }
})

/** A second app on the same database, as another instance would be. */
function buildPeer(): Promise<App> {
  return buildOn(app, {}, { clock })
}
