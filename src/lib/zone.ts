import { dayOfWeek, pad2, toTimeWithSeconds } from './time.ts'

// The venue time zone (APP_TIMEZONE, default Asia/Kathmandu), carried on the app context as
// `ctx.zone`: every venue of an instance lives in it. Wall-clock values are what the contract
// speaks ("YYYY-MM-DD", "HH:mm", "YYYY-MM-DD HH:mm:ss"); instants are JavaScript Dates.

const DAY_MS = 86_400_000
/** Offsets are remembered per quarter hour of UTC (one in which the offset changes never is). */
const QUARTER_MS = 900_000
/** Quarter hours remembered before the memory starts over (about six weeks of instants). */
const MAX_QUARTERS = 4096

export interface WallClock {
  /** YYYY-MM-DD */
  date: string
  /** HH:mm:ss */
  time: string
  /** 0 = Sunday … 6 = Saturday */
  dayOfWeek: number
}

/** Intl's "YYYY-MM-DD HH:mm:ss" on a zone's wall clock (the Swedish locale writes ISO-like dates). */
export function wallClockFormat(zone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  })
}

export class Zone {
  private readonly fmt: Intl.DateTimeFormat
  /**
   * The last second formatted by wallClock/today and its wall clock. Intl formatting is slow and
   * every availability request asks for "now", while the wall clock only changes from one second
   * to the next (docs/performance.md, "Why the hot paths look this way").
   */
  private lastSecond = Number.NaN
  private lastWall: Readonly<WallClock> = { date: '', time: '', dayOfWeek: 0 }
  /**
   * The zone's offset in each quarter hour of UTC formatted so far, when it is the same at the
   * quarter's first and last second. format() then builds the text from UTC fields, much cheaper
   * than Intl, and a booking answer formats two instants, a page of a list many (docs/performance.md,
   * "Why the hot paths look this way").
   */
  private readonly quarters = new Map<number, number>()

  constructor(readonly name: string) {
    this.fmt = wallClockFormat(name)
  }

  /** An instant as "YYYY-MM-DD HH:mm:ss" on the zone's wall clock; null stays null. */
  format(d: Date | string): string
  format(d: Date | string | null | undefined): string | null
  format(d: Date | string | null | undefined): string | null {
    if (d === null || d === undefined) return null
    const t = typeof d === 'string' ? Date.parse(d) : d.getTime()
    const offset = this.offsetInQuarter(t)
    if (offset === null) return this.fmt.format(new Date(t))
    const w = new Date(t + offset)
    const year = w.getUTCFullYear()
    // Intl writes other years its own way (and throws for an invalid date).
    if (year < 1000 || year > 9999) return this.fmt.format(new Date(t))
    return `${year}-${pad2(w.getUTCMonth() + 1)}-${pad2(w.getUTCDate())} ${pad2(w.getUTCHours())}:${pad2(w.getUTCMinutes())}:${pad2(w.getUTCSeconds())}`
  }

  /**
   * An instant as ISO 8601 on the zone's wall clock with its offset, "2026-11-24T15:00:01+05:45":
   * for payloads outside the contract (webhooks), whose readers may live in any zone. The contract's
   * own datetimes keep "YYYY-MM-DD HH:mm:ss" (its rule 2). Null stays null.
   */
  formatWithOffset(d: Date | string): string
  formatWithOffset(d: Date | string | null | undefined): string | null
  formatWithOffset(d: Date | string | null | undefined): string | null {
    if (d === null || d === undefined) return null
    const t = typeof d === 'string' ? Date.parse(d) : d.getTime()
    const wall = this.format(new Date(t))
    const minutes = Math.round(this.offsetAt(t) / 60_000)
    const abs = Math.abs(minutes)
    return `${wall.replace(' ', 'T')}${minutes < 0 ? '-' : '+'}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`
  }

  /** The offset at `t` when it holds for the whole quarter hour of UTC around it; else null. */
  private offsetInQuarter(t: number): number | null {
    if (!Number.isFinite(t)) return null
    const quarter = Math.floor(t / QUARTER_MS)
    const known = this.quarters.get(quarter)
    if (known !== undefined) return known
    const first = this.offset(quarter * QUARTER_MS)
    if (first !== this.offset(quarter * QUARTER_MS + QUARTER_MS - 1000)) return null
    if (this.quarters.size >= MAX_QUARTERS) this.quarters.clear()
    this.quarters.set(quarter, first)
    return first
  }

  /** The zone's date, time and weekday at an instant. */
  wallClock(at: Date): Readonly<WallClock> {
    const second = Math.floor(at.getTime() / 1000)
    if (second !== this.lastSecond) {
      const s = this.fmt.format(at) // "2026-11-23 15:04:05"
      const date = s.slice(0, 10)
      this.lastWall = Object.freeze({ date, time: s.slice(11, 19), dayOfWeek: dayOfWeek(date) })
      this.lastSecond = second
    }
    return this.lastWall
  }

  /** The zone's date (YYYY-MM-DD) at an instant. */
  today(at: Date): string {
    return this.wallClock(at).date
  }

  /**
   * The instant a wall-clock date and time occurs in the zone. Across daylight saving it follows
   * the usual "compatible" rule: a time that happens twice (clocks go back) is its first
   * occurrence; a time that never happens (clocks go forward) is read with the offset before the
   * change, so 01:30 on a spring-forward night in London is 02:30 summer time.
   */
  instant(date: string, time: string): Date {
    const wall = Date.parse(`${date}T${toTimeWithSeconds(time)}Z`)
    const before = this.offsetAt(wall - DAY_MS)
    const after = this.offsetAt(wall + DAY_MS)
    const valid = [wall - before, wall - after].filter((t) => this.offsetAt(t) === wall - t)
    if (valid.length === 0) return new Date(wall - before)
    return new Date(Math.min(...valid))
  }

  /** `offset`, from the quarter hours already known when it can be (Intl costs about 4 µs a call). */
  private offsetAt(t: number): number {
    return this.offsetInQuarter(t) ?? this.offset(t)
  }

  /** Milliseconds the zone's wall clock is ahead of UTC at an instant. */
  private offset(t: number): number {
    const s = this.fmt.format(new Date(t))
    return Date.parse(`${s.slice(0, 10)}T${s.slice(11, 19)}Z`) - Math.floor(t / 1000) * 1000
  }
}
