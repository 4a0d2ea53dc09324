import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { translate } from '../../src/lib/i18n/index.ts'
import { renderMessage } from '../../src/modules/notifications/messages/index.ts'
import { outbox } from '../accounts/helpers.ts'
import { notificationsOf } from '../bookings/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, FIXED_NOW } from '../helpers/factories.ts'
import { matchWorld, openMatch, post } from './helpers.ts'

// The match notifications also go out by SMS (the phone on file) and email (a verified email), in
// the recipient's language (users.locale), as the booking messages do; the in-app texts of the
// match and split notifications are in the recipient's language too (docs/matches.md, "Notifications").

let app: App
const clock = new ManualClock(FIXED_NOW)
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

let phones = 0
const newPhone = () => `97${String(process.pid % 100000).padStart(5, '0')}${String(++phones).padStart(3, '0')}`

/** Gives a user a phone, a verified email, a language and their SMS switch; returns where they read. */
async function reachable(userId: number, opts: { locale: 'en' | 'ne'; sms?: boolean }) {
  const phone = newPhone()
  const u = await app.ctx.db
    .updateTable('users')
    .set({
      phone,
      email_verified_at: app.ctx.clock.now(),
      locale: opts.locale,
      notify_sms: opts.sms ?? true,
      notify_email: true,
    })
    .where('id', '=', userId)
    .returning(['email'])
    .executeTakeFirstOrThrow()
  return { phone, email: u.email }
}

async function messagesOf(p: { phone: string; email: string }) {
  const all = await outbox(app)
  return {
    sms: all.filter((e) => e.channel === 'sms' && e.to === p.phone),
    mail: all.filter((e) => e.channel === 'mail' && e.to === p.email),
  }
}

const messageOf = async (userId: number, type: string) =>
  String((await notificationsOf(app, userId)).find((n) => n.type === type)?.data.message)

test('a Nepali organizer reads MatchJoined and SplitSharePaid in Nepali, in the app, by SMS and by email', async () => {
  const w = await matchWorld(app, { total: 100000 })
  const to = await reachable(w.organizer.id, { locale: 'ne' })
  const m = await openMatch(app, w.organizer, w.booking.id)
  const player = await createUser(app, { name: 'Sita Gurung', wallet: 100000 })
  const res = await post(app, player, `/api/matches/${m.id}/join`, {})
  assert.equal(res.statusCode, 200, res.body)

  const joined = (await notificationsOf(app, w.organizer.id)).find((n) => n.type === 'MatchJoined')!
  assert.match(String(joined.data.message), /^Sita Gurung .+ मा .+ को फुटसल खेलमा जोडिनुभयो।$/)
  assert.ok(String(joined.data.message).includes(w.venue.name))
  assert.equal(joined.data.booking_id, w.booking.id)
  assert.equal(joined.data.booking_type, 'court')
  assert.equal(joined.data.player_name, 'Sita Gurung')
  const paid = await messageOf(w.organizer.id, 'SplitSharePaid')
  assert.match(paid, /^Sita Gurung ले .+ को बुकिङ .+ मा रु २५०\.०० तिर्नुभयो। ४ मध्ये ३ भाग अझै तिर्न बाँकी छन्;/)

  // Nothing is sent inside the request: the job sends it.
  assert.deepEqual(await messagesOf(to), { sms: [], mail: [] })
  await app.ctx.jobs.runDue()
  const { sms, mail } = await messagesOf(to)
  assert.equal(sms.length, 1, JSON.stringify(sms))
  assert.equal(mail.length, 1)
  assert.ok(sms[0].body.startsWith('Sita Gurung तपाईंको फुटसल खेलमा जोडिनुभयो।'), sms[0].body)
  assert.ok(sms[0].body.includes(`स्थल: ${w.venue.name}`), sms[0].body)
  assert.ok(sms[0].body.includes(`कोर्ट: ${w.court.name}`), sms[0].body)
  assert.match(sms[0].body, /समय: .*६:००/)
  assert.equal(mail[0].subject, `तपाईंको फुटसल खेलमा एक खेलाडी जोडिए: ${w.venue.name}`)
  assert.ok(mail[0].body.startsWith('नमस्ते Organizer Rai,'), mail[0].body)
  assert.ok(mail[0].body.includes('Sita Gurung तपाईंको फुटसल खेलमा जोडिनुभयो।'))
  // The split payment's notification has no message of its own: one SMS, one mail.
  await app.ctx.jobs.runDue()
  assert.equal((await messagesOf(to)).sms.length, 1)
})

test('an English organizer reads MatchJoined in English, in the app, by SMS and by email', async () => {
  const w = await matchWorld(app, { total: 100000 })
  const to = await reachable(w.organizer.id, { locale: 'en' })
  const m = await openMatch(app, w.organizer, w.booking.id)
  const player = await createUser(app, { name: 'Hari Thapa', wallet: 100000 })
  assert.equal((await post(app, player, `/api/matches/${m.id}/join`, {})).statusCode, 200)

  const date = w.date
  assert.equal(
    await messageOf(w.organizer.id, 'MatchJoined'),
    `Hari Thapa joined the futsal match at ${w.venue.name} on ${date} 18:00:00.`,
  )
  assert.equal(
    await messageOf(w.organizer.id, 'SplitSharePaid'),
    `Hari Thapa paid Rs 250.00 of booking ${m.booking.booking_number} on ${date} at 18:00. 3 of 4 shares are still unpaid; you can pay the rest at once (settle).`,
  )
  await app.ctx.jobs.runDue()
  const { sms, mail } = await messagesOf(to)
  assert.equal(sms.length, 1)
  assert.equal(mail.length, 1)
  assert.ok(sms[0].body.startsWith('Hari Thapa joined your futsal match.\n'), sms[0].body)
  assert.ok(sms[0].body.includes(`Venue: ${w.venue.name}`))
  assert.ok(sms[0].body.includes(`Court: ${w.court.name}`))
  assert.ok(sms[0].body.includes('Time: 6:00 PM–7:00 PM'), sms[0].body)
  assert.equal(mail[0].subject, `A player joined your futsal match: ${w.venue.name}`)
  assert.ok(mail[0].body.startsWith('Hello Organizer Rai,'))
})

test('MatchFull reaches every player in their own language; a player with notify_sms off gets the email only', async () => {
  const w = await matchWorld(app, { total: 100000 })
  const organizer = await reachable(w.organizer.id, { locale: 'en', sms: false })
  const m = await openMatch(app, w.organizer, w.booking.id, { players_total: 2 })
  const player = await createUser(app, { name: 'Gita Magar', wallet: 100000 })
  const joiner = await reachable(player.id, { locale: 'ne' })
  assert.equal((await post(app, player, `/api/matches/${m.id}/join`, {})).statusCode, 200)

  assert.equal(
    await messageOf(w.organizer.id, 'MatchFull'),
    `The futsal match at ${w.venue.name} on ${w.date} 18:00:00 is full: every spot is taken.`,
  )
  assert.match(await messageOf(player.id, 'MatchFull'), /को फुटसल खेल भरियो: सबै ठाउँ लिइसकियो।$/)
  await app.ctx.jobs.runDue()

  const mine = await messagesOf(organizer)
  assert.equal(mine.sms.length, 0, 'notify_sms off: no SMS')
  assert.equal(mine.mail.length, 1)
  assert.equal(mine.mail[0].subject, `Your futsal match is full: ${w.venue.name}`)
  assert.ok(mine.mail[0].body.includes('Your futsal match is full: every spot is taken.'))
  const theirs = await messagesOf(joiner)
  assert.equal(theirs.sms.length, 1)
  assert.ok(theirs.sms[0].body.startsWith('तपाईंको फुटसल खेल भरियो: सबै ठाउँ लिइसकियो।'), theirs.sms[0].body)
  assert.equal(theirs.mail.length, 1)
  assert.equal(theirs.mail[0].subject, `तपाईंको फुटसल खेल भरियो: ${w.venue.name}`)
})

test('a player who left, and a result to confirm, are sent by SMS in the reader’s language', async () => {
  const w = await matchWorld(app, { total: 100000 })
  const to = await reachable(w.organizer.id, { locale: 'ne' })
  const m = await openMatch(app, w.organizer, w.booking.id)
  const player = await createUser(app, { name: 'Ram Karki', wallet: 100000 })
  assert.equal((await post(app, player, `/api/matches/${m.id}/join`, {})).statusCode, 200)
  assert.equal((await post(app, player, `/api/matches/${m.id}/leave`, {})).statusCode, 200)
  assert.match(
    await messageOf(w.organizer.id, 'MatchPlayerLeft'),
    /^Ram Karki .+ फुटसल खेलबाट निस्कनुभयो; एउटा ठाउँ फेरि खाली छ।$/,
  )
  await app.ctx.jobs.runDue()
  const { sms } = await messagesOf(to)
  assert.ok(
    sms.some((s) => s.body.startsWith('Ram Karki तपाईंको फुटसल खेलबाट निस्कनुभयो; एउटा ठाउँ फेरि खाली छ।')),
    JSON.stringify(sms),
  )
})

test('deadline near and result to confirm: the in-app sentence and the SMS in both languages', () => {
  const at = 'the futsal match at Arena One on 2026-04-14 19:00:00'
  assert.equal(
    translate('ne', `T${at.slice(1)} still has open spots and its pay deadline is near.`),
    'Arena One मा १४ अप्रिल २०२६, साँझ ७:०० को फुटसल खेलमा अझै ठाउँ खाली छ र भुक्तानीको अन्तिम समय नजिक छ।',
  )
  assert.equal(
    translate('ne', `Sita reported the result of ${at}. Please confirm it.`),
    'Sita ले Arena One मा १४ अप्रिल २०२६, साँझ ७:०० को फुटसल खेलको नतिजा पठाउनुभयो। कृपया पुष्टि गर्नुहोस्।',
  )
  const input = {
    name: 'Sita',
    booking: {
      kind: 'court' as const,
      bookingNumber: 'BK-1',
      venue: 'Arena One',
      place: 'Court 1',
      date: '2026-04-14',
      start: '19:00',
      end: '20:00',
      total: 100000,
      paid: 25000,
    },
    data: { sport: 'futsal', player_name: 'Hari' },
  }
  const en = renderMessage('match_deadline_near', 'en', input)
  assert.ok(en.sms.startsWith('Your futsal match still has open spots and its pay deadline is near'), en.sms)
  assert.ok(en.sms.includes('Date: Tue 14 Apr 2026 (1 Baisakh 2083 BS)'), en.sms)
  const ne = renderMessage('match_result_to_confirm', 'ne', input)
  assert.ok(ne.sms.startsWith('Hari ले तपाईंको फुटसल खेलको नतिजा पठाउनुभयो।'), ne.sms)
  assert.ok(ne.sms.includes('समय: साँझ ७:००–राति ८:००'), ne.sms)
  assert.equal(ne.subject, 'तपाईंको फुटसल खेलको नतिजा पुष्टि गर्नुहोस्: Arena One')
})
