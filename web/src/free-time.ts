import { addDays, isIsoDate, minutes } from './dates.ts'

// "Play tonight" (issue 47): the start page's free-time search. The address says what is searched
// (?date=&from=&to=&duration=, with the catalogue's q, city, sport and sort), so a search can be
// shared and reloaded; without a date the search is tonight's, and `date=any` is the catalogue
// without times (GET /api/venues without `date`).

/** A free-time search: venues with a court or game free for `duration` minutes starting in [from, to). */
export interface FreeTimeSearch {
  date: string
  from: string
  to: string
  duration: number
}

/** The evening the start page opens on. */
export const EVENING = { from: '18:00', to: '21:00' } as const
/** The lengths of play offered, in minutes (the API's default is 60). */
export const DURATIONS = [30, 60, 90, 120] as const
/** How many days ahead the day picker offers (today included). */
export const DAYS_AHEAD = 7
/** Times offered for from and until: every half hour of the day. */
export const TIMES: readonly string[] = Array.from(
  { length: 48 },
  (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
)

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/
/** "Until" may also be the end of the day, as the API takes it. */
const UNTIL = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/

// One formatter each, made on first use: making an Intl.DateTimeFormat costs far more than using it.
let dayFormat: Intl.DateTimeFormat | undefined
let clockFormat: Intl.DateTimeFormat | undefined

/** Today in Nepal ("YYYY-MM-DD"; en-CA writes dates so). */
export function today(now: Date = new Date()): string {
  dayFormat ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Kathmandu',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
  return dayFormat.format(now)
}

/** The clock time in Nepal now, as minutes since midnight. */
export function minutesNow(now: Date = new Date()): number {
  clockFormat ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Kathmandu',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
  return minutes(clockFormat.format(now))
}

/**
 * Tonight's search: today from 18:00 to 21:00 for an hour, or tomorrow evening once less than an
 * hour of this evening's window is left (from 20:00 in Nepal).
 */
export function tonight(now: Date = new Date()): FreeTimeSearch {
  const day = today(now)
  const late = minutesNow(now) > minutes(EVENING.to) - 60
  return { date: late ? addDays(day, 1) : day, from: EVENING.from, to: EVENING.to, duration: 60 }
}

/**
 * The free-time search the address asks for, or null for the catalogue without times
 * (`date=any`). Missing or unusable parts take tonight's; a day before today is today.
 */
export function searchOf(query: URLSearchParams, now: Date = new Date()): FreeTimeSearch | null {
  const date = query.get('date')
  if (date === 'any') return null
  const base = tonight(now)
  const from = query.get('from') ?? ''
  const to = query.get('to') ?? ''
  const duration = Number(query.get('duration'))
  const first = today(now)
  const day = isIsoDate(date) ? (date < first ? first : date) : base.date
  const search = {
    date: day,
    from: TIME.test(from) ? from : base.from,
    to: UNTIL.test(to) ? to : base.to,
    duration: (DURATIONS as readonly number[]).includes(duration) ? duration : base.duration,
  }
  if (minutes(search.to) <= minutes(search.from)) search.to = laterBy(search.from, 60)
  return search
}

/** The last "until" offered: the end of the day (the API's 24:00). */
export const END_OF_DAY = '24:00'

/** The "until" times offered after `from`: the half hours after it, then the end of the day. */
export function untilTimes(from: string): string[] {
  return [...TIMES.filter((t) => minutes(t) > minutes(from)), END_OF_DAY]
}

/** `time` plus `add` minutes, at most the end of the day. */
export function laterBy(time: string, add: number): string {
  const total = Math.min(minutes(time) + add, minutes(END_OF_DAY))
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`
}
