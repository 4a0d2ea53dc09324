import assert from 'node:assert/strict'
import ICAL from 'ical.js'
import type { App } from '../../src/app.ts'

// Reading feeds back with ical.js, a maintained RFC 5545 parser.

export interface ParsedEvent {
  uid: string
  summary: string
  location: string
  description: string
  status: string
  sequence: number
  tzid: string
  start: Date
  end: Date
  startLocal: string
  lastModified: Date
}

/** The path of a feed URL answered by the API. */
export const pathOf = (url: string) => new URL(url).pathname

/** Checks the wire format (CRLF, folding at 75 octets) and parses the feed with ical.js. */
export function parseFeed(text: string) {
  assert.ok(text.endsWith('\r\n'))
  for (const line of text.split('\r\n')) {
    assert.ok(Buffer.byteLength(line, 'utf8') <= 75, `longer than 75 octets: ${line}`)
    assert.ok(!line.includes('\n') && !line.includes('\r'), 'bare line break')
  }
  const cal = new ICAL.Component(ICAL.parse(text))
  const zones = cal.getAllSubcomponents('vtimezone')
  for (const z of zones) ICAL.TimezoneService.register(new ICAL.Timezone(z))
  const events: ParsedEvent[] = cal.getAllSubcomponents('vevent').map((ve) => {
    const ev = new ICAL.Event(ve)
    const lastModified = ve.getFirstPropertyValue('last-modified') as ICAL.Time
    return {
      uid: ev.uid,
      summary: ev.summary,
      location: ev.location,
      description: ev.description,
      status: String(ve.getFirstPropertyValue('status')),
      sequence: ev.sequence,
      tzid: String(ve.getFirstProperty('dtstart')?.getParameter('tzid')),
      start: ev.startDate.toJSDate(),
      end: ev.endDate.toJSDate(),
      startLocal: ev.startDate.toString(),
      lastModified: lastModified.toJSDate(),
    }
  })
  return { cal, zones: zones.map((z) => String(z.getFirstPropertyValue('tzid'))), events }
}

export async function fetchFeed(app: App, url: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url: pathOf(url), headers })
}
