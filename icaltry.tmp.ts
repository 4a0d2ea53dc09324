import ICAL from 'ical.js'
import { Zone } from './src/lib/zone.ts'
import { renderCalendar } from './src/modules/calendar/ical.ts'

for (const zn of ['Europe/London', 'Asia/Kathmandu']) {
  const zone = new Zone(zn)
  const text = renderCalendar({
    name: 'Test, with; comma',
    zone,
    now: new Date('2026-11-24T00:00:00Z'),
    events: [
      {
        uid: 'a@x',
        date: '2026-07-01',
        startTime: '19:00:00',
        endTime: '20:00:00',
        summary: 'Court 1 at Vénue, the "best"; ok',
        location: 'L'.repeat(100) + 'é'.repeat(40),
        description: 'Line1\nLine2',
        status: 'CONFIRMED',
        sequence: 2,
        created: new Date(),
        lastModified: new Date(),
      },
      {
        uid: 'b@x',
        date: '2026-12-01',
        startTime: '19:00:00',
        endTime: '20:00:00',
        summary: 'S',
        location: 'L',
        description: 'D',
        status: 'CANCELLED',
        sequence: 0,
        created: new Date(),
        lastModified: new Date(),
      },
    ],
  })
  if (zn === 'Europe/London') console.log(text)
  const comp = new ICAL.Component(ICAL.parse(text))
  for (const tz of comp.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(tz))
  for (const ve of comp.getAllSubcomponents('vevent')) {
    const ev = new ICAL.Event(ve)
    console.log(
      zn,
      ev.uid,
      ev.startDate.toString(),
      ev.startDate.toJSDate().toISOString(),
      ev.summary,
      ve.getFirstPropertyValue('status'),
      ev.location.length,
      ev.description,
    )
  }
}
