import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, createUser, createVenue } from '../helpers/factories.ts'

// An indoor game carries its venue's allows_pay_at_venue, so a client offering "Pay at the venue"
// for a game needs no second request for the venue.

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

test("an indoor game, shown or listed, says whether its venue takes payment at the venue, and follows the venue's setting", async () => {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id)
  const game = await createIndoorGame(app, venue.id, { name: 'Carrom board' })
  const read = async () => {
    const shown = await app.inject({ url: `/api/indoor-games/${game.id}` })
    assert.equal(shown.statusCode, 200, shown.body)
    const listed = await app.inject({ url: `/api/venues/${venue.id}/indoor-games` })
    assert.equal(listed.statusCode, 200, listed.body)
    return [shown.json().data.allows_pay_at_venue, listed.json().data[0].allows_pay_at_venue]
  }
  assert.deepEqual(await read(), [true, true], 'a venue takes payment at the venue unless it says otherwise')

  const off = await app.inject({
    method: 'PATCH',
    url: `/api/venues/${venue.id}`,
    headers: owner.headers,
    payload: { allows_pay_at_venue: false },
  })
  assert.equal(off.statusCode, 200, off.body)
  assert.deepEqual(await read(), [false, false])
})
