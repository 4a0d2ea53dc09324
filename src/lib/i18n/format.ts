import { toBs } from '../nepali-date.ts'
import { dayOfWeek } from '../time.ts'
import { AD_MONTHS, BS_MONTHS, digits, groupLakh, WEEKDAYS_LONG as WEEKDAYS } from './calendar-words.ts'
import type { Locale } from './locale.ts'

export { digits, groupLakh }

// Dates, times, numbers and money in the words of either language, for the texts the server writes
// (messages, notifications, errors). They write what the web app writes (web/src/i18n/format.ts):
// AD with the Bikram Sambat date beside it, lakh grouping, Devanagari digits in Nepali; times are
// venue wall-clock times on the 12-hour clock.

/** An amount in rupees as text ("1200.00", "1,200.00", "-5.50") as money: "रु १,२००.००" in Nepali. */
export function moneyText(amount: string, locale: Locale): string {
  const m = /^(-)?([\d,]+)(?:\.(\d{1,2}))?$/.exec(amount.trim())
  if (!m) return amount
  const [, minus, whole, fraction = ''] = m
  const integer = whole.replace(/,/g, '').replace(/^0+(?=\d)/, '')
  const text = `${locale === 'ne' ? 'रु' : 'Rs'} ${minus ?? ''}${groupLakh(integer)}.${fraction.padEnd(2, '0')}`
  return digits(text, locale)
}

function ymd(date: string): [number, number, number] {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date)
  if (!m) throw new RangeError(`Not a date: ${date}`)
  return [Number(m[1]), Number(m[2]), Number(m[3])]
}

/** "14 Apr 2026" / "१४ अप्रिल २०२६". */
export function adDate(date: string, locale: Locale): string {
  const [y, m, d] = ymd(date)
  return digits(`${d} ${AD_MONTHS[locale][m - 1]} ${y}`, locale)
}

/** "1 Baisakh 2083 BS" / "१ वैशाख २०८३"; '' outside the years the BS table knows. */
export function bsDate(date: string, locale: Locale): string {
  let bs: string
  try {
    bs = toBs(date.slice(0, 10))
  } catch {
    return ''
  }
  const [y, m, d] = ymd(bs)
  return locale === 'ne' ? digits(`${d} ${BS_MONTHS.ne[m - 1]} ${y}`, locale) : `${d} ${BS_MONTHS.en[m - 1]} ${y} BS`
}

/** The weekday, the AD date and the BS date: "Tue 14 Apr 2026 (1 Baisakh 2083 BS)" / "मंगलबार, १४ अप्रिल २०२६ (१ वैशाख २०८३)". */
export function longDate(date: string, locale: Locale): string {
  const weekday = WEEKDAYS[locale][dayOfWeek(date.slice(0, 10))]
  const bs = bsDate(date, locale)
  return `${weekday}${locale === 'ne' ? ',' : ''} ${adDate(date, locale)}${bs ? ` (${bs})` : ''}`
}

/** Nepali words for the part of the day a 12-hour time is in (बिहान 7:00, साँझ 7:00). */
function partOfDay(hour: number): string {
  if (hour >= 4 && hour < 12) return 'बिहान'
  if (hour >= 12 && hour < 16) return 'दिउँसो'
  if (hour >= 16 && hour < 20) return 'साँझ'
  return 'राति'
}

/** "19:00" or "19:00:00" → "7:00 PM" / "साँझ ७:००"; midnight is "12:00 AM" / "राति १२:००". */
export function clock12(time: string, locale: Locale): string {
  const m = /^(\d{1,2}):(\d{2})/.exec(time)
  if (!m) throw new RangeError(`Not a time: ${time}`)
  const h = Number(m[1]) % 24
  const twelve = `${h % 12 === 0 ? 12 : h % 12}:${m[2]}`
  return locale === 'ne' ? `${partOfDay(h)} ${digits(twelve, locale)}` : `${twelve} ${h < 12 ? 'AM' : 'PM'}`
}

/** A venue wall-clock instant ("YYYY-MM-DD HH:mm[:ss]"): "14 Apr 2026, 7:15 PM" / "१४ अप्रिल २०२६, साँझ ७:१५". */
export function moment(wall: string, locale: Locale): string {
  return `${adDate(wall, locale)}, ${clock12(wall.slice(11), locale)}`
}
