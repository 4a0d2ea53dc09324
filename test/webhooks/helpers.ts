import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import type { App } from '../../src/app.ts'

// A local webhook receiver (node:http on port 0) that records every request, and the checks an
// integrator would make with the `standardwebhooks` package, an implementation independent of ours.

export interface Received {
  headers: IncomingHttpHeaders
  body: string
}

export interface Receiver {
  url: string
  received: Received[]
  /** Status of the n-th request (0-based); 'hang' never answers. Default: 204. */
  answer: (n: number) => number | 'hang'
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

export async function receiver(answer: Receiver['answer'] = () => 204): Promise<Receiver> {
  const received: Received[] = []
  const hanging = new Set<import('node:http').ServerResponse>()
  const state = { answer }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const n = received.length
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      const status = state.answer(n)
      if (status === 'hang') hanging.add(res)
      else res.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    get answer() {
      return state.answer
    },
    set answer(fn) {
      state.answer = fn
    },
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver: ${received.length} of ${count} requests arrived`)
        await new Promise((r) => setTimeout(r, 20))
      }
    },
    async close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
}

/** Verifies a received request with standardwebhooks (throws when the signature or timestamp is wrong). */
export function verified(
  secret: string,
  r: Received,
): { type: string; timestamp: string; data: Record<string, unknown> } {
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(r.headers)) if (typeof v === 'string') headers[k] = v
  return new Webhook(secret).verify(r.body, headers) as {
    type: string
    timestamp: string
    data: Record<string, unknown>
  }
}

export async function createWebhook(
  app: App,
  user: { headers: Record<string, string> },
  venue: number | string,
  url: string,
  events: string[],
) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/venues/${venue}/webhooks`,
    headers: user.headers,
    payload: { url, events },
  })
  if (res.statusCode !== 201) throw new Error(`createWebhook: ${res.statusCode} ${res.body}`)
  return res.json().data as { id: number; secret: string; url: string; events: string[]; status: string }
}

/** Runs every due job now, then makes the pending webhook jobs due (as if their back-off had passed). */
export async function runJobs(app: App) {
  await app.ctx.jobs.runDue()
}

export async function makeWebhookJobsDue(app: App) {
  await app.ctx.db
    .updateTable('jobs')
    .set({ run_at: new Date(Date.now() - 1000) })
    .where('name', '=', 'webhooks.deliver')
    .where('done_at', 'is', null)
    .execute()
}

export async function deliveriesOf(
  app: App,
  user: { headers: Record<string, string> },
  venue: number,
  webhook: number,
) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/venues/${venue}/webhooks/${webhook}/deliveries`,
    headers: user.headers,
  })
  if (res.statusCode !== 200) throw new Error(`deliveries: ${res.statusCode} ${res.body}`)
  return res.json().data as Array<{
    id: number
    message_id: string
    event: string
    status: string
    attempts: number
    next_attempt_at: string | null
    last_attempts: Array<{ attempt: number; status_code: number | null; error: string | null; duration_ms: number }>
  }>
}
