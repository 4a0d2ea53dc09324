import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config.ts'

test('TRUST_PROXY: unset trusts no proxy; true, a hop count or addresses/CIDRs as Fastify takes them', () => {
  assert.equal(loadConfig({}).trustProxy, false)
  assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false)
  assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true)
  assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2)
  assert.deepEqual(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,fd00::/8,loopback' }).trustProxy, [
    '127.0.0.1',
    '10.0.0.0/8',
    'fd00::/8',
    'loopback',
  ])
  for (const bad of ['yes please', '10.0.0.0/33', '300.1.1.1', '0', '10.0.0.1/8/1', 'example.com']) {
    assert.throws(() => loadConfig({ TRUST_PROXY: bad }), ConfigError, bad)
  }
})

test('account limits and timeouts have defaults and are validated', () => {
  const c = loadConfig({})
  assert.deepEqual(c.accountLimits, { login: 10, otpIdentifier: 5 })
  assert.equal(c.requestTimeoutMs, 60_000)
  assert.equal(c.headersTimeoutMs, 20_000)
  const set = loadConfig({ RATE_LIMIT_LOGIN_ACCOUNT: '3', RATE_LIMIT_OTP_IDENTIFIER: '2', REQUEST_TIMEOUT_MS: '5000' })
  assert.deepEqual(set.accountLimits, { login: 3, otpIdentifier: 2 })
  // The headers timeout never exceeds the request timeout (Node refuses that).
  assert.equal(set.headersTimeoutMs, 5000)
  assert.throws(() => loadConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' }), ConfigError)
  assert.throws(() => loadConfig({ RATE_LIMIT_LOGIN_ACCOUNT: '0' }), ConfigError)
})
