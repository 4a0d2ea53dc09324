import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { startWebServer, type WebServer } from './browser.ts'

// How the service serves the web app at /: index.html for page paths (never for the service's own
// paths), precompressed hashed assets cached for a year, and framing allowed on a venue's own page
// and widget only.

describe('web app serving', () => {
  let server: WebServer
  before(async () => {
    server = await startWebServer(new ManualClock('2026-12-01T03:15:00Z'))
  })
  after(async () => {
    await server?.close()
  })

  const html = { accept: 'text/html,application/xhtml+xml', 'accept-encoding': 'br, gzip' }

  test('/ is the app, revalidated, not framable; its script is brotli and immutable', async () => {
    const res = await fetch(`${server.url}/`, { headers: html })
    assert.equal(res.status, 200)
    assert.match(res.headers.get('content-type') ?? '', /text\/html/)
    assert.equal(res.headers.get('cache-control'), 'no-cache')
    assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/)
    assert.equal(res.headers.get('x-frame-options'), 'DENY')
    const page = await res.text()
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1]
    assert.ok(script, 'index.html names its script')
    const js = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': 'br' } })
    assert.equal(js.status, 200)
    assert.equal(js.headers.get('content-encoding'), 'br')
    assert.equal(js.headers.get('cache-control'), 'public, max-age=31536000, immutable')
  })

  test('page paths answer index.html; /v/ and /embed/v/ may be framed by anyone, nothing else', async () => {
    for (const path of ['/venues/1', '/book?court=1', '/payments/5/return', '/bookings', '/signin']) {
      const res = await fetch(`${server.url}${path}`, { headers: html })
      assert.equal(res.status, 200, path)
      assert.match(await res.text(), /<div id="app">/, path)
      assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, path)
      assert.equal(res.headers.get('x-frame-options'), 'DENY', path)
    }
    for (const path of ['/v/baneshwor-futsal-arena', '/embed/v/baneshwor-futsal-arena']) {
      const res = await fetch(`${server.url}${path}`, { headers: html })
      assert.equal(res.status, 200, path)
      assert.match(await res.text(), /<div id="app">/, path)
      assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors \*/, path)
      assert.equal(res.headers.get('x-frame-options'), null, path)
    }
  })

  test("the service's own paths keep their answers and refuse framing", async () => {
    for (const path of ['/api/nope', '/console/nope.js', '/storage/nope.jpg', '/assets/nope.js', '/nope.js']) {
      const res = await fetch(`${server.url}${path}`, { headers: html })
      assert.equal(res.status, 404, path)
      assert.deepEqual(await res.json(), { message: 'Not found.' }, path)
    }
    const json = await fetch(`${server.url}/venues/1`, { headers: { accept: 'application/json' } })
    assert.equal(json.status, 404, 'a page path asked for JSON is not the app')
    const api = await fetch(`${server.url}/api/venues`)
    assert.equal(api.status, 200)
    assert.equal(api.headers.get('x-frame-options'), 'DENY')
    assert.match(api.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/)
    const post = await fetch(`${server.url}/venues/1`, { method: 'POST', headers: html })
    assert.equal(post.status, 404)
    const health = await fetch(`${server.url}/health`, { headers: html })
    assert.deepEqual(await health.json(), { status: 'ok' })
  })
})
