// Venue-local wall-clock time. Every venue lives in APP_TIMEZONE (default Asia/Kathmandu).

let timezone = 'Asia/Kathmandu'
let dateTimeFormat = new Intl.DateTimeFormat('sv-SE', {
  timeZone: timezone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
})

export function setTimezone(tz: string) {
  timezone = tz
  dateTimeFormat = new Intl.DateTimeFormat('sv-SE', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  })
}

export function getTimezone() {
  return timezone
}

/** Date -> "YYYY-MM-DD HH:mm:ss" in the venue time zone; null stays null. */
export function formatDateTime(d: Date | string | null | undefined): string | null {
  if (d === null || d === undefined) return null
  const date = typeof d === 'string' ? new Date(d) : d
  return dateTimeFormat.format(date)
}

/** The venue-local date, time and weekday of an instant (default now). */
export function localNow(at: Date = new Date()): { date: string; time: string; dayOfWeek: number } {
  const s = dateTimeFormat.format(at) // "2026-11-23 15:04:05"
  const date = s.slice(0, 10)
  return { date, time: s.slice(11, 19), dayOfWeek: dayOfWeek(date) }
}

/** 0 = Sunday … 6 = Saturday for a "YYYY-MM-DD" date. */
export function dayOfWeek(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay()
}

/** "YYYY-MM-DD" plus n days. */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + n)
  return d.toISOString().slice(0, 10)
}

/** True when the string is a real calendar date in YYYY-MM-DD form. */
export function isValidDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false
  const d = new Date(`${date}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === date
}

/** "HH:mm" or "HH:mm:ss" -> minutes since midnight. */
export function toMinutes(time: string): number {
  const [h, m] = time.split(':')
  return Number(h) * 60 + Number(m)
}

/** minutes since midnight -> "HH:mm" (1440 renders as "24:00"). */
export function fromMinutes(min: number): string {
  return `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`
}

/** "HH:mm:ss" from "HH:mm" or "HH:mm:ss". */
export function toTimeWithSeconds(time: string): string {
  return time.length === 5 ? `${time}:00` : time.slice(0, 8)
}

/** "HH:mm" from "HH:mm:ss". */
export function toHHmm(time: string): string {
  return time.slice(0, 5)
}

/**
 * The instant at which a venue-local wall-clock time occurs. Correct for fixed-offset zones such
 * as Asia/Kathmandu (+05:45) and, away from DST transitions, for any zone.
 */
export function localToInstant(date: string, time: string): Date {
  const guess = new Date(`${date}T${toTimeWithSeconds(time)}Z`)
  const shown = localNow(guess)
  const shownAsUtc = new Date(`${shown.date}T${shown.time}Z`)
  return new Date(guess.getTime() - (shownAsUtc.getTime() - guess.getTime()))
}
