import { adDate as adDateIn, clock12 as clockIn, longDate, moneyText } from '../../../lib/i18n/index.ts'
import { formatMoney, formatRupees } from '../../../lib/money.ts'

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
  date: (ad) => longDate(ad, 'en'),
  timeRange: (start, end) => `${clockIn(start, 'en')}–${clockIn(end, 'en')}`,
  moment: (wall) => `${adDateIn(wall, 'en')}, ${clockIn(wall.slice(11), 'en')}`,
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
