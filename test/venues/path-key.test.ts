import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { resolveVenue } from '../../src/modules/venues/index.ts'
import { build } from '../helpers/app.ts'
import { createUser, createVenue } from '../helpers/factories.ts'

// One rule for a {venue} path key (venues/repository.ts, resolveVenue): digits are an id, anything
// else is a slug. Created slugs are never all digits; these rows stand for older data that is.

let app: App
let first: Awaited<ReturnType<typeof createVenue>>
let digits: Awaited<ReturnType<typeof createVenue>>

before(async () => {
  app = await build()
  const owner = await createUser(app, { roles: ['venue_owner'] })
  first = await createVenue(app, owner.id, { name: 'First', slug: 'first-venue' })
  // Its slug is the id of `first`: the key names `first`, never this venue.
  digits = await createVenue(app, owner.id, { name: 'Digits', slug: String(first.id) })
})
after(() => app.close())

test('a numeric key that is another venue’s slug resolves to the venue with that id', async () => {
  assert.equal((await resolveVenue(app.ctx.db, String(first.id)))?.id, first.id)
  const res = await app.inject({ method: 'GET', url: `/api/venues/${first.id}` })
  assert.equal(res.statusCode, 200)
  assert.equal(res.json().data.id, first.id)
})

test('a venue whose slug is all digits is reached by its id, not by its slug', async () => {
  assert.equal((await resolveVenue(app.ctx.db, String(digits.id)))?.id, digits.id)
  const bySlug = await resolveVenue(app.ctx.db, digits.slug)
  assert.equal(bySlug?.id, first.id)
  const res = await app.inject({ method: 'GET', url: `/api/venues/${digits.id}/courts` })
  assert.equal(res.statusCode, 200)
})

test('a slug key and unusable keys', async () => {
  assert.equal((await resolveVenue(app.ctx.db, 'first-venue'))?.id, first.id)
  assert.equal(await resolveVenue(app.ctx.db, 'no-such-venue'), undefined)
  assert.equal(await resolveVenue(app.ctx.db, '0x10'), undefined)
  assert.equal(await resolveVenue(app.ctx.db, '999999999'), undefined)
})
