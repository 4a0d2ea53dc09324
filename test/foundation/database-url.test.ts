import assert from 'node:assert/strict'
import { createServer as createHttpServer } from 'node:http'
import { createServer, type Server } from 'node:net'
import { after, before, test } from 'node:test'
import { ConfigError } from '../../src/config.ts'
import { openDatabase } from '../../src/lib/db.ts'
import { run } from './helpers.ts'

// A DATABASE_URL that cannot work stops the start within seconds with one line naming the setting:
// no driver stack, no hang, no password.

const servers: Server[] = []
const listen = async (server: Server) => {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `postgres://courtside:s3cret@127.0.0.1:${(server.address() as { port: number }).port}/courtside`
}
let http: string
let garbage: string
let silent: string
before(async () => {
  http = await listen(createHttpServer((_req, res) => res.end('hello')))
  garbage = await listen(
    createServer((socket) => socket.end(Buffer.from('RFB 003.008\n\u0000\u0000\u0000\u0007garbage'))),
  )
  silent = await listen(createServer(() => {}))
})
after(() => {
  for (const s of servers) s.close()
})

test('the server refuses a closed port: exit 1, one line naming DATABASE_URL', async () => {
  const res = await run('src/server.ts', { DATABASE_URL: 'postgres://courtside:s3cret@127.0.0.1:1/courtside' })
  assert.equal(res.code, 1)
  assert.equal(res.stdout, '')
  const lines = res.stderr.trim().split('\n')
  assert.equal(lines.length, 1, res.stderr)
  assert.match(lines[0], /^Configuration error: DATABASE_URL: cannot use the PostgreSQL server at 127\.0\.0\.1:1\//)
  assert.ok(!lines[0].includes('s3cret'), 'no password in the message')
})

test('a port that speaks HTTP, garbage, or nothing at all is refused within seconds', async () => {
  for (const url of [http, garbage, silent]) {
    const began = Date.now()
    await assert.rejects(
      openDatabase({ databaseUrl: url }),
      (err: unknown) =>
        err instanceof ConfigError &&
        /^DATABASE_URL: cannot use the PostgreSQL server at 127\.0\.0\.1:\d+\/courtside \(/.test(err.message) &&
        !err.message.includes('\n') &&
        !err.message.includes('s3cret'),
    )
    assert.ok(Date.now() - began < 7000, `refused after ${Date.now() - began} ms`)
  }
})
