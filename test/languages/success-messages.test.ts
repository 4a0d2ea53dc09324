import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { en } from '../../src/lib/i18n/en.ts'
import { translate } from '../../src/lib/i18n/index.ts'
import { ne } from '../../src/lib/i18n/ne.ts'
import { book, fixedSlot, world } from '../bookings/helpers.ts'
import { createSeries, seriesBody } from '../bookings/series-helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser, daysFromFixedNow, FIXED_NOW } from '../helpers/factories.ts'

// A success answer's `message` in the request's language (issue 50; docs/languages.md, "Success
// messages"): Nepali with Accept-Language: ne or a Nepali user's token, the routes' English byte for
// byte otherwise. The other fields of the answer are the same in both languages.

let app: App
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
})
after(() => app.close())

const NE = { 'accept-language': 'ne-NP,ne;q=0.9,en;q=0.5' }

test('OTP sent: Nepali with Accept-Language ne, the exact English without it or with en', async () => {
  const send = (headers: Record<string, string>, phone: string) =>
    app.inject({ method: 'POST', url: '/api/auth/otp/send', headers, payload: { identifier: phone, type: 'sms' } })
  const english = await send({}, '9841500001')
  assert.equal(english.statusCode, 200, english.body)
  assert.equal(english.body, '{"message":"OTP sent successfully."}')
  const asked = await send({ 'accept-language': 'en-US,en;q=0.9' }, '9841500002')
  assert.equal(asked.body, '{"message":"OTP sent successfully."}')
  const nepali = await send(NE, '9841500003')
  assert.equal(nepali.statusCode, 200, nepali.body)
  assert.deepEqual(nepali.json(), { message: 'OTP सफलतापूर्वक पठाइयो।' })
})

test("a signed-in user's messages: an English user's the exact English, a Nepali user's Nepali", async () => {
  const english = await createUser(app)
  const nepali = await createUser(app)
  const set = await app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: nepali.headers,
    payload: { locale: 'ne' },
  })
  assert.equal(set.statusCode, 200, set.body)
  const password = (user: typeof english, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/profile/password',
      headers: { ...user.headers, ...headers },
      payload: { current_password: user.password, password: 'new-password-1', password_confirmation: 'new-password-1' },
    })
  const first = await password(english)
  assert.equal(first.statusCode, 200, first.body)
  assert.equal(first.body, '{"message":"Password updated successfully."}')
  const second = await password(nepali)
  assert.equal(second.statusCode, 200, second.body)
  assert.deepEqual(second.json(), { message: 'पासवर्ड सफलतापूर्वक परिवर्तन भयो।' })

  const device = (user: typeof english) =>
    app.inject({
      method: 'PUT',
      url: '/api/notifications/device-token',
      headers: user.headers,
      payload: { token: `device-${user.id}` },
    })
  assert.equal((await device(english)).body, '{"message":"Device token saved."}')
  assert.deepEqual((await device(nepali)).json(), { message: 'उपकरणको टोकन सुरक्षित गरियो।' })

  const readAll = (user: typeof english) =>
    app.inject({ method: 'POST', url: '/api/notifications/read-all', headers: user.headers })
  assert.equal((await readAll(english)).body, '{"message":"All notifications marked as read."}')
  assert.deepEqual((await readAll(nepali)).json(), { message: 'सबै सूचनालाई पढिएको भनी चिनो लगाइयो।' })
})

test("a Nepali user's token answers in Nepali without a header; the rest of the answer is unchanged", async () => {
  const w = await world(app, { wallet: 1_000_000 })
  const set = await app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: w.customer.headers,
    payload: { locale: 'ne' },
  })
  assert.equal(set.statusCode, 200, set.body)

  const device = await app.inject({
    method: 'PUT',
    url: '/api/notifications/device-token',
    headers: w.customer.headers,
    payload: { token: 'device-ne' },
  })
  assert.deepEqual(device.json(), { message: 'उपकरणको टोकन सुरक्षित गरियो।' })

  // Paying at the venue: a message of two sentences and the booking's state beside it.
  const pending = (await book(app, w.customer, fixedSlot(w.court.id, 2))).json().data
  const cash = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_type: 'court', booking_id: pending.id, method: 'cash' },
  })
  assert.equal(cash.statusCode, 200, cash.body)
  assert.equal(cash.json().message, 'स्थलमै नगद तिर्नुहोस्। स्थलले भुक्तानी अभिलेख नगरेसम्म बुकिङ बाँकी अवस्थामा रहन्छ।')
  assert.equal(cash.json().data.payment, null)
  assert.equal(cash.json().data.booking.id, pending.id)

  // Paying from the wallet: the message in Nepali, the payment and booking as ever.
  const paid = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: w.customer.headers,
    payload: { booking_type: 'court', booking_id: pending.id, method: 'wallet' },
  })
  assert.equal(paid.statusCode, 200, paid.body)
  assert.equal(paid.json().message, 'भुक्तानी सफल भयो।')
  assert.equal(paid.json().data.payment.method, 'wallet')
  assert.equal(paid.json().data.booking.status, 'confirmed')

  // An English user's identical request, for comparison: the contract's words.
  const other = await createUser(app, { wallet: 1_000_000 })
  const theirs = (await book(app, other, fixedSlot(w.court.id, 3))).json().data
  const english = await app.inject({
    method: 'POST',
    url: '/api/payments/initiate',
    headers: other.headers,
    payload: { booking_type: 'court', booking_id: theirs.id, method: 'wallet' },
  })
  assert.equal(english.json().message, 'Payment successful.')

  // Signing out: the stored language wins over an English header (it is the user's choice).
  const out = await app.inject({
    method: 'POST',
    url: '/api/auth/logout',
    headers: { ...w.customer.headers, 'accept-language': 'en' },
  })
  assert.equal(out.statusCode, 200, out.body)
  assert.deepEqual(out.json(), { message: 'सफलतापूर्वक लग आउट भयो।' })
})

test('an error on a route that answers with a message is translated once, by the error handler', async () => {
  const nepali = await createUser(app)
  await app.inject({ method: 'PUT', url: '/api/profile', headers: nepali.headers, payload: { locale: 'ne' } })
  const english = await createUser(app)
  const wrong = (user: typeof nepali) =>
    app.inject({
      method: 'POST',
      url: '/api/profile/password',
      headers: user.headers,
      payload: { current_password: 'not-the-password', password: 'new-password-1', password_confirmation: 'x' },
    })
  const refused = await wrong(nepali)
  assert.equal(refused.statusCode, 422, refused.body)
  assert.equal(refused.json().message, 'दिइएको विवरण मान्य छैन।')
  assert.deepEqual(Object.keys(refused.json().errors).sort(), Object.keys((await wrong(english)).json().errors).sort())
  assert.equal((await wrong(english)).json().message, 'The given data was invalid.')
})

test("a Nepali customer's series cancel: the count in Devanagari digits; the lines' data unchanged", async () => {
  const w = await world(app)
  await app.inject({ method: 'PUT', url: '/api/profile', headers: w.customer.headers, payload: { locale: 'ne' } })
  const made = await createSeries(app, w.customer, seriesBody(w.court.id, daysFromFixedNow(3), { weeks: 3 }))
  assert.equal(made.statusCode, 201, made.body)
  const cancel = await app.inject({
    method: 'PATCH',
    url: `/api/bookings/series/${made.json().data.id}/cancel`,
    headers: w.customer.headers,
    payload: {},
  })
  assert.equal(cancel.statusCode, 200, cancel.body)
  assert.equal(cancel.json().message, '३ बुकिङ रद्द गरियो।')
  assert.equal(cancel.json().refund_amount, '0.00')
  assert.equal(cancel.json().data.cancelled.length, 3)
  // Each booking's own line is Nepali too (no Latin letters left in it).
  for (const line of cancel.json().data.cancelled as { message: string }[]) {
    assert.doesNotMatch(line.message, /[A-Za-z]/, line.message)
    assert.match(line.message, /रद्द/)
  }
})

test('messages with values: counts, money and the sentences of a series cancel', () => {
  assert.equal(translate('ne', '1 no-show cleared.'), '१ पटक नआएको रेकर्ड हटाइयो।')
  assert.equal(translate('ne', '3 no-shows cleared.'), '३ पटक नआएको रेकर्ड हटाइयो।')
  assert.equal(translate('ne', 'No booking of this series could be cancelled.'), ne['success.series_none'])
  assert.equal(
    translate('ne', '3 bookings cancelled. Rs 4,500.00 refunded to your wallet.'),
    '३ बुकिङ रद्द गरियो। रु ४,५००.०० तपाईंको वालेटमा फिर्ता गरियो।',
  )
  assert.equal(
    translate(
      'ne',
      "1 booking cancelled. Rs 1,500.00 refunded to the customer's wallet. Rs 500.00 paid at the venue is refunded at its desk.",
    ),
    '१ बुकिङ रद्द गरियो। रु १,५००.०० ग्राहकको वालेटमा फिर्ता गरियो। स्थलमा तिरिएको रु ५००.०० त्यहीँको काउन्टरमा फिर्ता हुन्छ।',
  )
  assert.equal(translate('en', '3 bookings cancelled.'), '3 bookings cancelled.')
})

/** Every `message: '…'` literal a route or a payment service answers with (not notifications' or errors'). */
function literalSuccessMessages(): string[] {
  const root = join(import.meta.dirname, '..', '..', 'src', 'modules')
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
    (f) =>
      f.endsWith('.ts') &&
      (/routes/.test(f) || /^(payments\/service|splits\/pay)\.ts$/.test(f)) &&
      // The desk QR's return page is HTML for the payer's phone, not a JSON answer's message.
      f !== join('payments', 'gateway-refund-routes.ts'),
  )
  const found = new Set<string>()
  const text = String.raw`(?:'(?<single>[A-Z][^'\n]*?\.)'|"(?<double>[A-Z][^"\n]*?\.)")`
  const shapes = [
    // { message: '…' } and the callback table's completed / failed / pending.
    new RegExp(String.raw`(?:\bmessage|^\s*(?:completed|failed|pending)): ${text}`, 'gm'),
    // A ternary's branches on lines of their own (the refund's answer) or inline (email verification).
    new RegExp(String.raw`^\s*[?:] ${text}`, 'gm'),
    new RegExp(String.raw`\? ${text} : `, 'g'),
    new RegExp(String.raw`\? '[^'\n]*' : ${text}`, 'g'),
  ]
  for (const f of files) {
    const source = readFileSync(join(root, f), 'utf8')
    for (const shape of shapes) for (const m of source.matchAll(shape)) found.add(m.groups!.single ?? m.groups!.double!)
  }
  return [...found].filter((m) => m !== 'Not found.')
}

test('every success message a route writes has its Nepali; English in is English out', () => {
  const messages = literalSuccessMessages()
  assert.ok(messages.length >= 40, `${messages.length} messages found`)
  for (const text of ['OTP sent successfully.', 'Refund sent back through Khalti.', 'Webhook deleted.']) {
    assert.ok(messages.includes(text), text)
  }
  const english = new Set(Object.values(en) as string[])
  for (const text of messages) {
    assert.ok(english.has(text), `not in the catalogue: ${text}`)
    assert.equal(translate('en', text), text)
    const nepali = translate('ne', text)
    assert.notEqual(nepali, text, text)
    assert.doesNotMatch(nepali, /\b(the|was|is|successfully|deleted)\b/i, `${text} → ${nepali}`)
  }
})

test('only routes that answer with a message have the hook: none on /health or the hot reads', () => {
  const tree = app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n')
  /** The hooks printed under each line naming `route` (a path's last segments and method). */
  const hooksOf = (route: string) =>
    tree.flatMap((line, i) => {
      if (!line.endsWith(route) && !line.includes(`${route} `)) return []
      const hooks: string[] = []
      for (let j = i + 1; j < tree.length && tree[j].includes('•'); j++) hooks.push(tree[j])
      return [hooks.join('\n')]
    })
  for (const hot of ['health (GET)', 'api/venues (GET)', '/availability (GET)', '/:venue (GET)']) {
    const found = hooksOf(hot)
    assert.ok(found.length > 0, hot)
    for (const hooks of found) assert.doesNotMatch(hooks, /preSerialization|successInLanguage/, hot)
  }
  const otp = hooksOf('api/auth/otp/send (POST)')
  assert.equal(otp.length, 1)
  assert.match(otp[0], /\(preSerialization\) \["successInLanguage\(\)"\]/)
})
