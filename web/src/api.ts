import { type CourtsideClient, type components, createCourtsideClient, type paths } from '../../src/client/index.ts'
import { getLang, HTML_LANG, t } from './i18n/index.ts'
import { currentSession, setSession } from './session.ts'

// The web app's only door to the service: the typed client generated from the service's own
// OpenAPI document (src/client), the same every other client gets.

export type Schemas = components['schemas']
export type User = Schemas['User']

/** An answer that is not 2xx: the contract's body (`message`, and `errors` per field on 422). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string[]> = {},
  ) {
    super(message)
  }
  /** The first message for `field`, if the service named it. */
  field(name: string): string | undefined {
    return this.fields[name]?.[0]
  }
}

/**
 * The public catalogue: what every player reads the same way, signed in or not. These reads go
 * without the token. A token changes them for the wrong people: a venue owner, manager or staff
 * member gets 403 on a venue they do not work at (`GET /api/venues/{venue}`, the contract's venue
 * show) and only their own venues in `GET /api/venues`, so they could not play anywhere else.
 * (The reviews list would add can_review and my_review with a token; no page reads them.)
 */
export const PUBLIC_READS: ReadonlySet<keyof paths> = new Set<keyof paths>([
  '/api/venues',
  '/api/venues/nearby',
  '/api/venues/{venue}',
  '/api/venues/{venue}/courts',
  '/api/venues/{venue}/indoor-games',
  '/api/venues/{venue}/reviews',
  '/api/courts/{court}',
  '/api/courts/{court}/availability',
  '/api/courts/{court}/pricing',
  '/api/courts/{court}/schedule',
  '/api/indoor-games/{indoorGame}',
  '/api/indoor-games/{indoorGame}/availability',
  '/api/sports',
  '/api/amenities',
])

/**
 * Drops the bearer token from GETs of the public catalogue (PUBLIC_READS). Such an answer is
 * `public, max-age=0, stale-while-revalidate=30` (the service's front cache), which the browser may
 * answer from its cache while it asks again: a signed-in player's read is sent `no-cache` instead
 * (revalidated, a 304 when unchanged), so it stays as fresh as it was with the token (a slot just
 * taken, a venue that just stopped taking payment at the venue).
 */
const catalogueAsGuest = {
  onRequest({ request, schemaPath }: { request: Request; schemaPath: string }) {
    if (request.method !== 'GET' || !PUBLIC_READS.has(schemaPath as keyof paths)) return undefined
    if (!request.headers.has('authorization')) return undefined
    const headers = new Headers(request.headers)
    headers.delete('authorization')
    return new Request(request, { headers, cache: 'no-cache' })
  },
}

/** Every request says the language the app shows (the service's answer to a guest follows it). */
const inAppLanguage = {
  onRequest({ request }: { request: Request }) {
    request.headers.set('accept-language', HTML_LANG[getLang()])
    return request
  },
}

/**
 * The typed client, signed in when there is a session; the public catalogue (PUBLIC_READS) is read
 * without the token whoever is signed in.
 */
export function api(): CourtsideClient {
  const client = createCourtsideClient(location.origin, currentSession()?.token)
  client.use(inAppLanguage, catalogueAsGuest)
  return client
}

interface Answer<T> {
  data?: T
  error?: unknown
  response: Response
}

/** The body of a 2xx answer; an ApiError otherwise (a 401 also ends the session). */
export async function ok<T>(pending: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>
  try {
    answer = await pending
  } catch {
    throw new ApiError(0, t('app.unreachable'))
  }
  if (answer.response.ok) return answer.data as T
  const body = (answer.error ?? {}) as { message?: string; errors?: Record<string, string[]> }
  const status = answer.response.status
  if (status === 401 && currentSession()) setSession(null)
  throw new ApiError(status, body.message ?? t('app.error'), body.errors ?? {})
}

/** The message to show for any failure. */
export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message
  return t('app.error')
}
