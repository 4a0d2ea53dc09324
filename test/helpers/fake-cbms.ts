import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

// A local stand-in for IRD's Central Billing Monitoring System: POST /api/bill and
// /api/billreturn take IRD's JSON body and answer a bare number, as CBMS does: 200 saved,
// 100 wrong credentials, 101 the bill already exists, 102/103 exceptions, 104 invalid model.
// Bills are kept by (seller_pan, fiscal_year, number), so a repeat answers 101.

export interface FakeCbms {
  server: Server
  url: string
  /** Every body received, with its path. */
  received: Array<{ path: string; body: Record<string, unknown> }>
  /** Answer this code (or, when 'down', a 503 with no number) instead of deciding. */
  force: number | 'down' | null
  /** The credentials CBMS accepts. */
  credentials: { username: string; password: string }
  close(): Promise<void>
}

async function readBody(req: IncomingMessage): Promise<string> {
  let s = ''
  for await (const chunk of req) s += chunk
  return s
}

const BILL_FIELDS = [
  'username',
  'password',
  'seller_pan',
  'buyer_pan',
  'fiscal_year',
  'buyer_name',
  'invoice_number',
  'invoice_date',
  'total_sales',
  'taxable_sales_vat',
  'vat',
  'excisable_amount',
  'excise',
  'taxable_sales_hst',
  'hst',
  'amount_for_esf',
  'esf',
  'export_sales',
  'tax_exempted_sales',
  'isrealtime',
  'datetimeClient',
]
const RETURN_FIELDS = [
  ...BILL_FIELDS.filter((f) => f !== 'invoice_number' && f !== 'invoice_date'),
  'ref_invoice_number',
  'credit_note_number',
  'credit_note_date',
  'reason_for_return',
]

export async function startFakeCbms(
  credentials = { username: 'venue-user', password: 's3cret-pass' },
): Promise<FakeCbms> {
  const saved = new Set<string>()
  const state: Omit<FakeCbms, 'server' | 'url' | 'close'> = { received: [], force: null, credentials }
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const raw = await readBody(req)
    const answer = (code: number) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(String(code))
    }
    if (req.method !== 'POST' || (path !== '/api/bill' && path !== '/api/billreturn')) {
      res.writeHead(404)
      return res.end()
    }
    let body: Record<string, unknown>
    try {
      body = JSON.parse(raw)
    } catch {
      return answer(104)
    }
    state.received.push({ path, body })
    if (state.force === 'down') {
      res.writeHead(503)
      return res.end('Service Unavailable')
    }
    if (state.force !== null) return answer(state.force)
    const fields = path === '/api/bill' ? BILL_FIELDS : RETURN_FIELDS
    if (fields.some((f) => !(f in body))) return answer(104)
    if (body.username !== state.credentials.username || body.password !== state.credentials.password) return answer(100)
    const key = `${body.seller_pan}|${body.fiscal_year}|${body.invoice_number ?? body.credit_note_number}`
    if (saved.has(key)) return answer(101)
    saved.add(key)
    answer(200)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const fake = state as FakeCbms
  fake.server = server
  fake.url = `http://127.0.0.1:${port}`
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return fake
}
