// The service worker (public/sw.js) that makes the app installable and My bookings readable
// offline (docs/web.md). Registered once the page has loaded, so it never delays the first paint.

/** Registers /sw.js where service workers exist (not in an embedded widget, which needs none). */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || location.pathname.startsWith('/embed/')) return
  addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // Without it the app still works online; nothing to tell the player.
    })
  })
}

/** Deletes the offline copies of the signed-in customer's data (on sign-out). */
export async function forgetSavedData() {
  if (typeof caches === 'undefined') return
  const keys = await caches.keys()
  await Promise.all(keys.filter((k) => k.startsWith('courtside-data')).map((k) => caches.delete(k)))
}
