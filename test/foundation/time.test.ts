import assert from 'node:assert/strict'
import { test } from 'node:test'
import { dayOfWeek, fromMinutes, toMinutes } from '../../src/lib/time.ts'

// The clock-face helpers read digits instead of parsing Dates and splitting strings (they run on
// every slot of every uncached availability answer); they must answer exactly as the plain forms.

const byDate = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay()
const bySplit = (time: string) => {
  const [h, m] = time.split(':')
  return Number(h) * 60 + Number(m)
}
const byPadding = (min: number) =>
  `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`

test('dayOfWeek agrees with Date on every day from 1900 to 2200, and on malformed dates', () => {
  for (let t = Date.UTC(1900, 0, 1); t < Date.UTC(2200, 0, 1); t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10)
    if (dayOfWeek(date) !== byDate(date)) assert.fail(`${date}: ${dayOfWeek(date)} against ${byDate(date)}`)
  }
  assert.equal(dayOfWeek('2026-11-24'), 2)
  for (const odd of [
    '2024-02-29',
    '2026-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-1-01',
    '2026/11/24',
    '2026x11x24',
    'x',
    '',
  ])
    assert.ok(Object.is(dayOfWeek(odd), byDate(odd)), odd)
})

test('toMinutes and fromMinutes agree with the split and padded forms', () => {
  for (let min = -3; min <= 1500; min++) assert.equal(fromMinutes(min), byPadding(min))
  assert.equal(fromMinutes(1440), '24:00')
  for (const time of ['06:00', '24:00', '23:59:59', '7:30', '12:345', '12:3x', ' 1:00', '12:34xyz', 'ab:cd', ''])
    assert.ok(Object.is(toMinutes(time), bySplit(time)), time)
  assert.equal(toMinutes('17:30:00'), 1050)
})
