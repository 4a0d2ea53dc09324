import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { wallClockFormat, Zone } from '../../src/lib/zone.ts'

// lib/zone.ts on both London transitions of 2027 (spring forward 28 March at 01:00 UTC, fall back
// 31 October at 01:00 UTC) and on Kathmandu's +05:45 around midnight.

const at = (iso: string) => new Date(iso)
const london = new Zone('Europe/London')
const kathmandu = new Zone('Asia/Kathmandu')

describe('Europe/London, spring forward (2027-03-28: 01:00 GMT becomes 02:00 BST)', () => {
  test('format and wallClock jump from 00:59 to 02:00', () => {
    assert.equal(london.format(at('2027-03-28T00:59:59Z')), '2027-03-28 00:59:59')
    assert.equal(london.format(at('2027-03-28T01:00:00Z')), '2027-03-28 02:00:00')
    assert.equal(london.format('2027-03-28T18:00:00Z'), '2027-03-28 19:00:00')
    assert.equal(london.format(null), null)
    assert.deepEqual(london.wallClock(at('2027-03-28T12:00:00Z')), {
      date: '2027-03-28',
      time: '13:00:00',
      dayOfWeek: 0,
    })
    assert.equal(london.today(at('2027-03-27T23:59:00Z')), '2027-03-27')
  })

  test('instant: before, after, and a time in the gap (read with the offset before the change)', () => {
    assert.equal(london.instant('2027-03-28', '00:30').toISOString(), '2027-03-28T00:30:00.000Z')
    assert.equal(london.instant('2027-03-28', '01:30').toISOString(), '2027-03-28T01:30:00.000Z')
    assert.equal(london.format(london.instant('2027-03-28', '01:30')), '2027-03-28 02:30:00')
    assert.equal(london.instant('2027-03-28', '02:00').toISOString(), '2027-03-28T01:00:00.000Z')
    assert.equal(london.instant('2027-03-28', '19:00:00').toISOString(), '2027-03-28T18:00:00.000Z')
    assert.equal(london.instant('2027-03-27', '19:00').toISOString(), '2027-03-27T19:00:00.000Z')
  })

  test('the day is 23 hours long: midnight to midnight', () => {
    const length = london.instant('2027-03-29', '00:00').getTime() - london.instant('2027-03-28', '00:00').getTime()
    assert.equal(length, 23 * 3_600_000)
  })
})

describe('Europe/London, fall back (2027-10-31: 02:00 BST becomes 01:00 GMT)', () => {
  test('format shows 01:30 twice, an hour apart', () => {
    assert.equal(london.format(at('2027-10-31T00:30:00Z')), '2027-10-31 01:30:00')
    assert.equal(london.format(at('2027-10-31T01:30:00Z')), '2027-10-31 01:30:00')
    assert.equal(london.format(at('2027-10-31T00:59:59Z')), '2027-10-31 01:59:59')
    assert.equal(london.format(at('2027-10-31T01:00:00Z')), '2027-10-31 01:00:00')
    assert.deepEqual(london.wallClock(at('2027-10-31T19:00:00Z')), {
      date: '2027-10-31',
      time: '19:00:00',
      dayOfWeek: 0,
    })
  })

  test('instant: a time in the overlap is its first occurrence (summer time)', () => {
    assert.equal(london.instant('2027-10-31', '01:30').toISOString(), '2027-10-31T00:30:00.000Z')
    assert.equal(london.instant('2027-10-31', '00:30').toISOString(), '2027-10-30T23:30:00.000Z')
    assert.equal(london.instant('2027-10-31', '02:00').toISOString(), '2027-10-31T02:00:00.000Z')
    assert.equal(london.instant('2027-10-30', '19:00').toISOString(), '2027-10-30T18:00:00.000Z')
    assert.equal(london.instant('2027-10-31', '19:00').toISOString(), '2027-10-31T19:00:00.000Z')
  })

  test('the day is 25 hours long', () => {
    const length = london.instant('2027-11-01', '00:00').getTime() - london.instant('2027-10-31', '00:00').getTime()
    assert.equal(length, 25 * 3_600_000)
  })
})

test('London: every quarter hour of both transition days survives format → instant, but the repeated hour', () => {
  for (const day of ['2027-03-28', '2027-10-31']) {
    const start = london.instant(day, '00:00').getTime()
    for (let t = start; london.today(new Date(t)) === day; t += 15 * 60_000) {
      const wall = london.wallClock(new Date(t))
      const back = london.instant(wall.date, wall.time).getTime()
      const repeated =
        day === '2027-10-31' && t >= Date.parse('2027-10-31T01:00:00Z') && t < Date.parse('2027-10-31T02:00:00Z')
      assert.equal(back, repeated ? t - 3_600_000 : t, `${day} ${wall.time}`)
    }
  }
})

describe('Asia/Kathmandu (+05:45) around midnight', () => {
  test('23:59 and 00:01 local are 18:14 and 18:16 UTC, on different days', () => {
    assert.equal(kathmandu.format(at('2027-03-27T18:14:00Z')), '2027-03-27 23:59:00')
    assert.equal(kathmandu.format(at('2027-03-27T18:16:00Z')), '2027-03-28 00:01:00')
    assert.equal(kathmandu.today(at('2027-03-27T18:14:59Z')), '2027-03-27')
    assert.equal(kathmandu.today(at('2027-03-27T18:15:00Z')), '2027-03-28')
    assert.deepEqual(kathmandu.wallClock(at('2027-03-27T18:16:00Z')), {
      date: '2027-03-28',
      time: '00:01:00',
      dayOfWeek: 0,
    })
  })

  test('instant of local midnight and of a slot', () => {
    assert.equal(kathmandu.instant('2027-03-28', '00:00').toISOString(), '2027-03-27T18:15:00.000Z')
    assert.equal(kathmandu.instant('2027-03-27', '23:59').toISOString(), '2027-03-27T18:14:00.000Z')
    assert.equal(kathmandu.instant('2027-03-28', '10:00').toISOString(), '2027-03-28T04:15:00.000Z')
    assert.equal(kathmandu.name, 'Asia/Kathmandu')
  })
})

describe('format() from remembered offsets', () => {
  // format() keeps the zone's offset per quarter hour of UTC and builds the text itself; it must
  // write exactly what Intl writes, in every zone, across changes of offset, at any millisecond.
  const zones = [
    'Asia/Kathmandu',
    'Europe/London',
    'America/New_York',
    'Australia/Lord_Howe', // 30-minute daylight saving
    'Pacific/Chatham', // +12:45 / +13:45
    'America/St_Johns', // -03:30 / -02:30
    'Asia/Kolkata',
    'UTC',
  ]

  test('equals Intl on instants around 2027 transitions, at random milliseconds, and long ago', () => {
    let seed = 42
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
      return seed / 2_147_483_648
    }
    for (const name of zones) {
      const zone = new Zone(name)
      const intl = wallClockFormat(name)
      const instants: number[] = []
      // Every 7 minutes and 13 seconds through 2027, which crosses each zone's changes.
      for (let t = Date.parse('2027-01-01T00:00:00Z'); t < Date.parse('2028-01-01T00:00:00Z'); t += 433_000) {
        instants.push(t, t + 999)
      }
      for (let i = 0; i < 2000; i++) instants.push(Math.floor(random() * 4_102_444_800_000)) // 1970–2100
      // Local mean time: offsets with seconds, changed at odd instants.
      instants.push(Date.parse('1900-06-01T12:00:00.500Z'), Date.parse('1920-01-01T00:00:00Z'), -1)
      for (const t of instants) {
        assert.equal(zone.format(new Date(t)), intl.format(new Date(t)), `${name} at ${t}`)
      }
      assert.equal(zone.format(new Date(0).toISOString()), intl.format(new Date(0)))
    }
  })

  test('at the second an offset changes, and the second before', () => {
    assert.equal(london.format(at('2027-10-31T00:59:59.999Z')), '2027-10-31 01:59:59')
    assert.equal(london.format(at('2027-10-31T01:00:00Z')), '2027-10-31 01:00:00')
    assert.equal(london.format('2027-03-28T00:59:59.5Z'), '2027-03-28 00:59:59')
    assert.equal(london.format('2027-03-28T01:00:00Z'), '2027-03-28 02:00:00')
  })

  test('an invalid date still throws as Intl does', () => {
    assert.throws(() => kathmandu.format(new Date(Number.NaN)), RangeError)
    assert.throws(() => kathmandu.format('not a date'), RangeError)
  })
})
