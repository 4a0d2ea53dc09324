import { type AnchorHTMLAttributes, h, type TargetedMouseEvent } from 'preact'
import { useEffect, useState } from 'preact/hooks'

// Path routes through the history API (/venues/3?date=2026-11-26): the service answers every
// page path with index.html (src/lib/web.ts), so links can be shared and reloaded.

export interface Route {
  /** The path's segments, decoded: /v/baneshwor-futsal → ['v', 'baneshwor-futsal']. */
  path: string[]
  query: URLSearchParams
}

function parse(): Route {
  const path = location.pathname
    .split('/')
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s)
      } catch {
        return s
      }
    })
  return { path, query: new URLSearchParams(location.search) }
}

const listeners = new Set<() => void>()
addEventListener('popstate', () => {
  for (const fn of listeners) fn()
})

/** The current route; the component re-renders on navigation. */
export function useRoute(): Route {
  const [route, setRoute] = useState(parse)
  useEffect(() => {
    const on = () => setRoute(parse())
    listeners.add(on)
    // A child's effect runs before this one: a navigate() there (a redirecting page) came before
    // this listener, so read the address once more.
    on()
    return () => {
      listeners.delete(on)
    }
  }, [])
  return route
}

/** Goes to `path` (with its query) in the app; `replace` does not add a history entry. */
export function navigate(path: string, replace = false) {
  if (replace) history.replaceState(null, '', path)
  else history.pushState(null, '', path)
  scrollTo(0, 0)
  for (const fn of listeners) fn()
}

/** A link inside the app: a real <a href> (opens in a new tab, shares), navigated without a reload. */
export function Link(props: AnchorHTMLAttributes & { href: string }) {
  const onClick = (e: TargetedMouseEvent<HTMLAnchorElement>) => {
    props.onClick?.(e)
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    if (props.target && props.target !== '_self') return
    e.preventDefault()
    navigate(props.href)
  }
  return h('a', { ...props, onClick })
}
