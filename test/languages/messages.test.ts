import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { outbox } from '../accounts/helpers.ts'
import { book, notificationsOf, world } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, type TestUser } from '../helpers/factories.ts'

// A Nepali reader's messages (issue 50; docs/languages.md): the in-app notification, its push, the
// booking SMS and mail, the cancellation quote and the cancel's answer, all in Nepali with the web
// app's dates (weekday, AD and BS, 12-hour venue time, Devanagari digits) and no ISO timestamps.
// An English reader's stay exactly as they were (test/notifications/messages.test.ts).
//
// The clock: Friday 10 April 2026, 09:00 in Kathmandu. Play: Tuesday 14 April 2026 (1 Baisakh 2083
// BS, test/helpers/known-bs-dates.ts), 19:00–20:00.

const START = '2026-04-10T03:15:00Z'
const PLAY_DATE = '2026-04-14'
const DATE_NE = 'मंगलबार, १४ अप्रिल २०२६ (१ वैशाख २०८३)'
const TIME_NE = 'साँझ ७:००–राति ८:००'

const clock = new ManualClock(START)
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

/** A customer reading Nepali (chosen on their profile), with a phone and a verified email. */
async function nepaliPlayer(phone: string): Promise<TestUser & { phone: string }> {
  const user = await createUser(app, { phone, wallet: 1_000_000 })
  await app.ctx.db.updateTable('users').set({ email_verified_at: clock.now() }).where('id', '=', user.id).execute()
  const res = await app.inject({ method: 'PUT', url: '/api/profile', headers: user.headers, payload: { locale: 'ne' } })
  assert.equal(res.statusCode, 200, res.body)
  const device = await app.inject({
    method: 'PUT',
    url: '/api/notifications/device-token',
    headers: user.headers,
    payload: { token: `device-${phone}` },
  })
  assert.equal(device.statusCode, 200, device.body)
  return { ...user, phone }
}

/** No Latin date, no ISO date or time with seconds, no English sentence words. */
function assertNepaliText(text: string) {
  assert.doesNotMatch(text, /\d{4}-\d{2}-\d{2}|\d{2}:\d{2}:\d{2}/, `ISO date in: ${text}`)
  assert.doesNotMatch(text, /\b(Your|booking|Venue|Court|Date|Time|Paid|Refunded|Rs)\b/, `English in: ${text}`)
}

test("a Nepali player's confirmation, cancellation and refund arrive in Nepali on every channel", async () => {
  const p = await nepaliPlayer('9841000111')
  const w = await world(app)
  const made = await book(app, p, { court_id: w.court.id, date: PLAY_DATE, start_time: '19:00', end_time: '20:00' })
  assert.equal(made.statusCode, 201, made.body)
  const booking = made.json().data as { id: number; booking_number: string }
  const paid = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: p.headers,
    payload: { booking_type: 'court', booking_id: booking.id, method: 'wallet' },
  })
  assert.equal(paid.statusCode, 200, paid.body)
  await app.ctx.jobs.runDue()

  // The in-app notification's message (its other fields as ever).
  const confirmed = (await notificationsOf(app, p.id)).find((n) => n.type === 'BookingConfirmed')
  assert.equal(confirmed?.data.message, `तपाईंको ${DATE_NE} साँझ ७:०० को बुकिङ ${booking.booking_number} पक्का भयो।`)
  assert.equal(confirmed?.data.date, PLAY_DATE)
  assert.equal(confirmed?.data.start_time, '19:00')

  const mine = (await outbox(app)).filter((e) => [p.phone, p.email, `device-${p.phone}`].includes(e.to))
  const sms = mine.filter((e) => e.channel === 'sms')
  const mail = mine.filter((e) => e.channel === 'mail')
  const push = mine.filter((e) => e.channel === 'push')
  assert.equal(sms.length, 1)
  assert.equal(mail.length, 1)
  assert.equal(
    sms[0].body,
    [
      `तपाईंको बुकिङ ${booking.booking_number} पक्का भयो।`,
      `स्थल: ${w.venue.name}`,
      `कोर्ट: ${w.court.name}`,
      `मिति: ${DATE_NE}`,
      `समय: ${TIME_NE}`,
      'तिरिएको: रु १,५००.००',
    ].join('\n'),
  )
  assert.equal(mail[0].subject, `बुकिङ ${booking.booking_number} पक्का भयो: ${w.venue.name}`)
  assert.match(mail[0].body, /^नमस्ते User \d+,\n\n/)
  assert.ok(mail[0].body.includes(`\n\n${sms[0].body}\n\n`), mail[0].body)
  assert.ok(mail[0].body.includes('notify_email'))
  assert.ok(push.length >= 1, 'a push went to the device')
  const confirmPush = push.find((e) => e.subject === 'बुकिङ पक्का भयो')
  assert.equal(confirmPush?.body, confirmed?.data.message)

  // The quote and the cancel's answer, four days ahead (inside the free-cancellation window).
  const quote = await app.inject({ method: 'GET', url: `/api/bookings/${booking.id}/cancellation`, headers: p.headers })
  assert.equal(quote.statusCode, 200, quote.body)
  assert.deepEqual(quote.json().data, {
    cancellable: true,
    refund_amount: '1500.00',
    reason: 'सुरु हुनुभन्दा कम्तीमा २४ घण्टा अगाडि: रु १,५००.०० तपाईंको वालेटमा फिर्ता गरियो।',
  })
  const cancel = await app.inject({
    method: 'PATCH',
    url: `/api/bookings/${booking.id}/cancel`,
    headers: p.headers,
    payload: {},
  })
  assert.equal(cancel.statusCode, 200, cancel.body)
  assert.equal(cancel.json().message, 'बुकिङ रद्द गरियो। रु १,५००.०० तपाईंको वालेटमा फिर्ता गरियो।')
  assert.equal(cancel.json().refund_amount, '1500.00')
  await app.ctx.jobs.runDue()

  const cancelled = (await notificationsOf(app, p.id)).find((n) => n.type === 'BookingCancelled')
  assert.equal(
    cancelled?.data.message,
    `तपाईंको ${DATE_NE} साँझ ७:०० को बुकिङ ${booking.booking_number} रद्द गरियो। रु १,५००.०० तपाईंको वालेटमा फिर्ता गरियो।`,
  )
  const after = (await outbox(app)).filter((e) => e.to === p.phone || e.to === p.email)
  const cancelSms = after.filter((e) => e.channel === 'sms')[1]
  const cancelMail = after.filter((e) => e.channel === 'mail')[1]
  assert.ok(cancelSms.body.startsWith(`तपाईंको बुकिङ ${booking.booking_number} रद्द गरियो।`), cancelSms.body)
  assert.ok(cancelSms.body.includes(`मिति: ${DATE_NE}`))
  assert.ok(cancelSms.body.endsWith('फिर्ता: रु १,५००.००'), cancelSms.body)
  assert.equal(cancelMail.subject, `बुकिङ ${booking.booking_number} रद्द भयो: ${w.venue.name}`)
  for (const text of [confirmed?.data.message, cancelled?.data.message, sms[0].body, cancelSms.body]) {
    assertNepaliText(
      String(text).replaceAll(booking.booking_number, '').replaceAll(w.venue.name, '').replaceAll(w.court.name, ''),
    )
  }
})

test('a booking rule refusal comes in Nepali for a Nepali player, in the contract English for others', async () => {
  const w = await world(app)
  await app.ctx.db.updateTable('venues').set({ booking_window_days: 2 }).where('id', '=', w.venue.id).execute()
  app.ctx.cache.invalidate(`venue:${w.venue.id}`)
  const slot = { court_id: w.court.id, date: PLAY_DATE, start_time: '19:00', end_time: '20:00' }
  const english = await book(app, await createUser(app, { wallet: 1_000_000 }), slot)
  assert.equal(english.statusCode, 422, english.body)
  const message =
    'This venue takes bookings at most 2 days ahead (booking window): the last date you can book is 2026-04-12.'
  assert.deepEqual(english.json(), { message, errors: { booking_window_days: [message] } })

  const nepali = await book(app, await nepaliPlayer('9841000222'), slot)
  assert.equal(nepali.statusCode, 422)
  const said =
    'यो स्थलले बढीमा २ दिन अगाडिसम्मको बुकिङ लिन्छ (बुकिङ अवधि): तपाईंले बुक गर्न सक्ने अन्तिम मिति आइतबार, १२ अप्रिल २०२६ (२९ चैत २०८२) हो।'
  assert.deepEqual(nepali.json(), { message: said, errors: { booking_window_days: [said] } })
})
