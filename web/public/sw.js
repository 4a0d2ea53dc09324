// The customer app's service worker (docs/web.md, "Offline"). It keeps:
//  - the app shell: index.html and the hashed /assets it names, fetched at install; page loads try
//    the network first and fall back to the saved shell (the router then shows the page);
//  - the last seen bookings: the two reads of My bookings (GET /api/bookings and
//    /api/indoor-game-bookings), saved on every successful answer, per signed-in user (the key
//    includes a hash of the bearer token), and answered from the copy only when the network fails,
//    with a `Courtside-Saved-At` header so the page says it is a saved copy.
// Nothing else of the API is ever answered from a cache. Signing out deletes the saved data.
const SHELL = 'courtside-shell-v1'
const DATA = 'courtside-data-v1'
const SAVED_READS = new Set(['/api/bookings', '/api/indoor-game-bookings'])
const FRAMABLE = /^\/(?:embed\/)?v\//
const SERVICE = /^\/(?:api|console|docs|storage|health|ready|metrics)(?:\/|$)/

self.addEventListener('install', (event) => {
  event.waitUntil(saveShell().then(() => self.skipWaiting()))
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== SHELL && k !== DATA).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  )
})

/** index.html and every /assets file it names, so the app starts with no network. */
async function saveShell() {
  const cache = await caches.open(SHELL)
  const index = await fetch('/', { cache: 'no-cache' })
  if (!index.ok) return
  const html = await index.clone().text()
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1])
  await cache.put('/', index)
  await cache.addAll(['/manifest.webmanifest', '/icons/icon-192.png', ...assets])
}

self.addEventListener('fetch', (event) => {
  const request = event.request
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  if (url.origin !== self.location.origin) return
  if (request.mode === 'navigate') {
    if (SERVICE.test(url.pathname)) return
    event.respondWith(page(request, url))
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(asset(request))
  } else if (SAVED_READS.has(url.pathname)) {
    event.respondWith(savedRead(request))
  }
})

async function page(request, url) {
  try {
    const response = await fetch(request)
    // A fresh shell for the next offline start (a venue's framable page carries its own policy).
    if (
      response.ok &&
      !FRAMABLE.test(url.pathname) &&
      (response.headers.get('content-type') ?? '').includes('text/html')
    ) {
      const cache = await caches.open(SHELL)
      await cache.put('/', response.clone())
    }
    return response
  } catch (err) {
    const shell = await caches.match('/', { cacheName: SHELL })
    if (shell) return shell
    throw err
  }
}

async function asset(request) {
  const saved = await caches.match(request, { cacheName: SHELL })
  if (saved) return saved
  const response = await fetch(request)
  if (response.ok) {
    const cache = await caches.open(SHELL)
    await cache.put(request, response.clone())
  }
  return response
}

/** The key of a saved read: the URL and whose it is (a hash of the token, never the token). */
async function dataKey(request) {
  const auth = request.headers.get('authorization') ?? ''
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(auth))
  const who = [...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('')
  const url = new URL(request.url)
  url.searchParams.set('__who', who)
  return url.href
}

async function savedRead(request) {
  const key = await dataKey(request)
  try {
    const response = await fetch(request)
    if (response.ok) {
      const headers = new Headers(response.headers)
      headers.set('courtside-saved-at', new Date().toISOString())
      const copy = new Response(await response.clone().arrayBuffer(), { status: response.status, headers })
      const cache = await caches.open(DATA)
      await cache.put(key, copy)
    }
    return response
  } catch (err) {
    const saved = await caches.match(key, { cacheName: DATA })
    if (saved) return saved
    throw err
  }
}
