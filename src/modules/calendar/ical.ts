import type { Zone } from '../../lib/zone.ts'

// RFC 5545 text for a calendar feed: pure functions, no database. docs/calendar.md.
// Lines end with CRLF and are folded at 75 octets (3.1); TEXT values escape backslash, semicolon,
// comma and newlines (3.3.11); local times carry the venue zone's TZID, defined by a VTIMEZONE
// generated from the zone's own offsets (3.6.5), so it matches APP_TIMEZONE with or without DST.

export type EventStatus = 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED'

export interface CalendarEvent {
  uid: string
  /** Venue-local YYYY-MM-DD and HH:mm[:ss]. */
  date: string
  startTime: string
  endTime: string
  summary: string
  location: string
  description: string
  status: EventStatus
  sequence: number
  created: Date
  lastModified: Date
}

const CRLF = '\r\n'
const MAX_OCTETS = 75

/** Escapes a TEXT value (RFC 5545 3.3.11). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
}

/** Folds one content line into lines of at most 75 octets, never inside a UTF-8 character (3.1). */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line, 'utf8') <= MAX_OCTETS) return line
  const parts: string[] = []
  let current = ''
  let octets = 0
  // The first line holds 75 octets; each continuation line starts with a space, so 74 more.
  let limit = MAX_OCTETS
  for (const ch of line) {
    const size = Buffer.byteLength(ch, 'utf8')
    if (octets + size > limit) {
      parts.push(current)
      current = ''
      octets = 0
      limit = MAX_OCTETS - 1
    }
    current += ch
    octets += size
  }
  parts.push(current)
  return parts.join(`${CRLF} `)
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** An instant as UTC DATE-TIME: 20261124T101500Z. */
export function utcStamp(d: Date): string {
  return (
    `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`
  )
}

/** A venue-local date and time as a floating DATE-TIME to pair with TZID: 20261124T190000. */
export function localStamp(date: string, time: string): string {
  const [h, m, s = '00'] = time.split(':')
  return `${date.replace(/-/g, '')}T${h.padStart(2, '0')}${m}${s.slice(0, 2)}`
}

/** UTC offset as ±HHMM (±HHMMSS when it has seconds). */
function utcOffset(ms: number): string {
  const sign = ms < 0 ? '-' : '+'
  const total = Math.round(Math.abs(ms) / 1000)
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  return `${sign}${pad(h)}${pad(m)}${s ? pad(s) : ''}`
}

/** Milliseconds the zone is ahead of UTC at instant `t` (whole seconds). */
function offsetAt(zone: Zone, t: number): number {
  const wall = zone.format(new Date(t)) // "2026-11-24 19:00:00"
  return Date.parse(`${wall.slice(0, 10)}T${wall.slice(11, 19)}Z`) - Math.floor(t / 1000) * 1000
}

/** The wall clock at instant `t` read with `offset`, as a local DATE-TIME. */
function wallStamp(t: number, offset: number): string {
  return utcStamp(new Date(t + offset)).slice(0, -1)
}

interface Transition {
  at: number
  from: number
  to: number
}

/** The instants the zone's offset changes in [from, to), found day by day and narrowed to the second. */
export function transitions(zone: Zone, from: number, to: number): Transition[] {
  const found: Transition[] = []
  const step = 6 * 3600_000
  let prev = offsetAt(zone, from)
  for (let t = from; t < to; t += step) {
    const next = offsetAt(zone, t + step)
    if (next === prev) continue
    let lo = t
    let hi = t + step
    while (hi - lo > 1000) {
      const mid = Math.floor((lo + hi) / 2000) * 1000
      if (mid <= lo) break
      if (offsetAt(zone, mid) === prev) lo = mid
      else hi = mid
    }
    found.push({ at: hi, from: prev, to: next })
    prev = next
  }
  return found
}

/**
 * A VTIMEZONE for `zone` valid for the years `fromYear` to `toYear`: one observance for the offset
 * in force on 1 January of `fromYear`, then one per change of offset (DTSTART is the local time
 * of the change on the clock before it, as RFC 5545 3.6.5 defines). A change to a larger offset
 * than the zone's smallest in that span is DAYLIGHT, else STANDARD.
 */
export function vtimezone(zone: Zone, fromYear: number, toYear: number): string[] {
  const start = Date.UTC(fromYear, 0, 1)
  const end = Date.UTC(toYear + 1, 0, 1)
  const initial = offsetAt(zone, start)
  const changes = transitions(zone, start, end)
  const standard = Math.min(initial, ...changes.map((c) => c.to))
  const observance = (dtstart: string, from: number, to: number) => {
    const kind = to > standard ? 'DAYLIGHT' : 'STANDARD'
    return [
      `BEGIN:${kind}`,
      `DTSTART:${dtstart}`,
      `TZOFFSETFROM:${utcOffset(from)}`,
      `TZOFFSETTO:${utcOffset(to)}`,
      `END:${kind}`,
    ]
  }
  return [
    'BEGIN:VTIMEZONE',
    `TZID:${zone.name}`,
    ...observance(`${fromYear}0101T000000`, initial, initial),
    ...changes.flatMap((c) => observance(wallStamp(c.at, c.from), c.from, c.to)),
    'END:VTIMEZONE',
  ]
}

function vevent(e: CalendarEvent, tzid: string): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    // A published feed's DTSTAMP is when the event's information last changed (3.8.7.2), so an
    // unchanged feed renders byte for byte the same and its ETag holds.
    `DTSTAMP:${utcStamp(e.lastModified)}`,
    `DTSTART;TZID=${tzid}:${localStamp(e.date, e.startTime)}`,
    `DTEND;TZID=${tzid}:${localStamp(e.date, e.endTime)}`,
    `SUMMARY:${escapeText(e.summary)}`,
    `LOCATION:${escapeText(e.location)}`,
    `DESCRIPTION:${escapeText(e.description)}`,
    `STATUS:${e.status}`,
    `SEQUENCE:${e.sequence}`,
    `CREATED:${utcStamp(e.created)}`,
    `LAST-MODIFIED:${utcStamp(e.lastModified)}`,
    'TRANSP:OPAQUE',
    'END:VEVENT',
  ]
}

/** A whole VCALENDAR: name, the zone's VTIMEZONE for the events' years (and now's), the events. */
export function renderCalendar(input: { name: string; zone: Zone; now: Date; events: CalendarEvent[] }): string {
  const { name, zone, now, events } = input
  const years = [Number(zone.today(now).slice(0, 4)), ...events.map((e) => Number(e.date.slice(0, 4)))]
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Courtside//Booking calendar feed//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `NAME:${escapeText(name)}`,
    `X-WR-CALNAME:${escapeText(name)}`,
    `X-WR-TIMEZONE:${zone.name}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT15M',
    'X-PUBLISHED-TTL:PT15M',
    ...vtimezone(zone, Math.min(...years) - 1, Math.max(...years) + 1),
    ...events.flatMap((e) => vevent(e, zone.name)),
    'END:VCALENDAR',
  ]
  return lines.map(foldLine).join(CRLF) + CRLF
}
