import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config.ts'

// Configuration that could not work is refused at start, naming the setting, instead of failing at
// the first message sent.

const refused = (env: Record<string, string>, setting: RegExp) =>
  assert.throws(
    () => loadConfig(env),
    (err: unknown) => err instanceof ConfigError && setting.test(err.message),
  )

const account = JSON.stringify({
  type: 'service_account',
  project_id: 'courtside-test',
  client_email: 'push@courtside-test.iam.gserviceaccount.com',
  private_key: '-----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----\n',
})

test('MAIL_DRIVER=smtp without a usable SMTP_URL is refused', () => {
  refused({ MAIL_DRIVER: 'smtp' }, /SMTP_URL/)
  refused({ MAIL_DRIVER: 'smtp', SMTP_URL: 'mail.example.com' }, /SMTP_URL/)
  assert.equal(loadConfig({ MAIL_DRIVER: 'smtp', SMTP_URL: 'smtp://u:p@mail.example.com:587' }).mail.driver, 'smtp')
  assert.equal(loadConfig({ MAIL_DRIVER: 'log' }).mail.driver, 'log', 'the log driver needs nothing')
})

test('PUSH_DRIVER=fcm without service-account credentials is refused', () => {
  refused({ PUSH_DRIVER: 'fcm' }, /FCM_SERVICE_ACCOUNT/)
  refused({ PUSH_DRIVER: 'fcm', FCM_SERVICE_ACCOUNT: '{not json' }, /FCM_SERVICE_ACCOUNT/)
  refused({ PUSH_DRIVER: 'fcm', FCM_SERVICE_ACCOUNT: '{"project_id":"x"}' }, /FCM_SERVICE_ACCOUNT/)
  assert.equal(loadConfig({ PUSH_DRIVER: 'fcm', FCM_SERVICE_ACCOUNT: account }).push.driver, 'fcm')
})

test('SMS_DRIVER=http without SMS_HTTP_URL is refused', () => {
  refused({ SMS_DRIVER: 'http' }, /SMS_HTTP_URL/)
  assert.equal(loadConfig({ SMS_DRIVER: 'http', SMS_HTTP_URL: 'https://sms.example.com/send' }).sms.driver, 'http')
})

test('every wrong setting is listed at once, not only the first', () => {
  const env = {
    NODE_ENV: 'production',
    PORT: 'eighty',
    RATE_LIMIT_ENABLED: 'maybe',
    APP_URL: 'not a url',
    TRUST_PROXY: '99',
    RETURN_URL_ALLOWLIST: 'javascript:alert(1)',
    MAIL_DRIVER: 'smtp',
    PLATFORM_COMMISSION_PERCENT: '120',
  }
  assert.throws(
    () => loadConfig(env),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError)
      for (const setting of [
        'PORT',
        'RATE_LIMIT_ENABLED',
        'APP_URL',
        'TRUST_PROXY',
        'RETURN_URL_ALLOWLIST',
        'SMTP_URL',
        'PLATFORM_COMMISSION_PERCENT',
        'APP_KEY',
        'METRICS_TOKEN',
        'PAYMENT_DRIVER',
      ]) {
        assert.ok(err.message.includes(setting), `${setting} is named: ${err.message}`)
      }
      return true
    },
  )
  // A single wrong setting reads as before, and a later good load is not disturbed by the earlier one.
  assert.throws(() => loadConfig({ PORT: '-1' }), { message: 'PORT must be an integer between 0 and 65535, got "-1"' })
  assert.equal(loadConfig({ PORT: '8123' }).port, 8123)
})
