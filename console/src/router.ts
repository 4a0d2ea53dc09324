import { useEffect, useState } from 'preact/hooks'

// Hash routes (#/venues/3/board?date=2026-11-25): the service serves one index.html at /console/
// and nothing has to know the console's paths.

export interface Route {
  path: string[]
  query: URLSearchParams
}

function parse(): Route {
  const raw = location.hash.replace(/^#/, '') || '/'
  const [path, search = ''] = raw.split('?')
  return { path: path.split('/').filter(Boolean), query: new URLSearchParams(search) }
}

export function useRoute(): Route {
  const [route, setRoute] = useState(parse)
  useEffect(() => {
    const on = () => setRoute(parse())
    addEventListener('hashchange', on)
    return () => removeEventListener('hashchange', on)
  }, [])
  return route
}

export function go(path: string) {
  location.hash = path
}

export function href(path: string) {
  return `#${path}`
}
