import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { seedDemo } from '../../src/cli/seed.ts'
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/cli/seed-data.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { Zone } from '../../src/lib/zone.ts'
import { build } from '../helpers/app.ts'
import { daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'

let app: App
// The app and the seed on one fixed clock (the seed's tournament starts counted from its today).
const clock = new ManualClock(FIXED_NOW)
const time = { zone: new Zone('Asia/Kathmandu'), clock }
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

const EXPECTED = { venues: 9, courts: 16, indoorGames: 6, tournaments: 1, teams: 2 }

async function tableCounts() {
  const db = app.ctx.db
  const n = async (
    table: 'users' | 'venues' | 'courts' | 'pricing_rules' | 'court_schedules' | 'venue_amenities' | 'venue_holidays',
  ) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  return {
    users: await n('users'),
    venues: await n('venues'),
    courts: await n('courts'),
    rules: await n('pricing_rules'),
    schedules: await n('court_schedules'),
    amenities: await n('venue_amenities'),
    holidays: await n('venue_holidays'),
  }
}

test('the seed loads the demo data once, and a second run changes nothing', async () => {
  const first = await seedDemo(app.ctx.db, time)
  assert.deepEqual(
    {
      venues: first.venues,
      courts: first.courts,
      indoorGames: first.indoorGames,
      tournaments: first.tournaments,
      teams: first.teams,
    },
    EXPECTED,
  )
  assert.equal(first.password, DEMO_PASSWORD)
  assert.deepEqual(first.users.map((u) => u.role).sort(), [
    'customer',
    'staff',
    'super_admin',
    'venue_owner',
    'venue_owner',
  ])
  const before = await tableCounts()
  assert.equal(before.users, 5)
  // 12 futsal courts × 4 rules, plus the basketball (1), badminton (2) and volleyball (1) rules.
  assert.equal(before.rules, 52)
  assert.equal(before.schedules, 2)
  assert.equal(before.amenities, 36)
  assert.equal(before.holidays, 2)

  const second = await seedDemo(app.ctx.db, time)
  assert.deepEqual(second, first)
  assert.deepEqual(await tableCounts(), before)
})

test('the seeded people log in with the demo password and see the catalogue', async () => {
  await seedDemo(app.ctx.db, time)
  for (const u of DEMO_USERS) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: DEMO_PASSWORD },
    })
    assert.equal(res.statusCode, 200, `${u.email}: ${res.body}`)
  }
  // The demo desk staff works at Baneshwor Futsal Arena (the console's day board).
  const staff = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'staff@courtside.test', password: DEMO_PASSWORD },
  })
  const mine = await app.inject({
    method: 'GET',
    url: '/api/venues/my-venues',
    headers: { authorization: `Bearer ${staff.json().token}` },
  })
  assert.equal(mine.statusCode, 200, mine.body)
  assert.deepEqual(
    mine.json().map((v: { slug: string }) => v.slug),
    ['baneshwor-futsal-arena'],
  )
  // Guests see the 8 verified venues, not the unverified one.
  const list = await app.inject({ method: 'GET', url: '/api/venues?per_page=50' })
  assert.equal(list.statusCode, 200, list.body)
  const slugs = list.json().data.map((v: { slug: string }) => v.slug)
  assert.equal(slugs.length, 8)
  assert.ok(!slugs.includes('thamel-street-futsal'))
  const cities = new Set(list.json().data.map((v: { city: string }) => v.city))
  assert.deepEqual([...cities].sort(), ['Kathmandu', 'Lalitpur', 'Pokhara'])

  // A seeded court answers availability with its peak price in the evening.
  const court = await app.ctx.db
    .selectFrom('courts as c')
    .innerJoin('venues as v', 'v.id', 'c.venue_id')
    .select('c.id')
    .where('v.slug', '=', 'jhamsikhel-futsal')
    .where('c.name', '=', 'Court 1')
    .executeTakeFirstOrThrow()
  // Thursday 12 and Saturday 14 March 2026: the weekday's peak and off-peak prices, and Saturday's flat one.
  for (const [date, saturday] of [
    [daysFromFixedNow(2), false],
    [daysFromFixedNow(4), true],
  ] as const) {
    const res = await app.inject({ method: 'GET', url: `/api/courts/${court.id}/availability?date=${date}` })
    assert.equal(res.statusCode, 200, res.body)
    const at = (t: string) => res.json().slots.find((s: { start_time: string }) => s.start_time === t)?.price_per_hour
    assert.equal(new Date(`${date}T00:00:00Z`).getUTCDay() === 6, saturday, date)
    assert.equal(at('18:00'), saturday ? '1900.00' : '1800.00', date)
    assert.equal(at('06:00'), saturday ? '1900.00' : '1200.00', date)
  }

  const tournaments = await app.inject({ method: 'GET', url: '/api/tournaments' })
  assert.equal(tournaments.statusCode, 200, tournaments.body)
  const cup = tournaments.json().data.find((t: { name: string }) => t.name === 'Baneshwor Winter Futsal Cup')
  assert.ok(cup, tournaments.body)
  assert.equal(cup.status, 'registration_open')
})

test('with the app storage, every demo venue gets its drawn photos as thumbnail and gallery', async () => {
  const own = await build(undefined, {}, { clock })
  try {
    const withPhotos = { ...time, storage: own.ctx.storage }
    await seedDemo(own.ctx.db, withPhotos)
    const list = await own.inject({ method: 'GET', url: '/api/venues?per_page=50' })
    assert.equal(list.statusCode, 200, list.body)
    type Image = { url: string; thumb_url: string; is_primary: boolean }
    const venues: { slug: string; thumbnail: Image | null; images: Image[] }[] = list.json().data
    assert.equal(venues.length, 8)
    for (const v of venues) {
      assert.ok(v.thumbnail?.is_primary, `${v.slug} has a thumbnail`)
      assert.equal(v.images[0].url, v.thumbnail.url)
      // The thumbnail is served by the app's storage route as a small WebP.
      const file = await own.inject({ method: 'GET', url: new URL(v.thumbnail.thumb_url).pathname })
      assert.equal(file.statusCode, 200, v.thumbnail.thumb_url)
      assert.equal(file.rawPayload.subarray(8, 12).toString('latin1'), 'WEBP')
      assert.ok(file.rawPayload.length < 8 * 1024, `${v.slug}: ${file.rawPayload.length} bytes`)
    }
    // Baneshwor: a futsal pitch as the cover, then its PlayStation and carrom board.
    const baneshwor = venues.find((v) => v.slug === 'baneshwor-futsal-arena')!
    assert.equal(baneshwor.images.length, 3)
    const media = async () =>
      Number(
        (
          await own.ctx.db
            .selectFrom('media')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const count = await media()
    // One photo per court sport and game type of each of the 9 venues (the unverified one too).
    assert.equal(count, 19)
    await seedDemo(own.ctx.db, withPhotos)
    assert.equal(await media(), count, 'a second seed adds no photos')
  } finally {
    await own.close()
  }
})
