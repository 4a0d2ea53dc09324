import { adDate, digits, groupLakh } from '../../shared-ui/format.ts'
import { getLang, t } from './i18n/index.ts'

// Money as "Rs 4,48,199.00" (lakh grouping; "रु ४,४८,१९९.००" in Nepali) and venue-local times. The
// service already renders wall-clock times (HH:mm) and instants (ISO with the venue's offset) in the
// venue's zone, so nothing here converts. Dates with the BS date beside: i18n/index.ts, bothDates.

/** "448199.00" or 448199 → "Rs 4,48,199.00" / "रु ४,४८,१९९.००". String arithmetic: no float rounding. */
export function money(value: string | number | null | undefined): string {
  const lang = getLang()
  const symbol = lang === 'ne' ? 'रु' : 'Rs'
  if (value === null || value === undefined || value === '') return digits(`${symbol} 0.00`, lang)
  const text = typeof value === 'number' ? value.toFixed(2) : value
  const negative = text.startsWith('-')
  const [whole = '0', frac = ''] = text.replace(/^-/, '').split('.')
  return digits(`${negative ? '-' : ''}${symbol} ${groupLakh(whole)}.${(frac + '00').slice(0, 2)}`, lang)
}

/** "2026-11-25T18:15:00+05:45" → "18:15" (the venue-local clock time as the service wrote it). */
export function clockTime(instant: string | null | undefined): string {
  if (!instant) return ''
  const m = /T(\d{2}:\d{2})/.exec(instant)
  return m ? m[1] : instant
}

/**
 * An instant as the API writes it, "2026-11-25 18:15:00" or with its offset
 * "2026-11-25T18:15:00+05:45" (both venue time) → "2026-11-25 18:15".
 */
export function venueMinute(instant: string | null | undefined): string {
  return instant ? instant.slice(0, 16).replace('T', ' ') : ''
}

/** "2026-11-25" → "Wed 25 Nov 2026" ("बुध २५ नोभेम्बर २०२६" in Nepali): the AD date alone. */
export function longDate(date: string): string {
  if (getLang() === 'ne') return adDate(date, 'ne', { weekday: true })
  const [y, m, d] = date.split('-').map(Number)
  const day = new Date(Date.UTC(y, m - 1, d))
  return day.toLocaleDateString('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  })
}

/** The date `days` after `date` (YYYY-MM-DD, calendar arithmetic). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

/** Minutes since midnight of "HH:mm". */
export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number)
  return h * 60 + m
}

/** "HH:mm" of minutes since midnight. */
export function timeOf(minutes: number): string {
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`
}

const STATUSES = ['pending', 'confirmed', 'playing', 'completed', 'cancelled', 'no_show'] as const

/** A booking status as the desk reads it ("Awaiting payment" / "भुक्तानी बाँकी"); an unknown one as is. */
export function statusLabel(status: string): string {
  return (STATUSES as readonly string[]).includes(status) ? t(`status.${status as (typeof STATUSES)[number]}`) : status
}
