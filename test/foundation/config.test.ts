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
