import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

// The staff console (console/, docs/console.md) is static files built by `npm run build` into
// dist/console: served here at /console/ with their precompressed .br/.gz twins, so the same process
// and port serve the desk and the API it calls. Hashed assets are cached for a year; index.html is
// revalidated so a new build reaches the desk on its next load.

/**
 * The console's Content-Security-Policy; `tiles` (MAP_TILE_URL, docs/console.md "Location") adds the
 * tile server's origin to img-src, its {s} subdomain as a wildcard.
 */
export function consoleCsp(tiles?: string): string {
  const origin = tiles ? /^https?:\/\/[^/]+/.exec(tiles)?.[0].replace('{s}', '*') : undefined
  return [
    "default-src 'self'",
    `img-src 'self' data: blob:${origin ? ` ${origin}` : ''}`,
    "style-src 'self'",
    "script-src 'self'",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ')
}

export async function registerConsole(app: FastifyInstance, dir: string, tiles?: string) {
  const csp = consoleCsp(tiles)
  const built = existsSync(join(dir, 'index.html'))
  const assets = join(dir, 'assets')
  app.get('/console', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/console/', 301))
  if (!built) {
    app.get('/console/*', { schema: { hide: true } }, async (_req, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The staff console is not built. Run `npm run build` (npm start does it), then reload.'),
    )
    return
  }
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/console/',
    preCompressed: true,
    index: ['index.html'],
    wildcard: true,
    cacheControl: false,
    setHeaders(reply, path) {
      reply.header('content-security-policy', csp)
      reply.header('x-content-type-options', 'nosniff')
      reply.header('referrer-policy', 'no-referrer')
      reply.header('cache-control', path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache')
    },
  })
}
