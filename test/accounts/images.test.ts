import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'
import { multipart } from '../venues/multipart.ts'

// Uploaded images (issue 32) used to be stored unchanged: a 1.2 MB PNG declaring 20,000 × 20,000
// pixels was accepted, EXIF (GPS position, camera serial) was served to anyone, and /storage
// answers had no nosniff. Now dimensions are read from the header and more than MAX_IMAGE_PIXELS
// is 422, and the stored file is re-encoded without metadata.

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}

/** A small PNG file whose header declares `width` × `height` (its pixel data is a few rows only). */
function declaredPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(4 * (width * 3 + 1)))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const avatar = async (a: App, headers: Record<string, string>, file: Buffer, name: string, type: string) => {
  const form = await multipart([['avatar', { file, name, type }]])
  return a.inject({
    method: 'POST',
    url: '/api/profile/avatar',
    headers: { ...headers, ...form.headers },
    payload: form.payload,
  })
}

test('a PNG declaring 20,000 × 20,000 pixels is 422 on its field, and nothing is stored', async () => {
  const user = await createUser(app)
  const png = declaredPng(20_000, 20_000)
  assert.ok(png.length < 2 * 1024 * 1024)
  const res = await avatar(app, user.headers, png, 'huge.png', 'image/png')
  assert.equal(res.statusCode, 422, res.body)
  assert.deepEqual(res.json().errors, {
    avatar: ['The avatar field must be an image of at most 40,000,000 pixels (it is 20000 × 20000).'],
  })
  const row = await app.ctx.db
    .selectFrom('users')
    .select('avatar_path')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.avatar_path, null)
})

test('MAX_IMAGE_PIXELS sets the limit; venue and review images follow it too', async () => {
  const small = await build(undefined, { MAX_IMAGE_PIXELS: '100' })
  try {
    const user = await createUser(small)
    const make = (w: number, h: number) =>
      sharp({ create: { width: w, height: h, channels: 3, background: '#36c' } })
        .png()
        .toBuffer()
    const over = await avatar(small, user.headers, await make(11, 10), 'a.png', 'image/png')
    assert.equal(over.statusCode, 422)
    assert.match(over.json().errors.avatar[0], /at most 100 pixels \(it is 11 × 10\)/)
    assert.equal((await avatar(small, user.headers, await make(10, 10), 'b.png', 'image/png')).statusCode, 200)
  } finally {
    await small.close()
  }
})

test('metadata is stripped (EXIF GPS, comments), the orientation applied, and /storage sends nosniff', async () => {
  const user = await createUser(app)
  // 40 × 20 stored sideways (EXIF orientation 6: rotate 90° clockwise to view), with a GPS position.
  const jpeg = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#c33' } })
    .jpeg()
    .withExif({
      IFD0: { Copyright: 'secret-camera-serial' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '27/1 42/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer()
  assert.equal((await sharp(jpeg).metadata()).orientation, 6)
  assert.ok(jpeg.includes('secret-camera-serial'), 'the upload carries EXIF')
  const res = await avatar(app, user.headers, jpeg, 'me.jpg', 'image/jpeg')
  assert.equal(res.statusCode, 200, res.body)
  const file = await app.inject({ method: 'GET', url: new URL(res.json().data.avatar).pathname })
  assert.equal(file.statusCode, 200)
  assert.equal(file.headers['content-type'], 'image/jpeg')
  assert.equal(file.headers['x-content-type-options'], 'nosniff')
  const stored = file.rawPayload
  assert.ok(!stored.includes('secret-camera-serial'), 'no EXIF text in the stored file')
  const meta = await sharp(stored).metadata()
  assert.equal(meta.exif, undefined)
  assert.equal(meta.xmp, undefined)
  assert.equal(meta.orientation, undefined)
  assert.deepEqual([meta.width, meta.height], [20, 40], 'turned upright')

  // PNG text chunks go too.
  const png = await sharp({ create: { width: 4, height: 4, channels: 4, background: '#fff' } })
    .png()
    .withMetadata({ density: 300 })
    .withExif({ IFD0: { Copyright: 'png-secret' } })
    .toBuffer()
  const pres = await avatar(app, user.headers, png, 'me.png', 'image/png')
  assert.equal(pres.statusCode, 200, pres.body)
  const pfile = await app.inject({ method: 'GET', url: new URL(pres.json().data.avatar).pathname })
  assert.ok(!pfile.rawPayload.includes('png-secret'))
  assert.equal((await sharp(pfile.rawPayload).metadata()).exif, undefined)

  // A 404 under /storage is JSON as ever.
  assert.equal((await app.inject({ method: 'GET', url: '/storage/avatars/none.png' })).statusCode, 404)
})
