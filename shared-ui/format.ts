import {
  AD_MONTHS,
  BS_MONTHS,
  digits,
  groupLakh,
  type Lang,
  WEEKDAYS_SHORT as WEEKDAYS,
} from '../src/lib/i18n/calendar-words.ts'
import { toBs } from '../src/lib/nepali-date.ts'

// Numbers, money and dates as a reader in Nepal writes them, in either language, for both front-ends
// (the customer app and the staff console). Pure functions of
// (value, lang): the i18n module passes the current language; the unit tests pass both.
//
// The Bikram Sambat date is the receipts' own conversion (src/lib/nepali-date.ts over the pinned
// nepali-date-converter 3.4.0): its table is ~3.5 KB of the bundle gzipped, so it is bundled, not
// loaded lazily (docs/web.md).

export type { Lang }
export { digits, groupLakh }

const AMOUNT = /^(-)?(\d+)(?:\.(\d+))?$/

/**
 * The API's decimal strings ("100000.00", "-50.5") as money: "Rs 1,00,000.00" / "रु १,००,०००.००".
 * Always two decimals; the text is never turned into a float, so no paisa is lost to rounding.
 */
export function money(amount: string, lang: Lang): string {
  const m = AMOUNT.exec(amount.trim())
  if (!m) throw new RangeError(`Not an amount: ${amount}`)
  const [, minus, whole, fraction = ''] = m
  if (fraction.length > 2 && /[^0]/.test(fraction.slice(2))) throw new RangeError(`More than paisa: ${amount}`)
  const integer = whole.replace(/^0+(?=\d)/, '')
  const paisa = fraction.slice(0, 2).padEnd(2, '0')
  const zero = /^0+$/.test(integer) && paisa === '00'
  const text = `${lang === 'ne' ? 'रु' : 'Rs'} ${groupLakh(integer)}.${paisa}`
  return digits(minus && !zero ? `−${text}` : text, lang)
}

/** A plain count ("1,250" / "१,२५०"), lakh grouping. */
export function count(n: number, lang: Lang): string {
  const sign = n < 0 ? '−' : ''
  return digits(sign + groupLakh(String(Math.trunc(Math.abs(n)))), lang)
}

/** A weekday's short name, 0 = Sunday (as the API numbers them). */
export function weekday(day: number, lang: Lang): string {
  const name = WEEKDAYS[lang][day]
  if (name === undefined) throw new RangeError(`Not a weekday: ${day}`)
  return name
}

/** Venues are in Nepal: an instant's calendar day and clock time are read there. */
export const ZONE = 'Asia/Kathmandu'

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** The calendar date ("YYYY-MM-DD") of a date or an instant (ISO timestamp) in Nepal. */
export function calendarDate(iso: string): string {
  if (DAY.test(iso)) return iso
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) throw new RangeError(`Not a date: ${iso}`)
  return new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    at,
  )
}

export interface DateOptions {
  /** Put the weekday first ("Thu 26 Nov 2026 · …"). */
  weekday?: boolean
  /** Only the AD part (where space is short, e.g. a date strip); the BS date is still in `title`. */
  adOnly?: boolean
}

/** The AD date only: "26 Nov 2026" / "२६ नोभेम्बर २०२६". */
export function adDate(iso: string, lang: Lang, options: DateOptions = {}): string {
  const [y, m, d] = calendarDate(iso).split('-').map(Number)
  const weekday = options.weekday ? `${WEEKDAYS[lang][new Date(Date.UTC(y, m - 1, d)).getUTCDay()]} ` : ''
  return digits(`${weekday}${d} ${AD_MONTHS[lang][m - 1]} ${y}`, lang)
}

/** The Bikram Sambat date only: "10 Mangsir 2083" / "१० मंसिर २०८३"; '' outside the table's years. */
export function bsDate(iso: string, lang: Lang): string {
  let bs: string
  try {
    bs = toBs(calendarDate(iso))
  } catch {
    return ''
  }
  const [y, m, d] = bs.split('-').map(Number)
  return digits(`${d} ${BS_MONTHS[lang][m - 1]} ${y}`, lang)
}

/** "26 Nov 2026 · 10 Mangsir 2083" / "२६ नोभेम्बर २०२६ · १० मंसिर २०८३". */
export function date(iso: string, lang: Lang, options: DateOptions = {}): string {
  const ad = adDate(iso, lang, options)
  if (options.adOnly) return ad
  const bs = bsDate(iso, lang)
  return bs ? `${ad} · ${bs}` : ad
}

/** The clock time of an instant in Nepal, 24-hour: "18:30" / "१८:३०". */
export function time(iso: string, lang: Lang): string {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) throw new RangeError(`Not an instant: ${iso}`)
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone: ZONE,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at)
  return digits(text, lang)
}
