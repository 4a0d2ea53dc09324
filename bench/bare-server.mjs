// The bare server of `npm run bench` (bench/run.ts): a Node http server in a process of its own, like
// the server under test, answering every request with the body in the file argv[2], on port argv[3].
// It prints "ready" once it listens. (Run inside the bench's own process it shared that process with
// the bench's bookkeeping and with autocannon, and answered about 30 % fewer requests.)
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const body = readFileSync(process.argv[2], 'utf8')
const length = Buffer.byteLength(body)
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': length })
  res.end(body)
}).listen(Number(process.argv[3]), '127.0.0.1', () => console.log('ready'))
