import type { Redis } from 'ioredis'

// Fixed-window counters for limits keyed by something other than the route's client key (a login
// identifier, an OTP recipient). In Redis when REDIS_URL is set, so every instance counts the same
// attempts; in memory otherwise. Unlike @fastify/rate-limit's store they can be reset, which the
// login limit needs (a successful sign-in clears the account's failures).

export interface Hit {
  /** Hits in the current window, this one included. */
  count: number
  /** Milliseconds until the window ends. */
  ttlMs: number
}

export interface Counters {
  hit(key: string, windowMs: number): Promise<Hit>
  /**
   * `hit` for a hook on every request: no promise. The memory counters answer within the call,
   * Redis when its reply arrives; `done` gets the error when the store failed.
   */
  count(key: string, windowMs: number, done: (err: Error | null, hit?: Hit) => void): void
  reset(key: string): Promise<void>
}

/** Per-process counters; entries beyond `maxKeys` push out the oldest window first. */
export function memoryCounters(maxKeys = 50_000): Counters {
  const windows = new Map<string, { count: number; endsAt: number }>()
  const hit = (key: string, windowMs: number): Hit => {
    const now = Date.now()
    let w = windows.get(key)
    if (!w || w.endsAt <= now) {
      if (w) windows.delete(key)
      w = { count: 0, endsAt: now + windowMs }
      windows.set(key, w)
      // Map keeps insertion order, which is window start order: the first keys are the oldest.
      for (const [k, old] of windows) {
        if (windows.size <= maxKeys && old.endsAt > now) break
        windows.delete(k)
      }
    }
    w.count++
    return { count: w.count, ttlMs: w.endsAt - now }
  }
  return {
    async hit(key, windowMs) {
      return hit(key, windowMs)
    },
    count(key, windowMs, done) {
      done(null, hit(key, windowMs))
    },
    async reset(key) {
      windows.delete(key)
    },
  }
}

// One round trip: count, start the window on the first hit, report what is left of it.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`

export function redisCounters(redis: Redis, prefix: string): Counters {
  const count: Counters['count'] = (key, windowMs, done) => {
    redis.eval(HIT_SCRIPT, 1, prefix + key, windowMs, (err, reply) => {
      if (err) return done(err)
      const [n, ttlMs] = reply as [number, number]
      done(null, { count: n, ttlMs })
    })
  }
  return {
    hit: (key, windowMs) =>
      new Promise((resolve, reject) => count(key, windowMs, (err, hit) => (err || !hit ? reject(err) : resolve(hit)))),
    count,
    async reset(key) {
      await redis.del(prefix + key)
    },
  }
}
