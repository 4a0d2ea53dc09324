import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fiscalYearOf, fiscalYearStart, fromBs, toBs } from '../../src/lib/nepali-date.ts'
import { KNOWN_BS_DATES } from '../helpers/known-bs-dates.ts'

// The Bikram Sambat conversion (src/lib/nepali-date.ts over the pinned npm package
// nepali-date-converter 3.4.0) against dates known from elsewhere (test/helpers/known-bs-dates.ts
// says where each comes from; the customer app's date formatting is checked against the same table).
const KNOWN = KNOWN_BS_DATES

test('AD → BS and back for a table of known dates', () => {
  for (const [ad, bs, sources] of KNOWN) {
    assert.equal(toBs(ad), bs, `${ad} (${sources})`)
    assert.equal(fromBs(bs), ad, `${bs} (${sources})`)
  }
})

test('the fiscal year starts on Shrawan 1: 2081, 2082 and 2083', () => {
  const cases: Array<[string, string]> = [
    ['2024-07-15', '2080/81'],
    ['2024-07-16', '2081/82'],
    ['2025-01-01', '2081/82'],
    ['2025-04-14', '2081/82'], // Baisakh 1 changes the BS year, not the fiscal year
    ['2025-07-16', '2081/82'],
    ['2025-07-17', '2082/83'],
    ['2026-07-16', '2082/83'],
    ['2026-07-17', '2083/84'],
  ]
  for (const [ad, fy] of cases) assert.equal(fiscalYearOf(ad), fy, ad)
  assert.equal(fiscalYearStart('2081/82'), '2024-07-16')
  assert.equal(fiscalYearStart('2082/83'), '2025-07-17')
  assert.equal(fiscalYearStart('2083/84'), '2026-07-17')
})

test('the last fiscal year the table covers whole is 2089/90', () => {
  assert.equal(fiscalYearOf(fromBs('2089-04-01')), '2089/90')
  assert.equal(fiscalYearOf(fromBs('2090-03-01')), '2089/90')
})

test('what is not a date, or outside the table, is refused', () => {
  assert.throws(() => toBs('2025-02-30'), RangeError)
  assert.throws(() => toBs('17/07/2025'), RangeError)
  assert.throws(() => toBs('1900-01-01'), RangeError)
  assert.throws(() => fromBs('2081-03-32'), RangeError) // Ashad 2081 has 31 days
  assert.throws(() => fromBs('2082-13-01'), RangeError)
  assert.throws(() => fiscalYearStart('2082/84'), RangeError)
})

test('the time zone of the process does not change a date', () => {
  // toBs takes calendar dates; the package reads a Date's local fields, so this checks the wrapper
  // keeps them (the suite may run in any TZ).
  const before = process.env.TZ
  for (const tz of ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Asia/Kathmandu']) {
    process.env.TZ = tz
    assert.equal(toBs('2025-07-17'), '2082-04-01', tz)
    assert.equal(fromBs('2082-04-01'), '2025-07-17', tz)
  }
  if (before === undefined) delete process.env.TZ
  else process.env.TZ = before
})
