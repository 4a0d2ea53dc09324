// Pure calendar and clock-face helpers: no time zone and no "now" here. The venue time zone and
// the current instant are on the app context (ctx.zone in lib/zone.ts, ctx.clock in lib/clock.ts).

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

/** Dates already found valid (availability checks the date of every request): at most 1,000. */
const validDates = new Set<string>()

/** True when the string is a real calendar date in YYYY-MM-DD form. */
export function isValidDate(date: string): boolean {
  if (validDates.has(date)) return true
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false
  const d = new Date(`${date}T00:00:00Z`)
  const valid = !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === date
  if (valid) {
    if (validDates.size >= 1000) validDates.clear()
    validDates.add(date)
  }
  return valid
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
