import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Config } from '../config.ts'

// Limits of the contract: register 10/min, verification resend 6/min, login and OTP configurable,
// 60/min for everything else. Counted in Redis when REDIS_URL is set (shared by every instance),
// in memory otherwise.

export type LimitName = 'register' | 'emailResend' | 'login' | 'otp'

/** Route config for a named limit: `{ config: namedLimit(app, 'login') }`. */
export function namedLimit(app: FastifyInstance, name: LimitName) {
  return {
    rateLimit: {
      max: app.ctx.config.rateLimits[name],
      timeWindow: 60_000,
      keyGenerator: (req: FastifyRequest) => `${name}:${req.ip}`,
    },
  }
}

export async function registerRateLimit(app: FastifyInstance, config: Config) {
  if (!config.rateLimitEnabled) return
  const { default: rateLimit } = await import('@fastify/rate-limit')
  let redis: import('ioredis').Redis | undefined
  if (config.redisUrl) {
    const { Redis } = await import('ioredis')
    redis = new Redis(config.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: false })
    app.addHook('onClose', async () => {
      await redis?.quit().catch(() => undefined)
    })
  }
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimits.default,
    timeWindow: 60_000,
    redis,
    nameSpace: 'courtside-rl:',
    skipOnError: true,
    keyGenerator: (req) => req.ip,
    errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, message: 'Too Many Attempts.', ttl: ctx.ttl }),
  })
}
