import { useEffect, useState } from 'preact/hooks'
import type { components } from '../../src/client/index.ts'

// The customer's session (a bearer token and the user), kept in localStorage under the web app's
// own key: signing in here does not sign anyone in to the staff console, or out of it.

type User = components['schemas']['User']

export interface Session {
  token: string
  user: User
}

const KEY = 'courtside.web.session'
let session: Session | null = read()
const listeners = new Set<() => void>()

function read(): Session | null {
  try {
    const raw = localStorage.getItem(KEY)
    return raw ? (JSON.parse(raw) as Session) : null
  } catch {
    return null
  }
}

export function currentSession(): Session | null {
  return session
}

export function setSession(next: Session | null) {
  session = next
  try {
    if (next) localStorage.setItem(KEY, JSON.stringify(next))
    else localStorage.removeItem(KEY)
  } catch {
    // Without storage the session lasts for this page.
  }
  for (const fn of listeners) fn()
}

export function onSessionChange(fn: () => void): () => void {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

/** The signed-in session, re-rendering on sign-in and sign-out. */
export function useSession(): Session | null {
  const [value, set] = useState(currentSession)
  useEffect(() => onSessionChange(() => set(currentSession())), [])
  return value
}
