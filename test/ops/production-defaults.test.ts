import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { SANDBOX_PREFIX } from '../../src/modules/payments/gateways/index.ts'
import { build } from '../helpers/app.ts'
import { runCli } from './process.ts'

// Production never falls back to a stand-in: the sandbox gateways (payments that cost nothing), the
// log drivers (one-time codes in a file) and an open /metrics (METRICS_TOKEN unset) each need an
// explicit choice there.
// Outside production the defaults stay as they are (zero setup, and what the tests use).

const account = JSON.stringify({
  type: 'service_account',
  project_id: 'courtside-test',
  client_email: 'push@courtside-test.iam.gserviceaccount.com',
  private_key: '-----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----\n',
})

/** Production with real gateways, real message drivers and a metrics token: accepted, with nothing to warn about. */
const PRODUCTION: Record<string, string> = {
  NODE_ENV: 'production',
  APP_KEY: 'a-real-secret',
  APP_URL: 'https://courtside.example',
  PAYMENT_DRIVER: 'live',
  ESEWA_BASE_URL: 'https://epay.esewa.com.np',
  ESEWA_STATUS_URL: 'https://epay.esewa.com.np',
  ESEWA_PRODUCT_CODE: 'NP-ES-COURTSIDE',
  ESEWA_SECRET_KEY: 'esewa-merchant-secret',
  KHALTI_BASE_URL: 'https://khalti.com/api/v2',
  KHALTI_SECRET_KEY: 'live_secret_key_0123',
  FONEPAY_BASE_URL: 'https://clientapi.fonepay.com',
  FONEPAY_MERCHANT_CODE: 'COURTSIDE',
  FONEPAY_SECRET_KEY: 'fonepay-merchant-secret',
  MAIL_DRIVER: 'smtp',
  SMTP_URL: 'smtp://u:p@mail.example.com:587',
  SMS_DRIVER: 'http',
  SMS_HTTP_URL: 'https://sms.example.com/send',
  PUSH_DRIVER: 'fcm',
  FCM_SERVICE_ACCOUNT: account,
  METRICS_TOKEN: 'scrape-token-0123',
}

/** `PRODUCTION` with some settings replaced; undefined removes one. */
const production = (changes: Record<string, string | undefined>) => {
  const env: Record<string, string> = { ...PRODUCTION }
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete env[key]
    else env[key] = value
  }
  return env
}

const refusal = (env: Record<string, string | undefined>) => {
  try {
    loadConfig(env)
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err))
    return err.message
  }
  assert.fail('configuration was accepted')
}

test('production with live gateways and real message drivers starts without warnings', () => {
  const config = loadConfig(PRODUCTION)
  assert.equal(config.gateways.driver, 'live')
  assert.deepEqual([config.mail.driver, config.sms.driver, config.push.driver], ['smtp', 'http', 'fcm'])
  assert.deepEqual(config.startWarnings, [])
})

test('outside production the sandbox and the log drivers stay the defaults, with nothing to opt into', () => {
  for (const env of [{}, { NODE_ENV: 'development' }, { NODE_ENV: 'test' }]) {
    const config = loadConfig(env)
    assert.equal(config.gateways.driver, 'sandbox')
    assert.deepEqual([config.mail.driver, config.sms.driver, config.push.driver], ['log', 'log', 'log'])
    assert.deepEqual(config.startWarnings, [])
    assert.equal(config.metricsToken, undefined)
  }
})

test('production with PAYMENT_DRIVER unset or sandbox is refused', () => {
  const unset = refusal(production({ PAYMENT_DRIVER: undefined }))
  assert.match(unset, /^PAYMENT_DRIVER must be set in production: /)
  assert.match(unset, /set PAYMENT_DRIVER=live .*or PAYMENT_SANDBOX_IN_PRODUCTION=true/)
  assert.match(refusal(production({ PAYMENT_DRIVER: '' })), /^PAYMENT_DRIVER must be set in production/)
  assert.match(refusal(production({ PAYMENT_DRIVER: 'sandbox' })), /^PAYMENT_DRIVER=sandbox in production: /)
  for (const no of ['false', '0', ''])
    assert.match(
      refusal(production({ PAYMENT_DRIVER: undefined, PAYMENT_SANDBOX_IN_PRODUCTION: no })),
      /PAYMENT_DRIVER must be set/,
    )
  assert.match(
    refusal(production({ PAYMENT_DRIVER: undefined, PAYMENT_SANDBOX_IN_PRODUCTION: 'sure' })),
    /PAYMENT_SANDBOX_IN_PRODUCTION must be true or false/,
  )
})

test('PAYMENT_SANDBOX_IN_PRODUCTION=true runs the sandbox in production, with a warning', () => {
  for (const driver of [undefined, 'sandbox']) {
    const config = loadConfig(production({ PAYMENT_DRIVER: driver, PAYMENT_SANDBOX_IN_PRODUCTION: 'true' }))
    assert.equal(config.gateways.driver, 'sandbox')
    assert.equal(config.startWarnings.length, 1)
    assert.match(config.startWarnings[0], /^PAYMENT_SANDBOX_IN_PRODUCTION=true: .*without paying/)
  }
  // The opt-in changes nothing for live payments.
  const live = loadConfig(production({ PAYMENT_SANDBOX_IN_PRODUCTION: 'true' }))
  assert.equal(live.gateways.driver, 'live')
  assert.deepEqual(live.startWarnings, [])
})

test('production with the log driver for mail, SMS or push (unset or log) is refused, naming each', () => {
  const all = refusal(production({ MAIL_DRIVER: undefined, SMS_DRIVER: 'log', PUSH_DRIVER: '' }))
  assert.match(all, /^MAIL_DRIVER=log, SMS_DRIVER=log, PUSH_DRIVER=log in production \(log is the default\): /)
  assert.match(all, /one-time codes/)
  assert.match(all, /set MAIL_DRIVER=smtp, SMS_DRIVER=http, PUSH_DRIVER=fcm, or OUTBOX_LOG_IN_PRODUCTION=true/)
  for (const [key, real] of [
    ['MAIL_DRIVER', 'MAIL_DRIVER=smtp'],
    ['SMS_DRIVER', 'SMS_DRIVER=http'],
    ['PUSH_DRIVER', 'PUSH_DRIVER=fcm'],
  ]) {
    for (const value of [undefined, 'log']) {
      const message = refusal(production({ [key]: value }))
      assert.match(message, new RegExp(`^${key}=log in production .*; set ${real}, or OUTBOX_LOG_IN_PRODUCTION=true`))
      for (const other of ['MAIL_DRIVER', 'SMS_DRIVER', 'PUSH_DRIVER'].filter((k) => k !== key))
        assert.doesNotMatch(message, new RegExp(`${other}=log`), `${key}: only the channels on log are named`)
    }
  }
  assert.match(
    refusal(production({ MAIL_DRIVER: undefined, OUTBOX_LOG_IN_PRODUCTION: 'yes please' })),
    /OUTBOX_LOG_IN_PRODUCTION must be true or false/,
  )
  // A real driver that could not send is still refused for what it lacks.
  assert.match(refusal(production({ SMTP_URL: undefined })), /MAIL_DRIVER=smtp needs SMTP_URL/)
})

test('OUTBOX_LOG_IN_PRODUCTION=true keeps the log drivers in production, with a warning naming them', () => {
  const config = loadConfig(
    production({ MAIL_DRIVER: undefined, SMS_DRIVER: undefined, OUTBOX_LOG_IN_PRODUCTION: 'true' }),
  )
  assert.deepEqual([config.mail.driver, config.sms.driver, config.push.driver], ['log', 'log', 'fcm'])
  assert.equal(config.startWarnings.length, 1)
  assert.match(
    config.startWarnings[0],
    /^OUTBOX_LOG_IN_PRODUCTION=true: MAIL_DRIVER=log, SMS_DRIVER=log; .*OUTBOX_FILE/,
  )
  assert.deepEqual(loadConfig(production({ OUTBOX_LOG_IN_PRODUCTION: 'true' })).startWarnings, [], 'none on log')
})

test('production with nothing chosen names every problem in one refusal', () => {
  const message = refusal({ NODE_ENV: 'production', APP_KEY: 'a-real-secret' })
  assert.match(
    message,
    /^PAYMENT_DRIVER must be set in production: .*; MAIL_DRIVER=log, SMS_DRIVER=log, PUSH_DRIVER=log in .*; METRICS_TOKEN must be set in production: /,
  )
  assert.doesNotMatch(message, /\n/)
  // APP_KEY is still checked first, on its own.
  assert.match(refusal({ NODE_ENV: 'production' }), /^APP_KEY must be set/)
})

test('the server refuses to start in production without a payment driver: one line, exit code 1', async () => {
  const run = await runCli(['src/server.ts'], {
    NODE_ENV: 'production',
    APP_KEY: 'a-real-secret',
    DATA_DIR: `.tmp/production-defaults-${process.pid}`,
    OUTBOX_LOG_IN_PRODUCTION: 'true',
  })
  assert.equal(run.code, 1, run.stdout + run.stderr)
  assert.match(run.stderr, /^Configuration error: PAYMENT_DRIVER must be set in production: [^\n]*\n$/)
})

test('the opted-into stand-ins are logged as warnings at start; the sandbox gateways are mounted', async (t) => {
  const lines: Record<string, unknown>[] = []
  const app = await build(
    t,
    {
      NODE_ENV: 'production',
      APP_KEY: 'a-real-secret',
      LOG_LEVEL: 'info',
      PAYMENT_SANDBOX_IN_PRODUCTION: 'true',
      OUTBOX_LOG_IN_PRODUCTION: 'true',
      METRICS_PUBLIC: 'true',
    },
    { logStream: { write: (line) => lines.push(JSON.parse(line)) } },
  )
  const warnings = lines.filter((l) => l.level === 40).map((l) => String(l.msg))
  assert.equal(warnings.length, 3, JSON.stringify(lines))
  assert.match(warnings[0], /^PAYMENT_SANDBOX_IN_PRODUCTION=true: /)
  assert.match(warnings[1], /^OUTBOX_LOG_IN_PRODUCTION=true: MAIL_DRIVER=log, SMS_DRIVER=log, PUSH_DRIVER=log; /)
  assert.match(warnings[2], /^METRICS_PUBLIC=true: GET \/metrics is served without a token/)
  assert.ok(app.hasRoute({ method: 'GET', url: `${SANDBOX_PREFIX}/gateway_2/pay` }))
})

test('production with live gateways mounts no sandbox and warns about nothing', async (t) => {
  const lines: Record<string, unknown>[] = []
  const app = await build(
    t,
    { ...PRODUCTION, LOG_LEVEL: 'warn' },
    { logStream: { write: (l) => lines.push(JSON.parse(l)) } },
  )
  assert.deepEqual(lines, [])
  assert.ok(!app.hasRoute({ method: 'GET', url: `${SANDBOX_PREFIX}/gateway_2/pay` }))
})

// --- /metrics ---

const scrape = (app: App, authorization?: string) =>
  app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } })

test('production without METRICS_TOKEN is refused, unless METRICS_PUBLIC=true says the network is private', () => {
  for (const token of [undefined, '']) {
    const message = refusal(production({ METRICS_TOKEN: token }))
    assert.match(message, /^METRICS_TOKEN must be set in production: /)
    assert.match(message, /set METRICS_TOKEN .*or METRICS_PUBLIC=true when only a private network reaches the service$/)
    for (const no of ['false', '0', ''])
      assert.match(refusal(production({ METRICS_TOKEN: token, METRICS_PUBLIC: no })), /^METRICS_TOKEN must be set/)
  }
  assert.match(
    refusal(production({ METRICS_TOKEN: undefined, METRICS_PUBLIC: 'maybe' })),
    /METRICS_PUBLIC must be true or false/,
  )
  const open = loadConfig(production({ METRICS_TOKEN: undefined, METRICS_PUBLIC: 'true' }))
  assert.equal(open.metricsToken, undefined)
  assert.equal(open.metricsPublic, true)
  assert.equal(open.startWarnings.length, 1)
  assert.match(open.startWarnings[0], /^METRICS_PUBLIC=true: GET \/metrics is served without a token/)
  // With a token METRICS_PUBLIC changes nothing: the token is required, and there is nothing to warn about.
  assert.deepEqual(loadConfig(production({ METRICS_PUBLIC: 'true' })).startWarnings, [])
})

test('the server refuses to start in production without METRICS_TOKEN: one line naming it, exit code 1', async () => {
  const run = await runCli(['src/server.ts'], {
    ...production({ METRICS_TOKEN: undefined }),
    DATA_DIR: `.tmp/production-defaults-metrics-${process.pid}`,
  })
  assert.equal(run.code, 1, run.stdout + run.stderr)
  assert.match(run.stderr, /^Configuration error: METRICS_TOKEN must be set in production: [^\n]*\n$/)
})

test('production with METRICS_PUBLIC=true and no token: /metrics is open, and every start warns', async (t) => {
  const lines: Record<string, unknown>[] = []
  const app = await build(
    t,
    { ...production({ METRICS_TOKEN: undefined, METRICS_PUBLIC: 'true' }), LOG_LEVEL: 'warn' },
    { logStream: { write: (line) => lines.push(JSON.parse(line)) } },
  )
  const res = await scrape(app)
  assert.equal(res.statusCode, 200)
  assert.match(res.body, /# TYPE http_request_duration_seconds histogram/)
  assert.deepEqual(
    lines.map((l) => String(l.msg).split(':')[0]),
    ['METRICS_PUBLIC=true'],
  )
})

test('production with METRICS_TOKEN: 401 without it or with a wrong one, 200 with it', async (t) => {
  const app = await build(t, { ...PRODUCTION, METRICS_PUBLIC: 'true' })
  for (const authorization of [
    undefined,
    '',
    'Bearer ',
    'Bearer wrong',
    'Bearer scrape-token-012',
    'Bearer scrape-token-01234',
    'Bearer SCRAPE-TOKEN-0123',
    'Basic scrape-token-0123',
    'scrape-token-0123',
  ]) {
    const res = await scrape(app, authorization)
    assert.equal(res.statusCode, 401, String(authorization))
    assert.deepEqual(res.json(), { message: 'Unauthenticated.' })
  }
  for (const authorization of ['Bearer scrape-token-0123', 'bearer scrape-token-0123']) {
    const res = await scrape(app, authorization)
    assert.equal(res.statusCode, 200, authorization)
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/)
    assert.match(res.body, /# TYPE http_request_duration_seconds histogram/)
  }
})

test('outside production /metrics is open without METRICS_TOKEN and needs it when set', async (t) => {
  const open = await build(t)
  assert.equal((await scrape(open)).statusCode, 200)
  const closed = await build(t, { METRICS_TOKEN: 'scrape-token-0123' })
  assert.equal((await scrape(closed)).statusCode, 401)
  assert.equal((await scrape(closed, 'Bearer wrong')).statusCode, 401)
  assert.equal((await scrape(closed, 'Bearer scrape-token-0123')).statusCode, 200)
})
