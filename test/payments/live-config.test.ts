import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config.ts'

// Live payments in production refuse to start with the public test keys or the UAT default URLs.

const LIVE = {
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
  // Mail, SMS, push and /metrics are not what these tests are about (test/ops/production-defaults.test.ts).
  OUTBOX_LOG_IN_PRODUCTION: 'true',
  METRICS_TOKEN: 'scrape-token-0123',
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

test('production with real keys and explicit URLs starts; the eSewa form and status API are separate', () => {
  const config = loadConfig(LIVE)
  assert.equal(config.gateways.esewa.baseUrl, 'https://epay.esewa.com.np')
  assert.equal(config.gateways.esewa.statusUrl, 'https://epay.esewa.com.np')
  const uat = loadConfig({}).gateways.esewa
  assert.equal(uat.baseUrl, 'https://rc-epay.esewa.com.np')
  assert.equal(uat.statusUrl, 'https://rc.esewa.com.np')
})

test('production refuses live payments with the public test keys', () => {
  for (const [key, value] of [
    ['ESEWA_SECRET_KEY', '8gBm/:&EnhH.1/q'],
    ['ESEWA_PRODUCT_CODE', 'EPAYTEST'],
    ['KHALTI_SECRET_KEY', 'test_secret_key'],
    ['FONEPAY_MERCHANT_CODE', 'NBQM'],
    ['FONEPAY_SECRET_KEY', 'a7e3512f5032480a83137793cb2021dc'],
  ]) {
    assert.match(refusal({ ...LIVE, [key]: value }), new RegExp(`PAYMENT_DRIVER=live in production: .*${key}`))
    // Unset falls back to the same test value.
    assert.match(refusal({ ...LIVE, [key]: undefined }), new RegExp(key))
  }
})

test('production refuses live payments without its URLs, naming every one missing', () => {
  const message = refusal({ ...LIVE, ESEWA_STATUS_URL: undefined, KHALTI_BASE_URL: '', APP_URL: undefined })
  assert.match(message, /set APP_URL, ESEWA_STATUS_URL, KHALTI_BASE_URL/)
  for (const key of ['ESEWA_BASE_URL', 'FONEPAY_BASE_URL'])
    assert.match(refusal({ ...LIVE, [key]: undefined }), new RegExp(key))
})

test('the sandbox, and live mode outside production, keep the test defaults', () => {
  assert.equal(
    loadConfig({
      ...LIVE,
      PAYMENT_DRIVER: 'sandbox',
      PAYMENT_SANDBOX_IN_PRODUCTION: 'true',
      KHALTI_SECRET_KEY: undefined,
    }).gateways.driver,
    'sandbox',
  )
  assert.equal(loadConfig({ PAYMENT_DRIVER: 'live' }).gateways.khalti.secretKey, 'test_secret_key')
})
