import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fiscalYearOf, fiscalYearStart, fromBs, toBs } from '../../src/lib/nepali-date.ts'

// The Bikram Sambat conversion (src/lib/nepali-date.ts over the pinned npm package
// nepali-date-converter 3.4.0) against dates known from elsewhere. Where each expected value comes from:
//  [pkg]  what nepali-date-converter 3.4.0 answers (read when it was chosen; bikram-sambat 1.8.1
//         from npm gave the same AD dates for Shrawan 1 of 2080–2084).
//  [py]   the independent table of opensource-nepal/py-nepali (nepali/date_converter.py, commit
//         0a255fa of 2026-03-22), nepali_to_english(...) run by hand.
//  [news] fiscalnepal.com, 17 July 2025, "Nepal's new budget comes into effect today as new fiscal
//         year begins": FY 2081/82 ended on Wednesday and FY 2082/83 began "from Thursday
//         (Shrawan 1)", i.e. Thursday 17 July 2025.
//  [rss]  RSS via eng.danfetv.com, July 2023: the FY 2080/81 budget is implemented "from July 17"
//         (Shrawan 1, 2080 = 17 July 2023).
//  [tihar] bishwashkhabar.com on the 2081 calendar of the Nepal Panchanga Nirnayak Samiti: Laxmi Puja
//         on Kartik 15, 2081, a Thursday (31 October 2024).
//  [dashain] himalayakhabar.com: Vijaya Dashami "2082 साल असोज १६ गते अर्थात अक्टोबर २, २०२५".
const KNOWN: Array<[ad: string, bs: string, sources: string]> = [
  ['2023-07-17', '2080-04-01', 'pkg py rss'],
  ['2024-07-15', '2081-03-31', 'pkg py'], // the last day of FY 2080/81 (Ashad has 31 days in 2081)
  ['2024-07-16', '2081-04-01', 'pkg py'], // Shrawan 1, 2081: FY 2081/82 begins
  ['2024-10-31', '2081-07-15', 'pkg py tihar'],
  ['2025-04-14', '2082-01-01', 'pkg py'], // Baisakh 1, 2082: the BS new year, not a new fiscal year
  ['2025-07-16', '2082-03-32', 'pkg py news'], // the last day of FY 2081/82
  ['2025-07-17', '2082-04-01', 'pkg py news'], // Shrawan 1, 2082: FY 2082/83 begins
  ['2025-10-02', '2082-06-16', 'pkg py dashain'],
  ['2026-04-14', '2083-01-01', 'pkg py'],
  ['2026-07-16', '2083-03-32', 'pkg py'], // the last day of FY 2082/83
  ['2026-07-17', '2083-04-01', 'pkg py'], // Shrawan 1, 2083: FY 2083/84 begins
  ['2027-07-17', '2084-04-01', 'pkg py'],
]

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
