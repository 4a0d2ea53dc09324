import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

// The customer web app (web/, docs/web.md) is static files built by `npm run build` into dist/web:
// served here at / with their precompressed .br/.gz twins. Its pages are paths (/venues/3,
// /v/baneshwor-futsal-arena), so a GET for a page path that no route serves and that asks for HTML
// is answered with index.html (`fallback`, called by the not-found handler); /api, /console, /docs
// and the other service paths keep their own 404. Hashed assets are cached for a year; index.html
// is revalidated so a new build reaches players on their next load.
//
// Framing: only a venue's own page (/v/{slug}) and its widget (/embed/v/{slug}) may be shown in
// another site's <iframe> (`frame-ancestors *`); every other answer of the service refuses it
// (`frame-ancestors 'none'` and X-Frame-Options: DENY, see `frameOptions`).

function csp(framable: boolean) {
  return [
    "default-src 'self'",
    "img-src 'self' data: blob: https:",
    "style-src 'self'",
    "script-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    `frame-ancestors ${framable ? '*' : "'none'"}`,
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ')
}
const PAGE_CSP = csp(false)
const FRAMABLE_CSP = csp(true)

/** The paths a venue may have framed on its own site. */
export function isFramable(path: string): boolean {
  return /^\/(?:embed\/)?v\/[^/]+\/?$/.test(path)
}

/** Paths that belong to the service, never to the app: their unknown paths stay JSON 404s. */
const SERVICE_PATHS = /^\/(?:api|console|docs|storage|assets|health|ready|metrics)(?:\/|$)/

/**
 * Every answer refuses being framed unless it already says it may be (the framable pages): an
 * X-Frame-Options for older browsers, and `frame-ancestors 'none'` when the answer has no CSP of
 * its own. Called from the app's one onSend hook.
 */
export function frameOptions(reply: FastifyReply) {
  const policy = reply.getHeader('content-security-policy')
  if (typeof policy === 'string' && policy.includes('frame-ancestors *')) return
  reply.header('x-frame-options', 'DENY')
  if (policy === undefined) reply.header('content-security-policy', "frame-ancestors 'none'")
}

interface Shell {
  html: Buffer
  br?: Buffer
  gz?: Buffer
}

export interface WebApp {
  dir: string
  shell: Shell | null
  /** Answers a page path no route serves with index.html; false when the request is not one. */
  fallback(req: FastifyRequest, reply: FastifyReply): boolean
}

/** Reads the built app's index.html (once: a new build is picked up on restart). */
export function loadWebApp(dir: string): WebApp {
  const index = join(dir, 'index.html')
  const read = (file: string) => (existsSync(file) ? readFileSync(file) : undefined)
  const html = read(index)
  const shell = html ? { html, br: read(`${index}.br`), gz: read(`${index}.gz`) } : null
  return {
    dir,
    shell,
    fallback(req, reply) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false
      const path = req.url.split('?')[0]
      if (SERVICE_PATHS.test(path) || /\.[A-Za-z0-9]+$/.test(path)) return false
      if (!String(req.headers.accept ?? '').includes('text/html')) return false
      if (!shell) {
        reply.code(503).type('text/plain; charset=utf-8')
        reply.send('The web app is not built. Run `npm run build` (npm start does it), then reload.')
        return true
      }
      sendShell(req, reply, shell, isFramable(path))
      return true
    },
  }
}

function sendShell(req: FastifyRequest, reply: FastifyReply, shell: Shell, framable: boolean) {
  pageHeaders(reply, framable)
  reply.header('cache-control', 'no-cache')
  reply.header('vary', 'accept-encoding')
  reply.type('text/html; charset=utf-8')
  const accepts = String(req.headers['accept-encoding'] ?? '')
  if (shell.br && /\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(shell.br)
  if (shell.gz && /\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(shell.gz)
  return reply.send(shell.html)
}

function pageHeaders(reply: FastifyReply, framable: boolean) {
  reply.header('content-security-policy', framable ? FRAMABLE_CSP : PAGE_CSP)
  reply.header('x-content-type-options', 'nosniff')
  reply.header('referrer-policy', 'strict-origin-when-cross-origin')
}

/** Serves the built files at / (index.html at / itself; other page paths through `fallback`). */
export async function registerWeb(app: FastifyInstance, web: WebApp) {
  if (!web.shell) {
    app.get('/', { schema: { hide: true } }, async (_req, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built. Run `npm run build` (npm start does it), then reload.'),
    )
    return
  }
  const assets = join(web.dir, 'assets')
  await app.register(fastifyStatic, {
    root: web.dir,
    prefix: '/',
    preCompressed: true,
    index: ['index.html'],
    // Routes for the files the build wrote (read at start-up), not a catch-all: unknown paths
    // reach the not-found handler, which serves page paths and keeps the service's 404s.
    wildcard: false,
    decorateReply: false,
    cacheControl: false,
    globIgnore: ['**/*.br', '**/*.gz', 'budget.json', '.source-hash'],
    setHeaders(reply, path) {
      pageHeaders(reply, false)
      reply.header('cache-control', path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache')
    },
  })
}
