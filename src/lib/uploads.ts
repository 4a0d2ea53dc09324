import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdir, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify'
import { AppError, NotFound } from './errors.ts'
import { coerceFields } from './validation.ts'

// File uploads (multipart/form-data), accepted only by the routes that take files: they list
// 'multipart/form-data' in `schema.consumes` and read the body with `readUploads(limits)` as their
// last preValidation hook, i.e. after authentication and access checks. Anywhere else a multipart
// request is 415 before its body is read. Files stream to a temporary file on disk, never into
// memory, and a file larger than its route allows is cut off while streaming (413).

/** A file received in a multipart body: a temporary file, removed when the response is sent. */
export class Upload {
  constructor(
    readonly path: string,
    /** Its size in bytes (an image is re-encoded without its metadata by detectImage, which updates it). */
    public size: number,
    readonly filename: string,
    readonly mimetype: string,
    /** The form field it came in (`avatar`, `images[]`), for the 422 of an image with too many pixels. */
    readonly field = 'file',
    /** MAX_IMAGE_PIXELS of the app that received it. */
    readonly maxPixels = DEFAULT_MAX_IMAGE_PIXELS,
  ) {}
}

export const DEFAULT_MAX_IMAGE_PIXELS = 40_000_000

export interface UploadLimits {
  /** The field rule for one file (bigger: 422 in the service, which names the field). */
  fileBytes: number
  /** Files one request may carry (a few more than the service accepts, so it can name the field). */
  files: number
}

// A file up to this much over its rule is read whole, so the service answers 422 naming the field;
// beyond that the upload is cut off at once with 413.
const GRACE_BYTES = 1024 * 1024
const FIELD_BYTES = 64 * 1024
const MAX_FIELDS = 50
const MULTIPART = /^multipart\/form-data\b/i
const TOO_LARGE = 'The request is too large.'

const kUploads = Symbol('uploads')
const kReadsUploads = Symbol('reads uploads')
type WithUploads = FastifyRequest & { [kUploads]?: string[] }

class BadRequest extends AppError {
  constructor(message: string) {
    super(400, message)
  }
}

class TooLarge extends AppError {
  constructor() {
    super(413, TOO_LARGE)
  }
}

/** The route's schema lists multipart/form-data in `consumes`. */
const listsMultipart = (schema: unknown) =>
  (schema as { consumes?: string[] } | undefined)?.consumes?.includes('multipart/form-data') ?? false

/**
 * The app-wide part (app.ts): the 415/400 gate for a multipart body sent to a route that takes no
 * files (app.ts closes the connection on such a refusal, sent before the body was read). The parser itself
 * and the temporary-file cleanup live only in the scopes of the routes that take files
 * (`acceptUploads`): @fastify/multipart adds an async onResponse hook to every route of its scope,
 * a promise and a microtask turn per request that every other route would pay for nothing.
 */
export function registerUploads(app: FastifyInstance, incomingDir: string, maxImagePixels = DEFAULT_MAX_IMAGE_PIXELS) {
  app.decorate('incomingDir', incomingDir)
  app.decorate('maxImagePixels', maxImagePixels)

  // A route that takes files (its schema says so, or it reads them with readUploads) in a scope
  // without the parser would fail every upload: refuse to start.
  app.addHook('onRoute', function (route) {
    const hooks = route.preValidation == null ? [] : [route.preValidation].flat()
    const takesFiles = listsMultipart(route.schema) || hooks.some((h) => kReadsUploads in h)
    if (takesFiles && !this.hasContentTypeParser('multipart/form-data')) {
      throw new Error(
        `${route.method} ${route.url} takes multipart/form-data: its plugin must await acceptUploads(app)`,
      )
    }
  })

  // These hooks run on every request: callback style, so a request without files costs no promise.
  app.addHook('onRequest', (req, _reply, done) => {
    const type = req.headers['content-type']
    if (!type || !MULTIPART.test(type)) return done()
    // No route: answered here, since the not-found handler's scope has no multipart parser (it
    // would call the body an unsupported media type).
    if (req.is404) return done(new NotFound())
    if (!listsMultipart(req.routeOptions.schema)) return done(new AppError(415, 'Unsupported media type.'))
    if (!/;\s*boundary=/i.test(type)) return done(new BadRequest('The multipart body has no boundary.'))
    done()
  })
}

/**
 * The multipart parser and the removal of a request's temporary files, for the route plugin that
 * calls it (its own encapsulated scope): every plugin with a route that lists 'multipart/form-data'
 * in `schema.consumes` awaits this first.
 */
export async function acceptUploads(app: FastifyInstance) {
  await app.register(multipart, { throwFileSizeLimit: true })

  // The handler is done with its files once the answer is ready: remove them before it is sent,
  // so they are gone by the time the client reads the response.
  app.addHook('onSend', (req: WithUploads, _reply, payload, done) => {
    if (!req[kUploads]?.length) return done(null, payload)
    removeUploads(req).then(() => done(null, payload))
  })

  // A request that ends without an answer being sent (the client went away) cleans up here.
  app.addHook('onResponse', (req: WithUploads, _reply, done) => {
    if (!req[kUploads]?.length) return done()
    removeUploads(req).then(() => done())
  })
}

async function removeUploads(req: WithUploads) {
  const paths = req[kUploads]
  req[kUploads] = undefined
  if (paths?.length) await Promise.all(paths.map((p) => unlink(p).catch(() => undefined)))
}

declare module 'fastify' {
  interface FastifyInstance {
    incomingDir: string
    maxImagePixels: number
  }
}

/**
 * The preValidation hook of a file route: a multipart body becomes `req.body` with text fields as
 * strings (coerced to the route's body schema, as a query string is) and files as `Upload`s. A JSON
 * body passes through untouched.
 */
export function readUploads(limits: UploadLimits): preValidationAsyncHookHandler {
  const fileSize = limits.fileBytes + GRACE_BYTES
  const maxBody = limits.files * fileSize + MAX_FIELDS * FIELD_BYTES
  const hook: preValidationAsyncHookHandler = async (req: WithUploads) => {
    if (!req.isMultipart()) return
    if (Number(req.headers['content-length'] ?? 0) > maxBody) throw new TooLarge()
    const dir = req.server.incomingDir
    await mkdir(dir, { recursive: true })
    const written: string[] = []
    req[kUploads] = written
    const body: Record<string, unknown> = Object.create(null)
    const readParts = async () => {
      const parts = req.parts({
        limits: {
          fileSize,
          files: limits.files,
          fields: MAX_FIELDS,
          fieldSize: FIELD_BYTES,
          parts: limits.files + MAX_FIELDS,
        },
      })
      for await (const part of parts) {
        if (part.type === 'field') {
          if (part.valueTruncated) throw new TooLarge()
          add(body, part.fieldname, part.value)
          continue
        }
        const path = join(dir, `${randomBytes(16).toString('hex')}.part`)
        written.push(path)
        const out = createWriteStream(path)
        // The parser would skip the rest of an oversized file to its end; refuse at the limit instead.
        const overLimit = once(part.file, 'limit').then(() => Promise.reject(new TooLarge()))
        overLimit.catch(() => undefined)
        await Promise.race([pipeline(part.file, out), overLimit])
        if (part.file.truncated) throw new TooLarge()
        // An empty file input (no file chosen) is an absent field, as browsers mean it.
        if (out.bytesWritten === 0 && !part.filename) continue
        const upload = new Upload(
          path,
          out.bytesWritten,
          part.filename,
          part.mimetype,
          part.fieldname.replace(/\[\]$/, ''),
          req.server.maxImagePixels,
        )
        add(body, part.fieldname, upload)
      }
    }
    try {
      await untilBodyStalls(req, readParts())
    } catch (err) {
      // Stop reading: the rest of the body (say, 200 MB) is not wanted, and the refusal closes the
      // connection (app.ts's onSend hook) instead of draining it.
      req.raw.unpipe()
      req.raw.pause()
      throw asClientError(err)
    }
    const schema = req.routeOptions.schema?.body
    if (schema && typeof schema === 'object') coerceFields(schema, body)
    req.body = body
  }
  // Marked, so that registerUploads can tell a route that reads files from its hooks.
  return Object.assign(hook, { [kReadsUploads]: true })
}

/**
 * Reads the parts, or fails with 400 when the whole body has arrived but the parts still are not
 * done a second later: the body stopped inside a part (no closing boundary), which the parser does
 * not always report, and the upload would otherwise wait forever.
 */
async function untilBodyStalls(req: FastifyRequest, reading: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const stalled = new Promise<never>((_, reject) => {
    let ticks = 0
    timer = setInterval(() => {
      if (!req.raw.readableEnded && !req.raw.complete) return
      if (++ticks < 4) return
      reject(new BadRequest('The multipart body is malformed.'))
    }, 250)
  })
  try {
    await Promise.race([reading, stalled])
  } finally {
    clearInterval(timer)
    // The loser of the race must not surface as an unhandled rejection.
    reading.catch(() => undefined)
  }
}

/** A repeated field (`gallery[]` twice) becomes an array, as in a query string. */
function add(body: Record<string, unknown>, name: string, value: unknown) {
  const current = body[name]
  if (current === undefined) body[name] = value
  else if (Array.isArray(current)) current.push(value)
  else body[name] = [current, value]
}

/** Parser failures are the client's: limits are 413, a malformed body 400. Disk errors stay 500. */
function asClientError(err: unknown): unknown {
  if (err instanceof AppError) return err
  const e = err as { statusCode?: number; syscall?: string }
  if (e.syscall) return err
  if (e.statusCode === 413) return new TooLarge()
  if (e.statusCode === undefined || e.statusCode < 500) return new BadRequest('The multipart body is malformed.')
  return err
}
