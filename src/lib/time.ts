// Pure calendar helpers (addDays, toMinutes, …). The zone-dependent globals below (setTimezone,
// getTimezone, formatDateTime, localNow, localToInstant) are deprecated: the app no longer sets
// them, so they always read Asia/Kathmandu; use ctx.zone (lib/zone.ts), which is APP_TIMEZONE and
// correct across daylight saving. They go once no module calls them.

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

/** @deprecated ctx.zone (lib/zone.ts) is the zone; nothing sets this any more. */
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

/** @deprecated ctx.zone.name */
export function getTimezone() {
  return timezone
}

/** @deprecated ctx.zone.format(d). Date -> "YYYY-MM-DD HH:mm:ss" in Asia/Kathmandu; null stays null. */
export function formatDateTime(d: Date | string | null | undefined): string | null {
  if (d === null || d === undefined) return null
  const date = typeof d === 'string' ? new Date(d) : d
  return dateTimeFormat.format(date)
}

/** @deprecated ctx.zone.wallClock(ctx.clock.now()). The date, time and weekday of an instant. */
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

/** @deprecated ctx.zone.instant(date, time), which is right across daylight saving too. */
export function localToInstant(date: string, time: string): Date {
  const guess = new Date(`${date}T${toTimeWithSeconds(time)}Z`)
  const shown = localNow(guess)
  const shownAsUtc = new Date(`${shown.date}T${shown.time}Z`)
  return new Date(guess.getTime() - (shownAsUtc.getTime() - guess.getTime()))
}
