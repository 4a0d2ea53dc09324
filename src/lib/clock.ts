// Every rule that depends on "now" (is the date in the past, has the hold expired, is the booking
// within its free-cancellation hours, is a reminder due) asks the app's clock, `ctx.clock`, and
// passes that instant to SQL as a parameter instead of calling now() there. Production uses the
// system clock; tests build the app with a ManualClock and set the time instead of skipping
// themselves by the wall clock. Bookkeeping columns (created_at, updated_at, job locks) keep the
// database's now().

export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock that stands still until a test sets or moves it. */
export class ManualClock implements Clock {
  private at: number

  constructor(start: Date | string) {
    this.at = new Date(start).getTime()
    if (Number.isNaN(this.at)) throw new Error(`ManualClock: not an instant: ${String(start)}`)
  }

  now(): Date {
    return new Date(this.at)
  }

  set(at: Date | string): void {
    this.at = new Date(at).getTime()
  }

  advance(ms: number): void {
    this.at += ms
  }
}
