import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { multipart, PNG, venueWithCustomer } from './fixtures.ts'

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

test('the legacy POST /reviews takes multipart photos: stored, listed with absolute URLs', async () => {
  const { venue, customer } = await venueWithCustomer(app)
  const body = await multipart({ venue_id: String(venue.id), rating: '4', comment: 'Nice' }, [
    { name: 'images[]', data: PNG, filename: 'a.png' },
    { name: 'images[]', data: PNG, filename: 'b.txt' },
  ])
  const res = await app.inject({
    method: 'POST',
    url: '/api/reviews',
    headers: { ...customer.headers, ...body.headers },
    payload: body.payload,
  })
  assert.equal(res.statusCode, 201, res.body)
  const data = res.json().data
  assert.equal(data.rating, 4)
  assert.equal(data.comment, 'Nice')
  assert.equal(data.images.length, 2)
  for (const img of data.images) {
    assert.equal(typeof img.id, 'number')
    assert.match(img.url, /^http:\/\/localhost:8000\/storage\/reviews\/.+\.png$/)
  }
  const file = await app.inject({ method: 'GET', url: new URL(data.images[0].url).pathname })
  assert.equal(file.statusCode, 200)
  assert.equal(file.headers['content-type'], 'image/png')
  const media = await app.ctx.db
    .selectFrom('media')
    .selectAll()
    .where('model_type', '=', 'review')
    .where('model_id', '=', data.id)
    .execute()
  assert.equal(media.length, 2)
})

test('more than 5 photos, or a file that is not a jpg/png/webp by content, is 422', async () => {
  const { venue, customer } = await venueWithCustomer(app)
  const six = await multipart(
    { rating: '5' },
    Array.from({ length: 6 }, (_, i) => ({ name: 'images[]', data: PNG, filename: `${i}.png` })),
  )
  const tooMany = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/reviews`,
    headers: { ...customer.headers, ...six.headers },
    payload: six.payload,
  })
  assert.equal(tooMany.statusCode, 422)
  assert.deepEqual(tooMany.json().errors, { images: ['The images field must not have more than 5 items.'] })

  const fake = await multipart({ rating: '5' }, [
    { name: 'images[]', data: Buffer.from('not an image at all'), filename: 'x.png' },
  ])
  const notImage = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue.id}/reviews`,
    headers: { ...customer.headers, ...fake.headers },
    payload: fake.payload,
  })
  assert.equal(notImage.statusCode, 422)
  assert.deepEqual(notImage.json().errors, {
    'images.0': ['The images.0 field must be a file of type: jpg, png, webp.'],
  })

  const nothing = await app.ctx.db.selectFrom('reviews').select('id').where('venue_id', '=', venue.id).execute()
  assert.equal(nothing.length, 0)
})
