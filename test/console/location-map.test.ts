import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { axeViolations, PHONE, withConsole } from './browser.ts'

// Issue 51: the venue's location is picked on a map (Leaflet) in the owner's Details tab, with
// MAP_TILE_URL pointing at a port where nothing listens: no tile loads (and no test needs the
// internet), yet a click places the marker, a drag moves it, and typed coordinates move it back.

describe('the location map of the venue details (issue 51)', () => {
  const ui = withConsole({ env: { MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png' } })

  async function details(p: Page) {
    await p.goto(`${ui.server.url}/console/#/venues/${ui.venueId}/manage/details`)
    const map = p.getByTestId('location-map')
    await map.locator('.map-pin').waitFor()
    // Pointer events land only inside the viewport: bring the map in (below the fold on a phone).
    await map.scrollIntoViewIfNeeded()
    return map
  }
  const coords = async (p: Page) => [
    await p.getByLabel('Latitude').inputValue(),
    await p.getByLabel('Longitude').inputValue(),
  ]

  test('on a desktop: a click and a drag set the coordinates; typing moves the marker; saved', async () => {
    const p = await ui.pageAs('owner1@courtside.test')
    const map = await details(p)
    // The tile server's origin is allowed by the console's CSP.
    const res = await fetch(`${ui.server.url}/console/`)
    assert.match(
      res.headers.get('content-security-policy') ?? '',
      /img-src 'self' data: blob: http:\/\/127\.0\.0\.1:9;/,
    )
    const before = await coords(p)
    const box = (await map.boundingBox())!
    await p.mouse.click(box.x + box.width / 4, box.y + box.height / 4)
    const clicked = await coords(p)
    assert.notDeepEqual(clicked, before)
    assert.ok(
      Number(clicked[0]) > Number(before[0]) && Number(clicked[1]) < Number(before[1]),
      'north-west of the old place',
    )
    // Drag the marker to the lower right.
    const pin = (await map.locator('.map-pin').boundingBox())!
    await p.mouse.move(pin.x + pin.width / 2, pin.y + pin.height / 2)
    await p.mouse.down()
    await p.mouse.move(box.x + (box.width * 3) / 4, box.y + (box.height * 3) / 4, { steps: 8 })
    await p.mouse.up()
    const dragged = await coords(p)
    assert.ok(
      Number(dragged[0]) < Number(clicked[0]) && Number(dragged[1]) > Number(clicked[1]),
      'south-east after the drag',
    )
    // Typed by hand: the marker follows (it is in the middle of the map again after panning).
    await p.getByLabel('Latitude').fill('27.700000')
    await p.getByLabel('Longitude').fill('85.300000')
    await p.waitForFunction(() => {
      const map = document.querySelector('[data-testid="location-map"]')!.getBoundingClientRect()
      const pin = document.querySelector('.map-pin')!.getBoundingClientRect()
      return Math.abs(pin.x + pin.width / 2 - (map.x + map.width / 2)) < 3
    })
    assert.deepEqual(await axeViolations(p), [], 'details with the map, desktop')
    await p.getByRole('button', { name: 'Save details' }).click()
    await p.getByRole('status').filter({ hasText: 'The venue details are saved.' }).waitFor()
    const venue = await ui.server.app.ctx.db
      .selectFrom('venues')
      .select(['latitude', 'longitude'])
      .where('id', '=', ui.venueId)
      .executeTakeFirstOrThrow()
    assert.deepEqual([Number(venue.latitude), Number(venue.longitude)], [27.7, 85.3])
  })

  test('on a phone: the map fits the screen and a tap places the marker', async () => {
    const p = await ui.pageAs('owner1@courtside.test', PHONE)
    const map = await details(p)
    const box = (await map.boundingBox())!
    assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `map at ${box.x}+${box.width}px`)
    const before = await coords(p)
    await p.mouse.click(box.x + box.width / 3, box.y + box.height / 3)
    assert.notDeepEqual(await coords(p), before)
    assert.deepEqual(await axeViolations(p), [], 'details with the map, 390 px')
  })
})
