import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isForbiddenAddress, urlProblem, vetTarget } from '../../src/modules/webhooks/address.ts'
import { RETRY_DELAYS_MS } from '../../src/modules/webhooks/deliver.ts'
import { postTo } from '../../src/modules/webhooks/http.ts'
import { receiver } from './helpers.ts'

// The SSRF rules on their own: which addresses a delivery may connect to, and which URLs are refused.

test('loopback, private, link-local, unique-local, unspecified, multicast and reserved addresses are refused', () => {
  for (const address of [
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '198.18.0.1',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456:789a::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:c0a8:0101::1',
    'not-an-address',
  ]) {
    assert.equal(isForbiddenAddress(address), true, address)
  }
})

test('public IPv4 and IPv6 addresses are allowed', () => {
  for (const address of [
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ]) {
    assert.equal(isForbiddenAddress(address), false, address)
  }
})

test('webhook URLs: http(s) only, no credentials, public literal addresses when private ones are not allowed', () => {
  assert.equal(urlProblem('https://example.com/hooks', false), null)
  assert.equal(urlProblem('http://example.com:8080/a?b=c', false), null)
  assert.match(urlProblem('ftp://example.com/', false)!, /http or https/)
  assert.match(urlProblem('file:///etc/passwd', false)!, /http or https/)
  assert.match(urlProblem('not a url', false)!, /http or https/)
  assert.match(urlProblem('https://user:pass@example.com/', false)!, /user name or password/)
  assert.match(urlProblem('http://127.0.0.1:9000/', false)!, /public/)
  assert.match(urlProblem('http://[::1]/', false)!, /public/)
  assert.match(urlProblem('http://[::ffff:169.254.169.254]/', false)!, /public/)
  assert.match(urlProblem('http://localhost:3000/', false)!, /public/)
  assert.equal(urlProblem('http://127.0.0.1:9000/', true), null)
})

test('the host is resolved at send time and every address it resolves to must be public', async () => {
  await assert.rejects(vetTarget(new URL('http://localhost:1/'), false), /not a public address/)
  await assert.rejects(vetTarget(new URL('http://[::1]:1/'), false), /not a public address/)
  assert.deepEqual(await vetTarget(new URL('http://127.0.0.1:1/'), true), { address: '127.0.0.1', family: 4 })
  assert.deepEqual(await vetTarget(new URL('http://8.8.8.8/'), false), { address: '8.8.8.8', family: 4 })
})

test('the retry schedule backs off exponentially and ends 24 hours after the first attempt', () => {
  assert.deepEqual(RETRY_DELAYS_MS.slice(0, 6), [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000])
  for (let i = 1; i < RETRY_DELAYS_MS.length - 1; i++) assert.ok(RETRY_DELAYS_MS[i] > RETRY_DELAYS_MS[i - 1])
  assert.equal(
    RETRY_DELAYS_MS.reduce((a, b) => a + b, 0),
    24 * 3_600_000,
  )
})

test('the request connects to the vetted address, never resolving the name again (DNS rebinding)', async () => {
  const r = await receiver()
  try {
    const port = new URL(r.url).port
    // .invalid never resolves: the request can only have gone to the address it was given.
    const url = new URL(`http://rebinding.invalid:${port}/hooks?x=1`)
    const res = await postTo(url, { address: '127.0.0.1', family: 4 }, { 'x-test': 'yes' }, '{"a":1}', 2000)
    assert.equal(res.status, 204)
    assert.equal(r.received.length, 1)
    assert.equal(r.received[0].headers.host, `rebinding.invalid:${port}`)
    assert.equal(r.received[0].headers['x-test'], 'yes')
    assert.equal(r.received[0].body, '{"a":1}')
  } finally {
    await r.close()
  }
})
