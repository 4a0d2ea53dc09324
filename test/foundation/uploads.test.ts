import assert from 'node:assert/strict'
import { readdir } from 'node:fs/promises'
import { after, before, test } from 'node:test'
import Fastify from 'fastify'
import type { App } from '../../src/app.ts'
import { readUploads, registerUploads } from '../../src/lib/uploads.ts'
import { build } from '../helpers/app.ts'
import { createUser, createVenue } from '../helpers/factories.ts'
import { multipart, PNG } from '../venues/multipart.ts'

// multipart/form-data is read only by the routes that take files, after authentication; its
// failures are 4xx, never 500. (Memory under large uploads: upload-memory.test.ts.)

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

const UNSUPPORTED = { message: 'Unsupported media type.' }
const TOO_LARGE = { message: 'The request is too large.' }

test('multipart to a route that takes no files is 415, signed in or not', async () => {
  const user = await createUser(app)
  const form = await multipart([
    ['name', 'New name'],
    ['avatar', { file: PNG }],
  ])
  for (const [method, url, headers] of [
    ['PUT', '/api/profile', user.headers],
    ['POST', '/api/auth/login', {}],
    ['POST', '/api/bookings', user.headers],
  ] as const) {
    const res = await app.inject({ method, url, headers: { ...headers, ...form.headers }, payload: form.payload })
    assert.equal(res.statusCode, 415, `${method} ${url}: ${res.body}`)
    assert.deepEqual(res.json(), UNSUPPORTED)
  }
  const row = await app.ctx.db.selectFrom('users').select('name').where('id', '=', user.id).executeTakeFirstOrThrow()
  assert.notEqual(row.name, 'New name')
})

test('a file route refuses a guest with 401 before reading the body', async () => {
  const form = await multipart([['avatar', { file: PNG }]])
  const res = await app.inject({
    method: 'POST',
    url: '/api/profile/avatar',
    headers: form.headers,
    payload: form.payload,
  })
  assert.equal(res.statusCode, 401)
  assert.deepEqual(res.json(), { message: 'Unauthenticated.' })
})

test('a multipart body without a boundary, or a malformed one, is 400', async () => {
  const user = await createUser(app)
  const noBoundary = await app.inject({
    method: 'POST',
    url: '/api/profile/avatar',
    headers: { ...user.headers, 'content-type': 'multipart/form-data' },
    payload: 'avatar=whatever',
  })
  assert.equal(noBoundary.statusCode, 400, noBoundary.body)
  assert.deepEqual(noBoundary.json(), { message: 'The multipart body has no boundary.' })

  const broken = await app.inject({
    method: 'POST',
    url: '/api/profile/avatar',
    headers: { ...user.headers, 'content-type': 'multipart/form-data; boundary=xyz' },
    payload: '--xyz\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\nPNGDATA',
  })
  // The body stops inside the file part (no closing boundary).
  assert.equal(broken.statusCode, 400, broken.body)
  assert.deepEqual(broken.json(), { message: 'The multipart body is malformed.' })
})

test('a file far over the route limit is 413; a text field too long to keep whole is 413, not cut', async () => {
  const user = await createUser(app)
  // Avatars: 2 MB is the field rule (422, naming the field); over 3 MB the upload is cut off.
  const huge = await multipart([['avatar', { file: Buffer.concat([PNG, Buffer.alloc(4 * 1024 * 1024)]) }]])
  const res = await app.inject({
    method: 'POST',
    url: '/api/profile/avatar',
    headers: { ...user.headers, ...huge.headers },
    payload: huge.payload,
  })
  assert.equal(res.statusCode, 413, res.body)
  assert.deepEqual(res.json(), TOO_LARGE)

  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const long = await multipart([['description', 'x'.repeat(100 * 1024)]])
  const update = await app.inject({
    method: 'PATCH',
    url: `/api/venues/${venue.id}`,
    headers: { ...owner.headers, ...long.headers },
    payload: long.payload,
  })
  assert.equal(update.statusCode, 413, update.body)
  const row = await app.ctx.db
    .selectFrom('venues')
    .select('description')
    .where('id', '=', venue.id)
    .executeTakeFirstOrThrow()
  assert.notEqual(row.description?.length, 64 * 1024)
})

test('text fields of a form are coerced to the schema; temporary files are gone after the response', async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const form = await multipart([
    ['latitude', '27.5'],
    ['is_active', 'false'],
    ['gallery[]', { file: PNG }],
    ['gallery[]', { file: PNG, name: 'two.png' }],
  ])
  const res = await app.inject({
    method: 'PATCH',
    url: `/api/venues/${venue.id}`,
    headers: { ...owner.headers, ...form.headers },
    payload: form.payload,
  })
  assert.equal(res.statusCode, 200, res.body)
  const data = res.json().data
  assert.equal(Number(data.latitude), 27.5)
  assert.equal(data.is_active, false)
  assert.equal(data.images.length, 2)
  const incoming = await readdir(app.ctx.config.dataDir + '/incoming').catch(() => [])
  assert.deepEqual(incoming, [])
})

test('the multipart parser and its hooks live only in the scopes of routes that take files', async () => {
  // Every other route runs without @fastify/multipart's async onResponse hook: these have only the
  // request line's (src/lib/ops.ts).
  // printRoutes draws a tree: a route is its parent's line, then its own segment below it. With the
  // web app built (dist/web) there is a route at `/`, and the others are drawn without their leading slash.
  const tree = app.printRoutes({ includeHooks: true, commonPrefix: false })
  for (const [parent, leaf] of [
    ['health (GET', 'health (GET'],
    ['api/courts/:court (', '── /availability (GET)'],
    ['api/venues (', '── /:venue (GET)'],
  ]) {
    const at = tree.indexOf(leaf, tree.indexOf(parent))
    assert.ok(tree.includes(parent) && at > 0, `${parent} ${leaf}`)
    const onResponse = tree.slice(at).match(/\(onResponse\) (\[[^\]]*\])/)
    assert.ok(onResponse, leaf)
    assert.equal(JSON.parse(onResponse[1]).length, 1, `${parent} ${leaf}: ${onResponse[1]}`)
  }
  // And a file route does carry the parser's hook and the clean-up.
  const upload = tree.slice(tree.indexOf('── /avatar (POST)', tree.indexOf('── /api/profile (')))
  assert.equal(JSON.parse(upload.match(/\(onResponse\) (\[[^\]]*\])/)?.[1] ?? '[]').length, 3)
  assert.equal(app.hasContentTypeParser('multipart/form-data'), false)
})

test('a file route declared in a scope without acceptUploads() stops the start, naming the route', async () => {
  for (const options of [
    { schema: { consumes: ['multipart/form-data'] } },
    { preValidation: readUploads({ fileBytes: 1024, files: 1 }) },
  ]) {
    const broken = Fastify()
    registerUploads(broken, '/tmp/unused')
    broken.register(async (scope) => {
      scope.post('/files', options, async () => ({}))
    })
    await assert.rejects(async () => {
      await broken.ready()
    }, /POST \/files takes multipart\/form-data: its plugin must await acceptUploads/)
  }
})

test('multipart to no route at all is 404, as any other body is', async () => {
  const form = await multipart([['name', 'x']])
  for (const [method, url] of [
    ['POST', '/api/no-such-thing'],
    ['POST', '/api/courts/1/availability'],
  ] as const) {
    const res = await app.inject({ method, url, headers: form.headers, payload: form.payload })
    assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`)
    assert.deepEqual(res.json(), { message: 'Not found.' })
  }
})
