import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { outbox } from '../accounts/helpers.ts'
import { book, notificationsOf, world } from '../bookings/helpers.ts'
import { createSeries } from '../bookings/series-helpers.ts'
import { build } from '../helpers/app.ts'
import { createIndoorGame, createUser, type TestUser } from '../helpers/factories.ts'
import { runSeriesPayments, sendDueReminders } from '../helpers/sweeps.ts'
import { join } from '../waitlist/helpers.ts'

// Booking confirmed, cancelled, refunded, a waitlist offer, a series week due and the reminder
// before play reach the player by SMS (the phone on file) and email (a verified email only), sent
// by the job queue after the change commits (docs/bookings.md, "Messages by SMS and email").
//
// Every instant is on the app's ManualClock: Friday 10 April 2026, 09:00 in Kathmandu. Play is on
// Tuesday 14 April 2026, which is 1 Baisakh 2083 BS (test/helpers/known-bs-dates.ts), 19:00–20:00.

const START = '2026-04-10T03:15:00Z'
const PLAY_DATE = '2026-04-14'
const AD = 'Tue 14 Apr 2026'
const BS = '1 Baisakh 2083 BS'
const TIME = '7:00 PM–8:00 PM'

const clock = new ManualClock(START)
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

let phones = 0
/** A unique phone number for this process. */
const newPhone = () => `98${String(process.pid % 100000).padStart(5, '0')}${String(++phones).padStart(3, '0')}`

/** A customer with a phone on file and, unless told otherwise, a verified email. */
async function player(a: App, opts: { wallet?: number; emailVerified?: boolean } = {}) {
  const phone = newPhone()
  const user = await createUser(a, { phone, wallet: opts.wallet ?? 1_000_000 })
  if (opts.emailVerified ?? true) {
    await a.ctx.db
      .updateTable('users')
      .set({ email_verified_at: a.ctx.clock.now() })
      .where('id', '=', user.id)
      .execute()
  }
  return { ...user, phone }
}

/** The SMS and mail sent to a player (push messages aside). */
async function messagesOf(a: App, p: { phone: string; email: string }) {
  const all = await outbox(a)
  return {
    sms: all.filter((e) => e.channel === 'sms' && e.to === p.phone),
    mail: all.filter((e) => e.channel === 'mail' && e.to === p.email),
  }
}

/** Asserts one text carries the booking's venue, court or game, AD and BS date, time and amount line. */
function assertCarries(
  text: string,
  what: { venue: string; place: string; amount: string; date?: string; bs?: string },
) {
  assert.ok(text.includes(`Venue: ${what.venue}`), `venue in: ${text}`)
  assert.ok(text.includes(what.place), `court or game in: ${text}`)
  assert.ok(text.includes(what.date ?? AD), `AD date in: ${text}`)
  assert.ok(text.includes(what.bs ?? BS), `BS date in: ${text}`)
  assert.ok(text.includes(`Time: ${TIME}`), `time in: ${text}`)
  assert.ok(text.includes(what.amount), `amount "${what.amount}" in: ${text}`)
}

function payByWallet(a: App, user: TestUser, id: number, kind: 'court' | 'indoor' = 'court') {
  return a.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: user.headers,
    payload: { booking_type: kind, booking_id: id, method: 'wallet' },
  })
}

async function paidCourtBooking(a: App, customer: TestUser) {
  const w = await world(a)
  const res = await book(a, customer, { court_id: w.court.id, date: PLAY_DATE, start_time: '19:00', end_time: '20:00' })
  assert.equal(res.statusCode, 201, res.body)
  const booking = res.json().data as { id: number; booking_number: string }
  const paid = await payByWallet(a, customer, booking.id)
  assert.equal(paid.statusCode, 200, paid.body)
  return { w, booking, paymentId: paid.json().data.payment.id as number }
}

test('a confirmed court booking arrives by SMS and email after the job runs, never inside the booking request', async () => {
  clock.set(START)
  const p = await player(app)
  const { w, booking } = await paidCourtBooking(app, p)
  // The payment answered without a message sent: the job sends it.
  assert.deepEqual(await messagesOf(app, p), { sms: [], mail: [] })
  await app.ctx.jobs.runDue()
  const { sms, mail } = await messagesOf(app, p)
  assert.equal(sms.length, 1)
  assert.equal(mail.length, 1)
  const what = { venue: w.venue.name, place: `Court: ${w.court.name}`, amount: 'Paid: Rs 1,500.00' }
  assertCarries(sms[0].body, what)
  assert.ok(sms[0].body.includes(`Your booking ${booking.booking_number} is confirmed.`))
  assertCarries(mail[0].body, what)
  assert.equal(mail[0].subject, `Booking ${booking.booking_number} confirmed: ${w.venue.name}`)
  // The in-app notification keeps its own text and fields.
  const note = (await notificationsOf(app, p.id)).find((n) => n.type === 'BookingConfirmed')
  assert.deepEqual(note?.data, {
    message: `Your booking ${booking.booking_number} on ${PLAY_DATE} at 19:00 is confirmed.`,
    booking_id: booking.id,
    booking_type: 'court',
    booking_number: booking.booking_number,
    venue_id: w.venue.id,
    date: PLAY_DATE,
    start_time: '19:00',
  })

  // Cancelled four days ahead: refunded in full, and told so.
  const cancel = await app.inject({
    method: 'PATCH',
    url: `/api/bookings/${booking.id}/cancel`,
    headers: p.headers,
    payload: {},
  })
  assert.equal(cancel.statusCode, 200, cancel.body)
  await app.ctx.jobs.runDue()
  const after = await messagesOf(app, p)
  assert.equal(after.sms.length, 2)
  assert.equal(after.mail.length, 2)
  for (const text of [after.sms[1].body, after.mail[1].body]) {
    assertCarries(text, { ...what, amount: 'Refunded: Rs 1,500.00' })
    assert.ok(text.includes(`Your booking ${booking.booking_number} was cancelled.`))
  }
  assert.equal(after.mail[1].subject, `Booking ${booking.booking_number} cancelled: ${w.venue.name}`)
})

test('a venue’s refund of a payment arrives, with the amount refunded and where it went', async () => {
  clock.set(START)
  const p = await player(app)
  const { w, booking, paymentId } = await paidCourtBooking(app, p)
  const res = await app.inject({
    method: 'POST',
    url: `/api/payments/${paymentId}/refund`,
    headers: w.owner.headers,
    payload: { amount: '500.00' },
  })
  assert.equal(res.statusCode, 200, res.body)
  const note = (await notificationsOf(app, p.id)).find((n) => n.type === 'BookingRefunded')
  assert.equal(
    note?.data.message,
    `Rs 500.00 of your payment for booking ${booking.booking_number} was refunded to your wallet.`,
  )
  assert.equal(note?.data.refund_amount, '500.00')
  assert.equal(note?.data.refunded_to, 'wallet')
  await app.ctx.jobs.runDue()
  const { sms, mail } = await messagesOf(app, p)
  const refund = sms.find((m) => m.body.includes('refunded'))
  assert.ok(refund, 'the refund SMS arrived')
  assertCarries(refund.body, { venue: w.venue.name, place: `Court: ${w.court.name}`, amount: 'Refunded: Rs 500.00' })
  assert.ok(refund.body.includes('to your Courtside wallet'))
  const refundMail = mail.find((m) => m.subject === `Refund for booking ${booking.booking_number}: Rs 500.00`)
  assert.ok(refundMail, 'the refund mail arrived')
  assertCarries(refundMail.body, {
    venue: w.venue.name,
    place: `Court: ${w.court.name}`,
    amount: 'Refunded: Rs 500.00',
  })
})

test('an indoor game booking’s confirmation names the game', async () => {
  clock.set(START)
  const p = await player(app)
  const w = await world(app)
  const game = await createIndoorGame(app, w.venue.id, { name: 'PS5 Station 2' })
  const res = await app.inject({
    method: 'POST',
    url: '/api/indoor-game-bookings',
    headers: p.headers,
    payload: { indoor_game_id: game.id, date: PLAY_DATE, start_time: '19:00', end_time: '20:00' },
  })
  assert.equal(res.statusCode, 201, res.body)
  const id = res.json().data.id as number
  assert.equal((await payByWallet(app, p, id, 'indoor')).statusCode, 200)
  await app.ctx.jobs.runDue()
  const { sms, mail } = await messagesOf(app, p)
  assert.equal(sms.length, 1)
  assert.equal(mail.length, 1)
  for (const text of [sms[0].body, mail[0].body]) {
    assertCarries(text, { venue: w.venue.name, place: 'Game: PS5 Station 2', amount: 'Paid: Rs 300.00' })
  }
})

test('a waitlist offer arrives with what there is to pay and until when it is held', async () => {
  clock.set(START)
  const w = await world(app)
  const holder = await player(app)
  const held = await book(app, holder, {
    court_id: w.court.id,
    date: PLAY_DATE,
    start_time: '19:00',
    end_time: '20:00',
  })
  assert.equal(held.statusCode, 201, held.body)
  const waiter = await player(app)
  const joined = await join(app, waiter, {
    court_id: w.court.id,
    date: PLAY_DATE,
    start_time: '19:00',
    end_time: '20:00',
  })
  assert.equal(joined.statusCode, 201, joined.body)
  const cancel = await app.inject({
    method: 'PATCH',
    url: `/api/bookings/${held.json().data.id}/cancel`,
    headers: holder.headers,
    payload: {},
  })
  assert.equal(cancel.statusCode, 200, cancel.body)
  await app.ctx.jobs.runDue()
  const { sms, mail } = await messagesOf(app, waiter)
  assert.equal(sms.length, 1)
  assert.equal(mail.length, 1)
  // Held WAITLIST_OFFER_MINUTES (15) from 09:00 on 10 April.
  for (const text of [sms[0].body, mail[0].body]) {
    assertCarries(text, { venue: w.venue.name, place: `Court: ${w.court.name}`, amount: 'To pay: Rs 1,500.00' })
    assert.ok(text.includes('held for you until 10 Apr 2026, 9:15 AM'), text)
  }
})

test('the reminder before play arrives once, with what was paid (ManualClock)', async () => {
  clock.set(START)
  const p = await player(app)
  const { w } = await paidCourtBooking(app, p)
  await app.ctx.jobs.runDue()
  const before = await messagesOf(app, p)
  // Monday 13 April, 19:30: play starts in 23.5 hours.
  clock.set(app.ctx.zone.instant('2026-04-13', '19:30'))
  assert.ok((await sendDueReminders(app)) >= 1)
  await app.ctx.jobs.runDue()
  assert.equal(await sendDueReminders(app), 0)
  await app.ctx.jobs.runDue()
  const { sms, mail } = await messagesOf(app, p)
  assert.equal(sms.length, before.sms.length + 1)
  assert.equal(mail.length, before.mail.length + 1)
  const reminder = sms[sms.length - 1].body
  assert.ok(reminder.startsWith('Reminder: your booking'), reminder)
  assertCarries(reminder, { venue: w.venue.name, place: `Court: ${w.court.name}`, amount: 'Paid: Rs 1,500.00' })
  const reminderMail = mail[mail.length - 1]
  assert.equal(reminderMail.subject, `Reminder: ${w.venue.name}, ${AD} (${BS}), ${TIME}`)
  assertCarries(reminderMail.body, {
    venue: w.venue.name,
    place: `Court: ${w.court.name}`,
    amount: 'Paid: Rs 1,500.00',
  })
})

test('a series week not yet paid is announced by SMS and email with the amount due and the deadline', async () => {
  clock.set(START)
  const p = await player(app)
  const w = await world(app)
  // Tuesdays 14 and 21 April, 19:00–20:00, paid at the venue. Week 2 (21 April = 8 Baisakh 2083) is
  // due 48 hours before, by Sunday 19 April 19:00, and announced a day before that.
  const res = await createSeries(app, p, {
    court_id: w.court.id,
    start_date: PLAY_DATE,
    weeks: 2,
    start_time: '19:00',
    end_time: '20:00',
    payment_method: 'cash',
  })
  assert.equal(res.statusCode, 201, res.body)
  clock.set(app.ctx.zone.instant('2026-04-18', '19:00'))
  assert.equal((await runSeriesPayments(app)).reminded, 1)
  await app.ctx.jobs.runDue()
  const { sms, mail } = await messagesOf(app, p)
  const due = sms.find((m) => m.body.includes('weekly series'))
  assert.ok(due, 'the series SMS arrived')
  const dueMail = mail.find((m) => m.body.includes('weekly series'))
  assert.ok(dueMail, 'the series mail arrived')
  for (const text of [due.body, dueMail.body]) {
    assertCarries(text, {
      venue: w.venue.name,
      place: `Court: ${w.court.name}`,
      amount: 'Due: Rs 1,500.00',
      date: 'Tue 21 Apr 2026',
      bs: '8 Baisakh 2083 BS',
    })
    assert.ok(text.includes('Pay by 19 Apr 2026, 7:00 PM'), text)
  }
})

test('an unverified email gets no mail; the SMS still goes', async () => {
  clock.set(START)
  const p = await player(app, { emailVerified: false })
  await paidCourtBooking(app, p)
  await app.ctx.jobs.runDue()
  const { sms, mail } = await messagesOf(app, p)
  assert.equal(sms.length, 1)
  assert.equal(mail.length, 0)
})

test('notify_sms false sends no SMS and notify_email false no mail; one-time codes still come', async () => {
  clock.set(START)
  const p = await player(app)
  const off = await app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: p.headers,
    payload: { notify_sms: false },
  })
  assert.equal(off.statusCode, 200, off.body)
  assert.equal(off.json().data.notify_sms, false)
  assert.equal(off.json().data.notify_email, true)
  await paidCourtBooking(app, p)
  await app.ctx.jobs.runDue()
  let got = await messagesOf(app, p)
  assert.equal(got.sms.length, 0)
  assert.equal(got.mail.length, 1)

  const otp = await app.inject({
    method: 'POST',
    url: '/api/auth/otp/send',
    payload: { identifier: p.phone, type: 'sms' },
  })
  assert.equal(otp.statusCode, 200, otp.body)
  got = await messagesOf(app, p)
  assert.equal(got.sms.length, 1, 'the OTP is not a booking message')
  assert.match(got.sms[0].body, /\b\d{6}\b/)

  const both = await app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: p.headers,
    payload: { notify_sms: true, notify_email: false },
  })
  assert.equal(both.statusCode, 200, both.body)
  await paidCourtBooking(app, p)
  await app.ctx.jobs.runDue()
  const last = await messagesOf(app, p)
  assert.equal(last.mail.length, 1, 'no second mail')
  assert.equal(last.sms.length, 2, 'the OTP and this confirmation')
  assert.ok(last.sms[1].body.includes('is confirmed.'))
})

test('a message job run again sends nothing twice', async () => {
  clock.set(START)
  const p = await player(app)
  await paidCourtBooking(app, p)
  await app.ctx.jobs.runDue()
  const first = await messagesOf(app, p)
  assert.equal(first.sms.length, 1)
  assert.equal(first.mail.length, 1)
  // The job runs again as a retry would (its completion lost): nothing more is sent.
  const reset = await app.ctx.db
    .updateTable('jobs')
    .set({ done_at: null, attempts: 0, locked_until: null })
    .where('name', '=', 'messages.notification')
    .executeTakeFirst()
  assert.ok(Number(reset.numUpdatedRows) >= 1)
  await app.ctx.jobs.runDue()
  assert.deepEqual(await messagesOf(app, p), first)
})

test('an SMS provider that fails is retried by the job without mailing twice', async (t) => {
  // The HTTP SMS driver against a local provider that refuses the first message and takes the rest.
  const received: Array<{ to: string; text: string }> = []
  let calls = 0
  const provider = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8')
    })
    req.on('end', () => {
      calls++
      if (calls === 1) {
        res.writeHead(503).end()
        return
      }
      received.push(JSON.parse(body))
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => provider.close(() => resolve())))
  const url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/sms`
  const own = await build(t, { SMS_DRIVER: 'http', SMS_HTTP_URL: url }, { clock: new ManualClock(START) })

  const p = await player(own)
  await paidCourtBooking(own, p)
  await own.ctx.jobs.runDue()
  assert.equal(calls, 1)
  assert.equal(received.length, 0)
  assert.equal((await messagesOf(own, p)).mail.length, 1, 'the mail went although the SMS failed')
  const job = await own.ctx.db
    .selectFrom('jobs')
    .select(['done_at', 'attempts', 'last_error'])
    .where('name', '=', 'messages.notification')
    .executeTakeFirstOrThrow()
  assert.equal(job.done_at, null)
  assert.equal(job.attempts, 1)
  assert.match(String(job.last_error), /503/)

  // The retry's back-off is on the database's clock: make it due now, as time passing would.
  await own.ctx.db
    .updateTable('jobs')
    .set({ run_at: new Date(0) })
    .where('name', '=', 'messages.notification')
    .execute()
  await own.ctx.jobs.runDue()
  assert.equal(received.length, 1)
  assert.equal(received[0].to, p.phone)
  assert.ok(received[0].text.includes('is confirmed.'))
  assert.ok(received[0].text.includes(BS))
  assert.equal((await messagesOf(own, p)).mail.length, 1, 'the retry did not mail again')
  const done = await own.ctx.db
    .selectFrom('notification_deliveries')
    .select(['channel', 'recipient'])
    .orderBy('channel')
    .execute()
  assert.deepEqual(done, [
    { channel: 'mail', recipient: p.email },
    { channel: 'sms', recipient: p.phone },
  ])
})
