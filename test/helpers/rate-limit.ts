import { randomBytes } from 'node:crypto'

/**
 * Environment for a test of the rate limits. With REDIS_URL set in the test run's environment the
 * counters live in that Redis, under a prefix of their own so parallel test files never share keys
 * (`REDIS_URL=redis://127.0.0.1:6379 npm test -- test/accounts/rate-limit.test.ts`); otherwise in memory.
 * Pass the same `prefix` to two apps to make them count together, as two instances would.
 */
export function rateLimitEnv(env: Record<string, string> = {}, prefix = uniquePrefix()): Record<string, string> {
  const redis = process.env.REDIS_URL
  return {
    RATE_LIMIT_ENABLED: 'true',
    ...(redis ? { REDIS_URL: redis, RATE_LIMIT_PREFIX: prefix } : {}),
    ...env,
  }
}

export function uniquePrefix(): string {
  return `courtside-rl-test:${process.pid}:${randomBytes(4).toString('hex')}:`
}
