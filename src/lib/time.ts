// Pure calendar and clock-face helpers: no time zone and no "now" here. The venue time zone and
// the current instant are on the app context (ctx.zone in lib/zone.ts, ctx.clock in lib/clock.ts).

/** 0 = Sunday … 6 = Saturday for a "YYYY-MM-DD" date. */
export function dayOfWeek(date: string): number {
  // Read from the digits (Sakamoto's method), without parsing a Date: every uncached availability
  // answer and every booking asks (docs/performance.md, "Why the hot paths look this way").
  // Anything but "YYYY-MM-DD" goes to Date.
  const y = digits(date, 0, 4)
  const m = digits(date, 5, 2)
  const d = digits(date, 8, 2)
  const dashes = date.charCodeAt(4) === 45 && date.charCodeAt(7) === 45
  if (date.length !== 10 || !dashes || y < 1000 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) {
    return new Date(`${date}T00:00:00Z`).getUTCDay()
  }
  const year = m < 3 ? y - 1 : y
  return (year + Math.floor(year / 4) - Math.floor(year / 100) + Math.floor(year / 400) + MONTH_OFFSETS[m - 1] + d) % 7
}

const MONTH_OFFSETS = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1]
}

/** The number written by `length` ASCII digits of `text` from `at`; -1 if any is not a digit. */
function digits(text: string, at: number, length: number): number {
  let n = 0
  for (let i = at; i < at + length; i++) {
    const c = text.charCodeAt(i) - 48
    if (!(c >= 0 && c <= 9)) return -1
    n = n * 10 + c
  }
  return n
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
  if (time.length >= 5 && time.charCodeAt(2) === 58) {
    const h = digits(time, 0, 2)
    const m = digits(time, 3, 2)
    if (h >= 0 && m >= 0 && (time.length === 5 || time.charCodeAt(5) === 58)) return h * 60 + m
  }
  const [h, m] = time.split(':')
  return Number(h) * 60 + Number(m)
}

/** A number written with at least two digits: 7 -> "07". */
export const pad2 = (n: number) => String(n).padStart(2, '0')
/** "HH:mm" of every minute of a day and of its end, made once: slot grids ask for thousands. */
const CLOCK_FACES = Array.from({ length: 24 * 60 + 1 }, (_, min) => `${pad2(Math.floor(min / 60))}:${pad2(min % 60)}`)

/** minutes since midnight -> "HH:mm" (1440 renders as "24:00"). */
export function fromMinutes(min: number): string {
  return CLOCK_FACES[min] ?? `${pad2(Math.floor(min / 60))}:${pad2(min % 60)}`
}

/** "HH:mm:ss" from "HH:mm" or "HH:mm:ss". */
export function toTimeWithSeconds(time: string): string {
  return time.length === 5 ? `${time}:00` : time.slice(0, 8)
}

/** "HH:mm" from "HH:mm:ss". */
export function toHHmm(time: string): string {
  return time.slice(0, 5)
}
