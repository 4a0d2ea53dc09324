import { createSessionStore } from '../../shared-ui/session.ts'
import { type CourtsideClient, type components, createCourtsideClient } from '../../src/client/index.ts'
import { getLang, t } from './i18n/index.ts'

// The console's only door to the service: the typed client generated from the service's own
// OpenAPI document (src/client). A route whose schema changes breaks this build, not the desk.

export type Schemas = components['schemas']
export type User = Schemas['User']

/** An answer that is not 2xx: the contract's body (`message`, and `errors` per field on 422). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string[]> = {},
    /** On a 429: the seconds the service asks to wait (Retry-After, else X-RateLimit-Reset). */
    readonly retryAfter: number | null = null,
  ) {
    super(message)
  }
  /** The first message for `field`, if the service named it. */
  field(name: string): string | undefined {
    return this.fields[name]?.[0]
  }
}

interface Session {
  token: string
  user: User
}

// Kept in localStorage under the console's own key (shared-ui/session.ts).
export const sessions = createSessionStore<Session>('courtside.desk.session')

export const currentSession = sessions.current
export const setSession = sessions.set
export const onSessionChange = sessions.onChange
/** The signed-in session, re-rendering on sign-in and sign-out. */
export const useSession = sessions.use

export function hasRole(user: User | undefined, ...roles: string[]): boolean {
  return !!user && user.roles.some((r) => roles.includes(r))
}

/**
 * The typed client, signed in with `token` or else the session's. It asks for answers in the
 * console's language (Accept-Language): a guest's errors (sign-in, a code, an invitation) come in
 * Nepali when the console shows Nepali; a signed-in user's follow the language of their profile.
 */
export function api(token = currentSession()?.token): CourtsideClient {
  return createCourtsideClient(location.origin, token, {
    headers: { 'accept-language': getLang() === 'ne' ? 'ne-NP, ne;q=0.9, en;q=0.5' : 'en' },
  })
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
    throw new ApiError(0, t('api.unreachable'))
  }
  if (answer.response.ok) return answer.data as T
  const body = (answer.error ?? {}) as { message?: string; errors?: Record<string, string[]> }
  const status = answer.response.status
  if (status === 401 && currentSession()) setSession(null)
  const message = body.message ?? t('api.answered', { status: String(status) })
  // A 429 says how long to wait (Retry-After, or the rate-limit headers): the message shows it.
  const wait = status === 429 ? retryAfter(answer.response.headers) : null
  if (wait !== null) throw new ApiError(status, `${message} ${waitText(wait)}`, body.errors ?? {}, wait)
  throw new ApiError(status, message, body.errors ?? {})
}

/** The seconds a 429 asks to wait: Retry-After (the service sends seconds), else X-RateLimit-Reset. */
function retryAfter(headers: Headers): number | null {
  for (const name of ['retry-after', 'x-ratelimit-reset']) {
    const n = Number(headers.get(name))
    if (headers.has(name) && Number.isFinite(n) && n >= 0) return Math.ceil(n)
  }
  return null
}

/** "Try again in 40 s." (or in a minute and more: "Try again in 2 min 5 s."). */
export function waitText(seconds: number): string {
  if (seconds < 60) return t('api.waitSeconds', { s: seconds })
  const m = Math.floor(seconds / 60)
  const s = seconds % 60
  return s ? t('api.waitMinutesSeconds', { m, s }) : t('api.waitMinutes', { m })
}

/** The message to show for any failure. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message
  if (err instanceof Error) return err.message
  return t('api.wrong')
}
