import { GatewayUnavailable, type Transport } from './types.ts'

/** Gateway HTTP timeout. Tests shorten it to exercise the timeout path quickly. */
export const gatewayHttp = { timeoutMs: 10_000 }

/** The live transport: fetch with a timeout. Any network failure becomes GatewayUnavailable. */
export const fetchTransport: Transport = async (req) => {
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(gatewayHttp.timeoutMs),
    })
    return { status: res.status, body: await res.text() }
  } catch (err) {
    throw new GatewayUnavailable(`gateway request failed: ${(err as Error).name}`)
  }
}

export function parseJson(body: string): Record<string, unknown> {
  try {
    const v = JSON.parse(body)
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>
  } catch {}
  throw new GatewayUnavailable('gateway answered with something that is not a JSON object')
}

/** Rupee amount text ("1,500.0", "1500") -> paisa, or null when it is not a number. */
export function rupeesToPaisa(value: unknown): number | null {
  if (value === null || value === undefined) return null
  const s = String(value).replace(/,/g, '').trim()
  if (!/^\d+(\.\d+)?$/.test(s)) return null
  return Math.round(Number(s) * 100)
}

/** Paisa -> the rupee text gateways expect ("1500.00"). */
export function paisaToRupees(paisa: number): string {
  return `${Math.floor(paisa / 100)}.${String(paisa % 100).padStart(2, '0')}`
}
