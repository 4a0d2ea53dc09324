import { createSessionStore } from '../../shared-ui/session.ts'
import type { components } from '../../src/client/index.ts'

// The customer's session (a bearer token and the user), kept in localStorage under the web app's
// own key: signing in here does not sign anyone in to the staff console, or out of it.

type User = components['schemas']['User']

export interface Session {
  token: string
  user: User
}

export const sessions = createSessionStore<Session>('courtside.web.session')

export const currentSession = sessions.current
export const setSession = sessions.set
export const onSessionChange = sessions.onChange
/** The signed-in session, re-rendering on sign-in and sign-out. */
export const useSession = sessions.use
