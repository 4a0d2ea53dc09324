import assert from 'node:assert/strict'
import { test } from 'node:test'
import { type MessageKind, renderMessage } from '../../src/modules/notifications/messages/index.ts'

// Each booking message (SMS and mail) in Nepali: the six kinds, written from the same facts as
// English, with the web app's dates (weekday, AD and BS), 12-hour venue times, Devanagari digits
// and रु, and no ISO timestamp (docs/languages.md). English is test/notifications/messages.test.ts's.

const booking = {
  kind: 'court' as const,
  bookingNumber: 'BK-2026-000042',
  venue: 'Kathmandu Futsal Hub',
  place: 'Court A',
  date: '2026-04-14',
  start: '19:00:00',
  end: '20:30:00',
  total: 150_000,
  paid: 100_000,
}

const cases: Array<[MessageKind, Record<string, unknown>, string[]]> = [
  ['booking_confirmed', {}, ['पक्का भयो', 'तिरिएको: रु १,०००.००', 'स्थलमा तिर्न बाँकी: रु ५००.००']],
  [
    'booking_cancelled',
    { refund_amount: '1000.00', cancel_reason: 'Payment not received' },
    ['रद्द गरियो। कारण: भुक्तानी प्राप्त भएन।', 'फिर्ता: रु १,०००.००'],
  ],
  [
    'booking_refunded',
    { refund_amount: '250.50', refunded_to: 'desk' },
    ['रु २५०.५० स्थलको काउन्टरमा', 'फिर्ता: रु २५०.५०'],
  ],
  ['waitlist_offer', { expires_at: '2026-04-13 07:44:41' }, ['१३ अप्रिल २०२६, बिहान ७:४४ सम्म', 'तिर्नुपर्ने: रु ५००.००']],
  ['series_payment_due', { pay_by: '2026-04-12 19:00' }, ['१२ अप्रिल २०२६, साँझ ७:०० भित्र', 'तिर्न बाँकी: रु ५००.००']],
  ['booking_reminder', {}, ['सम्झना: तपाईंको बुकिङ BK-2026-000042', 'तिरिएको: रु १,०००.००']],
]

test('every booking message has its Nepali text, with dates, times and money as the web app writes them', () => {
  for (const [kind, data, expected] of cases) {
    const m = renderMessage(kind, 'ne', { name: 'सीता', booking, data })
    for (const text of [m.sms, m.mail]) {
      assert.ok(text.includes('स्थल: Kathmandu Futsal Hub'), `${kind}: ${text}`)
      assert.ok(text.includes('कोर्ट: Court A'), `${kind}: ${text}`)
      assert.ok(text.includes('मिति: मंगलबार, १४ अप्रिल २०२६ (१ वैशाख २०८३)'), `${kind}: ${text}`)
      assert.ok(text.includes('समय: साँझ ७:००–राति ८:३०'), `${kind}: ${text}`)
      for (const part of expected) assert.ok(text.includes(part), `${kind}: "${part}" in ${text}`)
      assert.doesNotMatch(text, /\d{4}-\d{2}-\d{2}|\d:\d{2}:\d{2}|\bRs\b|\b(AM|PM)\b/, `${kind}: ${text}`)
    }
    assert.match(m.mail, /^नमस्ते सीता,\n\n/)
    assert.ok(m.subject.length > 0 && !/\b(Booking|Reminder|Refund)\b/.test(m.subject), `${kind}: ${m.subject}`)
    // English from the same facts is still English.
    assert.match(renderMessage(kind, 'en', { name: 'Sita', booking, data }).sms, /Venue: Kathmandu Futsal Hub/)
  }
})
