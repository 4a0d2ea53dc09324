import { type CourtsideClient, type components, createCourtsideClient } from '../../src/client/index.ts'
import { t } from './i18n/index.ts'
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

/** The typed client, signed in when there is a session. */
export function api(): CourtsideClient {
  return createCourtsideClient(location.origin, currentSession()?.token)
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
