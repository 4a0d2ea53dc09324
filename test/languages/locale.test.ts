import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { acceptedLocale } from '../../src/lib/i18n/index.ts'
import { assertUserShape, bearer, outbox } from '../accounts/helpers.ts'
import { build } from '../helpers/app.ts'
import { createUser } from '../helpers/factories.ts'

// A user's language (issue 50; docs/languages.md): users.locale, set by PUT /api/profile and shown
// on the User; the answers to a request follow the token user's language, else Accept-Language.
// The contract's English bodies are unchanged by default.

let app: App
before(async () => {
  app = await build()
})
after(() => app.close())

const setLocale = (headers: Record<string, string>, locale: unknown) =>
  app.inject({ method: 'PUT', url: '/api/profile', headers, payload: { locale } })

test('PUT /api/profile takes locale "en" or "ne", the User shows it; anything else is 422', async () => {
  const user = await createUser(app)
  const me = await app.inject({ method: 'GET', url: '/api/profile', headers: user.headers })
  assertUserShape(me.json().data)
  assert.equal(me.json().data.locale, 'en', 'English by default')

  const ne = await setLocale(user.headers, 'ne')
  assert.equal(ne.statusCode, 200, ne.body)
  assertUserShape(ne.json().data)
  assert.equal(ne.json().data.locale, 'ne')
  const stored = await app.ctx.db.selectFrom('users').select('locale').where('id', '=', user.id).executeTakeFirst()
  assert.equal(stored?.locale, 'ne')

  // Refused values, in the contract's English (an English reader's request: no Accept-Language).
  const other = await createUser(app)
  for (const bad of ['fr', 'NE', 'ne-NP', '', 1, true, null]) {
    const res = await setLocale(other.headers, bad)
    assert.equal(res.statusCode, 422, `${JSON.stringify(bad)}: ${res.body}`)
    assert.deepEqual(res.json(), {
      message: 'The given data was invalid.',
      errors: { locale: ['The selected locale is invalid.'] },
    })
  }
  // Guests cannot set one.
  assert.equal((await app.inject({ method: 'PUT', url: '/api/profile', payload: { locale: 'ne' } })).statusCode, 401)
})

test('a validation error is the contract English without Accept-Language and Nepali with "ne", same keys', async () => {
  const payload = { name: 'Asha', email: 'not-an-email', password: 'short', password_confirmation: 'short' }
  const english = await app.inject({ method: 'POST', url: '/api/auth/register', payload })
  assert.equal(english.statusCode, 422)
  assert.deepEqual(english.json(), {
    message: 'The given data was invalid.',
    errors: {
      email: ['The email field must be a valid email address.'],
      password: ['The password field must be at least 8 characters.'],
    },
  })
  const asked = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload,
    headers: { 'accept-language': 'en-US,en;q=0.9' },
  })
  assert.deepEqual(asked.json(), english.json(), 'English asked for is the same English')

  const nepali = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload,
    headers: { 'accept-language': 'ne-NP,ne;q=0.9,en;q=0.5' },
  })
  assert.equal(nepali.statusCode, 422)
  assert.deepEqual(nepali.json(), {
    message: 'दिइएको विवरण मान्य छैन।',
    errors: {
      email: ['इमेल फिल्ड मान्य इमेल ठेगाना हुनुपर्छ।'],
      password: ['पासवर्ड फिल्डमा कम्तीमा ८ अक्षर हुनुपर्छ।'],
    },
  })
  // A 404 and a 401 too.
  const missing = await app.inject({ method: 'GET', url: '/api/venues/999999', headers: { 'accept-language': 'ne' } })
  assert.deepEqual(missing.json(), { message: 'भेटिएन।' })
  const guest = await app.inject({ method: 'GET', url: '/api/profile', headers: { 'accept-language': 'ne' } })
  assert.equal(guest.statusCode, 401)
  assert.deepEqual(guest.json(), { message: 'साइन इन गर्नुहोस्।' })
})

test("a Nepali user's token answers in Nepali; the switch takes effect on the very next request", async () => {
  const user = await createUser(app)
  const topup = () =>
    app.inject({
      method: 'POST',
      url: '/api/wallet/topup',
      headers: user.headers,
      payload: { amount: 5, method: 'gateway_1' },
    })
  const before = await topup()
  assert.equal(before.statusCode, 422)
  assert.deepEqual(before.json(), {
    message: 'The given data was invalid.',
    errors: { amount: ['The amount field must be between 10 and 100000.'] },
  })
  assert.equal((await setLocale(user.headers, 'ne')).statusCode, 200)
  const after = await topup()
  assert.equal(after.statusCode, 422)
  assert.deepEqual(after.json(), {
    message: 'दिइएको विवरण मान्य छैन।',
    errors: { amount: ['रकम फिल्ड १० देखि १००००० सम्म हुनुपर्छ।'] },
  })
  // The token user's language wins over the header.
  const header = await app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    headers: { ...user.headers, 'accept-language': 'en' },
    payload: { amount: 5, method: 'gateway_1' },
  })
  assert.equal(header.json().message, 'दिइएको विवरण मान्य छैन।')
  // Back to English: the contract's words again.
  assert.equal((await setLocale(user.headers, 'en')).statusCode, 200)
  assert.deepEqual((await topup()).json(), before.json())
})

test('registering in Nepali keeps Nepali: the account, its verification mail and its one-time codes', async () => {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    headers: { 'accept-language': 'ne' },
    payload: {
      name: 'Sita Rai',
      email: 'sita.locale@example.com',
      phone: '+9779811122233',
      password: 'secret-pass',
      password_confirmation: 'secret-pass',
    },
  })
  assert.equal(res.statusCode, 201, res.body)
  assert.equal(res.json().data.locale, 'ne')
  const mail = (await outbox(app)).filter((m) => m.to === 'sita.locale@example.com')
  assert.equal(mail.length, 1)
  assert.equal(mail[0].subject, 'तपाईंको इमेल ठेगाना प्रमाणित गर्नुहोस्')
  assert.match(mail[0].body, /^यो लिङ्क खोलेर तपाईंको इमेल ठेगाना पुष्टि गर्नुहोस् \(६० मिनेटसम्म चल्छ\):/)
  assert.match(mail[0].body, /\/api\/email\/verify\/\d+\/[0-9a-f]{40}\?expires=\d+&signature=[0-9a-f]{64}/)

  // The OTP SMS to the account's phone is in its language, whatever the sender's header says.
  const sent = await app.inject({
    method: 'POST',
    url: '/api/auth/otp/send',
    payload: { identifier: '+9779811122233', type: 'sms' },
  })
  assert.equal(sent.statusCode, 200, sent.body)
  const sms = (await outbox(app)).filter((m) => m.to === '+9779811122233')
  assert.equal(sms.length, 1)
  assert.match(sms[0].body, /^तपाईंको Courtside प्रमाणीकरण कोड \d{6} हो। यसको म्याद १० मिनेटमा सकिन्छ। यो कसैलाई नदिनुहोस्।$/)

  // An identifier with no account: the sender's Accept-Language; English without one (as before).
  await app.inject({
    method: 'POST',
    url: '/api/auth/otp/send',
    headers: { 'accept-language': 'ne' },
    payload: { identifier: '+9779811122244', type: 'sms' },
  })
  await app.inject({
    method: 'POST',
    url: '/api/auth/otp/send',
    payload: { identifier: '+9779811122255', type: 'sms' },
  })
  const all = await outbox(app)
  assert.match(all.find((m) => m.to === '+9779811122244')?.body ?? '', /^तपाईंको Courtside प्रमाणीकरण कोड \d{6} हो।/)
  assert.match(
    all.find((m) => m.to === '+9779811122255')?.body ?? '',
    /^Your Courtside verification code is \d{6}\. It expires in 10 minutes\. Never share it with anyone\.$/,
  )
  // The token of the new account answers in Nepali.
  const me = await app.inject({
    method: 'PUT',
    url: '/api/profile',
    headers: bearer(res.json().token),
    payload: { locale: 'xx' },
  })
  assert.equal(me.json().message, 'दिइएको विवरण मान्य छैन।')
  assert.deepEqual(me.json().errors, { locale: ['छानिएको भाषा मान्य छैन।'] })
})

test('Accept-Language: the first of English or Nepali by q, English otherwise', () => {
  assert.equal(acceptedLocale(undefined), 'en')
  assert.equal(acceptedLocale(''), 'en')
  assert.equal(acceptedLocale('ne'), 'ne')
  assert.equal(acceptedLocale('NE-np'), 'ne')
  assert.equal(acceptedLocale('fr-FR, ne;q=0.8, en;q=0.5'), 'ne')
  assert.equal(acceptedLocale('en;q=0.4, ne;q=0.6'), 'ne')
  assert.equal(acceptedLocale('ne;q=0, en'), 'en')
  assert.equal(acceptedLocale('hi-IN, fr'), 'en')
  assert.equal(acceptedLocale('*'), 'en')
})

test("the sandbox payment page is in the payer's language: their account's, else the browser's", async () => {
  const payer = await createUser(app)
  assert.equal((await setLocale(payer.headers, 'ne')).statusCode, 200)
  const topup = await app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    headers: payer.headers,
    payload: { amount: '500.00', method: 'gateway_2' },
  })
  assert.equal(topup.statusCode, 201, topup.body)
  const page = await app.inject({
    method: 'GET',
    url: new URL(topup.json().payment_url).pathname + new URL(topup.json().payment_url).search,
  })
  assert.equal(page.statusCode, 200)
  assert.match(page.body, /<html lang="ne-NP">/)
  assert.match(page.body, /<title>Khalti स्यान्डबक्स<\/title>/)
  assert.ok(page.body.includes('यो परीक्षणको भुक्तानी हो; कुनै पैसा सर्दैन।'), page.body)
  assert.ok(page.body.includes('<strong>रु ५००.००</strong>'), page.body)
  assert.ok(page.body.includes('>तिर्नुहोस्</button>'))

  // An unknown payment: the browser's language; English (as before) without one.
  const unknown = (headers: Record<string, string>) =>
    app.inject({ method: 'GET', url: '/api/payments/sandbox/gateway_2/pay?pidx=nope', headers })
  const nepali = await unknown({ 'accept-language': 'ne' })
  assert.equal(nepali.statusCode, 404)
  assert.ok(nepali.body.includes('<p>यो भुक्तानी चिनिएन।</p>'), nepali.body)
  const english = await unknown({})
  assert.ok(english.body.includes('<title>Khalti sandbox</title>'), english.body)
  assert.ok(english.body.includes('<p>Unknown payment.</p>'), english.body)
})
