import { useEffect, useState } from 'preact/hooks'

// The front-ends' session storage (a bearer token and the user), one store per app: the staff
// console and the web app each keep theirs under their own localStorage key, so signing in to one
// signs nobody in to the other, or out of it.

export interface SessionStore<S> {
  /** The session now, or null when signed out. */
  current(): S | null
  /** Signs in (`next`) or out (null), stores it and tells the listeners. */
  set(next: S | null): void
  /** Calls `fn` after every change; returns the function that stops it. */
  onChange(fn: () => void): () => void
  /** The session, re-rendering on sign-in and sign-out. */
  use(): S | null
}

/** A session kept in localStorage under `key`: read once at start, written on every change. */
export function createSessionStore<S>(key: string): SessionStore<S> {
  let session = read()
  const listeners = new Set<() => void>()

  function read(): S | null {
    try {
      const raw = localStorage.getItem(key)
      return raw ? (JSON.parse(raw) as S) : null
    } catch {
      return null
    }
  }

  const current = () => session
  const onChange = (fn: () => void) => {
    listeners.add(fn)
    return () => {
      listeners.delete(fn)
    }
  }
  return {
    current,
    set(next) {
      session = next
      try {
        if (next) localStorage.setItem(key, JSON.stringify(next))
        else localStorage.removeItem(key)
      } catch {
        // Without storage the session lasts for this page.
      }
      for (const fn of listeners) fn()
    },
    onChange,
    use() {
      const [value, set] = useState(current)
      useEffect(() => onChange(() => set(current())), [])
      return value
    },
  }
}
