import { adDate as adDateIn, clock12 as clockIn, longDate, moneyText } from '../../../lib/i18n/index.ts'
import { formatMoney, formatRupees } from '../../../lib/money.ts'
import { toBs } from '../../../lib/nepali-date.ts'
import { dayOfWeek } from '../../../lib/time.ts'

// How the booking messages (SMS and email) write dates, times and money, per language. A message
// template (one module per message kind, beside this file) gets the Format of the recipient's
// language and writes its sentences with it: English, and Nepali (Devanagari digits, Nepali month
// names, "रु"), the recipient's users.locale (docs/languages.md; docs/bookings.md, "Messages by SMS
// and email"). A new language adds itself here, a text in each template module and the server's
// catalogue (src/lib/i18n).

export type Language = 'en' | 'ne'
export const LANGUAGES: readonly Language[] = ['en', 'ne']
export const DEFAULT_LANGUAGE: Language = 'en'

/** The booking a message is about, as the message job read it (notifications/queries.ts). */
export interface BookingFacts {
  kind: 'court' | 'indoor'
  bookingNumber: string
  venue: string
  /** The court's name, or the indoor game's. */
  place: string
  /** AD calendar date, "YYYY-MM-DD". */
  date: string
  /** Venue wall-clock times, "HH:mm" or "HH:mm:ss". */
  start: string
  end: string
  /** Paisa. */
  total: number
  paid: number
}

export interface Format {
  /** "Hello Sita," */
  greeting(name: string): string
  /** The last lines of every email (why it came, how to stop it). */
  mailFooter: string[]
  /** Venue, court (or game), date (AD and BS) and time of a booking, one line each. */
  bookingLines(b: BookingFacts): string[]
  /** An AD calendar date ("YYYY-MM-DD") with its Bikram Sambat date: "Tue 14 Apr 2026 (1 Baisakh 2083 BS)". */
  date(ad: string): string
  /** A venue wall-clock range on the 12-hour clock: "7:00 PM–8:00 PM". */
  timeRange(start: string, end: string): string
  /** A venue wall-clock instant ("YYYY-MM-DD HH:mm[:ss]"): "14 Apr 2026, 7:15 PM". */
  moment(wall: string): string
  /** Paisa as rupees: "Rs 1,500.00". */
  money(paisa: number): string
}

const AD_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** Bikram Sambat months, Baisakh first (as the customer app writes them, web/src/i18n/format.ts). */
const BS_MONTHS = [
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
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

function ymd(date: string): [number, number, number] {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date)
  if (!m) throw new RangeError(`Not a date: ${date}`)
  return [Number(m[1]), Number(m[2]), Number(m[3])]
}

function adDate(date: string): string {
  const [y, m, d] = ymd(date)
  return `${d} ${AD_MONTHS[m - 1]} ${y}`
}

/** "1 Baisakh 2083 BS"; '' outside the years the BS table knows. */
function bsDate(date: string): string {
  let bs: string
  try {
    bs = toBs(date.slice(0, 10))
  } catch {
    return ''
  }
  const [y, m, d] = ymd(bs)
  return `${d} ${BS_MONTHS[m - 1]} ${y} BS`
}

/** "19:00" or "19:00:00" → "7:00 PM"; midnight is "12:00 AM". */
function clock12(time: string): string {
  const m = /^(\d{1,2}):(\d{2})/.exec(time)
  if (!m) throw new RangeError(`Not a time: ${time}`)
  const h = Number(m[1]) % 24
  return `${h % 12 === 0 ? 12 : h % 12}:${m[2]} ${h < 12 ? 'AM' : 'PM'}`
}

const english: Format = {
  greeting: (name) => `Hello ${name},`,
  mailFooter: [
    'You get this email because you booked on Courtside.',
    'Turn booking emails off in your profile (notify_email).',
  ],
  bookingLines(b) {
    return [
      `Venue: ${b.venue}`,
      `${b.kind === 'court' ? 'Court' : 'Game'}: ${b.place}`,
      `Date: ${this.date(b.date)}`,
      `Time: ${this.timeRange(b.start, b.end)}`,
    ]
  },
  date(ad) {
    const weekday = WEEKDAYS[dayOfWeek(ad.slice(0, 10))]
    const bs = bsDate(ad)
    return `${weekday} ${adDate(ad)}${bs ? ` (${bs})` : ''}`
  },
  timeRange: (start, end) => `${clock12(start)}–${clock12(end)}`,
  moment: (wall) => `${adDate(wall)}, ${clock12(wall.slice(11))}`,
  money: (paisa) => formatRupees(paisa),
}

// Nepali: the server's Nepali dates, times and money (src/lib/i18n/format.ts, as the web app writes
// them): weekday, AD and BS dates, the 12-hour clock with the part of the day, Devanagari digits, रु.
const nepali: Format = {
  greeting: (name) => `नमस्ते ${name},`,
  mailFooter: [
    'तपाईंले Courtside मा बुकिङ गर्नुभएकाले यो इमेल पाउनुभयो।',
    'बुकिङका इमेल प्रोफाइलबाट बन्द गर्न सक्नुहुन्छ (notify_email)।',
  ],
  bookingLines(b) {
    return [
      `स्थल: ${b.venue}`,
      `${b.kind === 'court' ? 'कोर्ट' : 'खेल'}: ${b.place}`,
      `मिति: ${this.date(b.date)}`,
      `समय: ${this.timeRange(b.start, b.end)}`,
    ]
  },
  date: (ad) => longDate(ad, 'ne'),
  timeRange: (start, end) => `${clockIn(start, 'ne')}–${clockIn(end, 'ne')}`,
  moment: (wall) => `${adDateIn(wall, 'ne')}, ${clockIn(wall.slice(11), 'ne')}`,
  money: (paisa) => moneyText(formatMoney(paisa), 'ne'),
}

export const FORMATS: Record<Language, Format> = { en: english, ne: nepali }
