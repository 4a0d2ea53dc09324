import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { en } from '../../web/src/i18n/en.ts'
import { adDate, bsDate, count, date, digits, groupLakh, money, time } from '../../web/src/i18n/format.ts'
import { hasMessage, translate } from '../../web/src/i18n/index.ts'
import { ne } from '../../web/src/i18n/ne.ts'
import { KNOWN_BS_DATES } from '../helpers/known-bs-dates.ts'

// The customer app's language layer (web/src/i18n): money, dates and the catalogues, in both languages.

const BS_MONTHS_EN = [
  'Baisakh',
  'Jestha',
  'Asar',
  'Shrawan',
  'Bhadra',
  'Ashwin',
  'Kartik',
  'Mangsir',
  'Poush',
  'Magh',
  'Falgun',
  'Chaitra',
]

test('money: lakh grouping, two decimals, Devanagari digits in Nepali', () => {
  const cases: Array<[string, string, string]> = [
    ['100000.00', 'Rs 1,00,000.00', 'रु १,००,०००.००'],
    ['0.00', 'Rs 0.00', 'रु ०.००'],
    ['999.5', 'Rs 999.50', 'रु ९९९.५०'],
    ['1000', 'Rs 1,000.00', 'रु १,०००.००'],
    ['1234567.89', 'Rs 12,34,567.89', 'रु १२,३४,५६७.८९'],
    ['12345678901.00', 'Rs 12,34,56,78,901.00', 'रु १२,३४,५६,७८,९०१.००'],
    ['-1500.00', '−Rs 1,500.00', '−रु १,५००.००'],
    ['-0.00', 'Rs 0.00', 'रु ०.००'],
    ['0025.10', 'Rs 25.10', 'रु २५.१०'],
  ]
  for (const [amount, english, nepali] of cases) {
    assert.equal(money(amount, 'en'), english, amount)
    assert.equal(money(amount, 'ne'), nepali, amount)
  }
  assert.throws(() => money('12.345', 'en'), RangeError)
  assert.throws(() => money('1e5', 'en'), RangeError)
  assert.throws(() => money('', 'en'), RangeError)
})

test('lakh grouping and digits of plain numbers', () => {
  assert.equal(groupLakh('1'), '1')
  assert.equal(groupLakh('12345'), '12,345')
  assert.equal(groupLakh('123456'), '1,23,456')
  assert.equal(groupLakh('10000000'), '1,00,00,000')
  assert.equal(count(1250, 'ne'), '१,२५०')
  assert.equal(count(-7, 'en'), '−7')
  assert.equal(digits('18:30, court 2', 'ne'), '१८:३०, court २')
  assert.equal(digits('18:30', 'en'), '18:30')
})

test('dates: the AD date with the Bikram Sambat date beside it, for the receipts’ table of known dates', () => {
  for (const [ad, bs, sources] of KNOWN_BS_DATES) {
    const [y, m, d] = bs.split('-').map(Number)
    assert.equal(bsDate(ad, 'en'), `${d} ${BS_MONTHS_EN[m - 1]} ${y}`, `${ad} (${sources})`)
    assert.equal(date(ad, 'en'), `${adDate(ad, 'en')} · ${d} ${BS_MONTHS_EN[m - 1]} ${y}`, ad)
  }
  assert.equal(date('2026-11-26', 'en'), '26 Nov 2026 · 10 Mangsir 2083')
  assert.equal(date('2026-11-26', 'ne'), '२६ नोभेम्बर २०२६ · १० मंसिर २०८३')
  assert.equal(date('2025-07-17', 'ne'), '१७ जुलाई २०२५ · १ साउन २०८२')
  assert.equal(date('2025-10-02', 'ne'), '२ अक्टोबर २०२५ · १६ असोज २०८२') // Vijaya Dashami [dashain]
  assert.equal(date('2026-11-26', 'en', { weekday: true }), 'Thu 26 Nov 2026 · 10 Mangsir 2083')
  assert.equal(date('2026-11-26', 'ne', { adOnly: true }), '२६ नोभेम्बर २०२६')
})

test('an instant is dated and timed in Nepal (UTC+05:45), whatever the process’s zone', () => {
  // 18:20 UTC on 26 Nov is 00:05 on 27 Nov in Kathmandu.
  assert.equal(date('2026-11-26T18:20:00Z', 'en'), '27 Nov 2026 · 11 Mangsir 2083')
  assert.equal(time('2026-11-26T18:20:00Z', 'en'), '00:05')
  assert.equal(time('2026-11-26T12:45:00.000Z', 'ne'), '१८:३०')
})

test('a date outside the Bikram Sambat table shows the AD date alone', () => {
  assert.equal(date('1900-01-01', 'en'), '1 Jan 1900')
  assert.throws(() => date('26/11/2026', 'en'), RangeError)
})

test('messages: placeholders filled, numbers in the language’s digits', () => {
  assert.equal(translate('en', 'series.created', { count: 12 }), 'Series booked: 12 weeks.')
  assert.equal(translate('ne', 'series.created', { count: 12 }), 'शृङ्खला बुक भयो: १२ हप्ता।')
  assert.equal(translate('ne', 'tournaments.teams', { count: 3, max: 16 }), '१६ मध्ये ३ टोली')
  assert.equal(
    translate('en', 'cancel.done', { amount: money('1500.00', 'en') }),
    'Booking cancelled. Refund: Rs 1,500.00.',
  )
  assert.equal(translate('en', 'no.such.key'), 'no.such.key')
})

test('the Nepali catalogue translates every English message', () => {
  assert.deepEqual(Object.keys(ne).sort(), Object.keys(en).sort())
  // The same text in both is right only for what is not words: names of languages, pure placeholders.
  const same = Object.keys(en).filter((k) => ne[k as keyof typeof en] === en[k as keyof typeof en])
  for (const key of same)
    assert.match(en[key as keyof typeof en], /^(English|नेपाली|[{}\w,–\s]*\{\w+\}[{}\w,–\s]*)$/, key)
  for (const [key, text] of Object.entries(en)) {
    const wanted = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
    const got = [...ne[key as keyof typeof en].matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
    assert.deepEqual(got, wanted, `placeholders of ${key}`)
  }
})

test('every message key the app uses is in the catalogue', () => {
  const root = new URL('../../web/src', import.meta.url).pathname
  const files = walk(root).filter((f) => /\.tsx?$/.test(f) && !f.includes('/i18n/'))
  const missing: string[] = []
  let used = 0
  for (const file of files) {
    const source = readFileSync(file, 'utf8')
    for (const m of source.matchAll(/\bt\(\s*'([^']+)'/g)) {
      used++
      if (!hasMessage(m[1])) missing.push(`${file.slice(root.length + 1)}: ${m[1]}`)
    }
  }
  assert.deepEqual(missing, [])
  assert.ok(files.length === 0 || used > 0, 'the app’s files call t()')
})

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? walk(full) : [full]
  })
}
