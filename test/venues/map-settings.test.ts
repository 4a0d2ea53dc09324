import assert from 'node:assert/strict'
import { test } from 'node:test'
import { loadConfig } from '../../src/config.ts'
import { consoleCsp } from '../../src/lib/console.ts'
import { build } from '../helpers/app.ts'

// Issue 51: the console's location picker takes its tiles from the server's configuration
// (MAP_TILE_URL, MAP_ATTRIBUTION) through GET /api/map; the console's CSP allows that origin only.

test('GET /api/map: the configured tile template and credit, public', async () => {
  const app = await build(undefined, {
    MAP_TILE_URL: 'https://{s}.tiles.example.com/{z}/{x}/{y}.png',
    MAP_ATTRIBUTION: '© Example maps',
  })
  try {
    const res = await app.inject({ method: 'GET', url: '/api/map' })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(res.json(), {
      data: { tile_url: 'https://{s}.tiles.example.com/{z}/{x}/{y}.png', attribution: '© Example maps' },
    })
  } finally {
    await app.close()
  }
})

test('GET /api/map without MAP_TILE_URL: no tiles, the default credit', async () => {
  const app = await build()
  try {
    const res = await app.inject({ method: 'GET', url: '/api/map' })
    assert.deepEqual(res.json(), { data: { tile_url: null, attribution: '© OpenStreetMap contributors' } })
  } finally {
    await app.close()
  }
})

test('MAP_TILE_URL must be an http(s) template with {z}, {x} and {y}; the CSP allows its origin', () => {
  for (const bad of ['ftp://x.example/{z}/{x}/{y}', 'https://x.example/tiles.png', 'not a url {z}{x}{y}']) {
    assert.throws(() => loadConfig({ MAP_TILE_URL: bad }), /MAP_TILE_URL must be an http\(s\) URL template/, bad)
  }
  assert.equal(
    loadConfig({ MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png' }).mapTileUrl,
    'http://127.0.0.1:9/{z}/{x}/{y}.png',
  )
  assert.match(
    consoleCsp('https://{s}.tile.example.org/{z}/{x}/{y}.png'),
    /img-src 'self' data: blob: https:\/\/\*\.tile\.example\.org;/,
  )
  assert.match(consoleCsp(), /img-src 'self' data: blob:;/)
})
