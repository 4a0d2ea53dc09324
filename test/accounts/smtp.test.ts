import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import { SMTPServer } from 'smtp-server'
import { build } from '../helpers/app.ts'

// The SMTP mail driver against a real (local) SMTP server.
test('with MAIL_DRIVER=smtp an OTP mail arrives at the SMTP server', async (t) => {
  const received: Array<{ from: string; to: string[]; data: string }> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const port = (server.server.address() as AddressInfo).port

  const app = await build(t, {
    MAIL_DRIVER: 'smtp',
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: 'Courtside <no-reply@courtside.test>',
  })
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/otp/send',
    payload: { identifier: 'smtp-user@example.com', type: 'email' },
  })
  assert.equal(res.statusCode, 200)
  assert.equal(received.length, 1)
  assert.equal(received[0].from, 'no-reply@courtside.test')
  assert.deepEqual(received[0].to, ['smtp-user@example.com'])
  assert.match(received[0].data, /Subject: Your verification code/)
  const code = /verification code is (\d{6})/.exec(received[0].data)?.[1]
  assert.ok(code, 'the mail carries a 6-digit code')

  const ok = await app.inject({
    method: 'POST',
    url: '/api/auth/otp/verify',
    payload: { identifier: 'smtp-user@example.com', otp: code, type: 'email' },
  })
  assert.equal(ok.statusCode, 200)
})
