import { dayOfWeek, toTimeWithSeconds } from './time.ts'

// The venue time zone (APP_TIMEZONE, default Asia/Kathmandu), carried on the app context as
// `ctx.zone`: every venue of an instance lives in it. Wall-clock values are what the contract
// speaks ("YYYY-MM-DD", "HH:mm", "YYYY-MM-DD HH:mm:ss"); instants are JavaScript Dates.

const DAY_MS = 86_400_000

export interface WallClock {
  /** YYYY-MM-DD */
  date: string
  /** HH:mm:ss */
  time: string
  /** 0 = Sunday … 6 = Saturday */
  dayOfWeek: number
}

export class Zone {
  private readonly fmt: Intl.DateTimeFormat
  /**
   * The last second formatted by wallClock/today and its wall clock. Formatting with Intl costs
   * about 4 µs, and every availability request asks for "now" (3 % of its CPU, docs/performance.md);
   * the wall clock only changes from one second to the next.
   */
  private lastSecond = Number.NaN
  private lastWall: Readonly<WallClock> = { date: '', time: '', dayOfWeek: 0 }

  constructor(readonly name: string) {
    this.fmt = new Intl.DateTimeFormat('sv-SE', {
      timeZone: name,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
  }

  /** An instant as "YYYY-MM-DD HH:mm:ss" on the zone's wall clock; null stays null. */
  format(d: Date | string): string
  format(d: Date | string | null | undefined): string | null
  format(d: Date | string | null | undefined): string | null {
    if (d === null || d === undefined) return null
    return this.fmt.format(typeof d === 'string' ? new Date(d) : d)
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
    const before = this.offset(wall - DAY_MS)
    const after = this.offset(wall + DAY_MS)
    const valid = [wall - before, wall - after].filter((t) => this.offset(t) === wall - t)
    if (valid.length === 0) return new Date(wall - before)
    return new Date(Math.min(...valid))
  }

  /** Milliseconds the zone's wall clock is ahead of UTC at an instant. */
  private offset(t: number): number {
    const s = this.fmt.format(new Date(t))
    return Date.parse(`${s.slice(0, 10)}T${s.slice(11, 19)}Z`) - Math.floor(t / 1000) * 1000
  }
}
