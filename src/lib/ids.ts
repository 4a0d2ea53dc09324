import { NotFound } from './errors.ts'

// Ids in paths: a positive integer of at most 15 digits (fits bigint and stays exact as a JS
// number), written in plain decimal: `0x10`, `1e3`, `+1`, `1.0` or `-1` name nothing.

/** The largest id of a `serial` (int4) key such as amenities and sports. */
export const SERIAL_MAX = 2_147_483_647

/** The id written in `raw`, or undefined when it is not one (or above `max`). */
export function parseId(raw: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (!/^\d{1,15}$/.test(raw)) return undefined
  const id = Number(raw)
  return id >= 1 && id <= max ? id : undefined
}

/** The id of a path segment; anything else is 404 (no such resource). */
export function pathId(raw: string, max?: number): number {
  const id = parseId(raw, max)
  if (id === undefined) throw new NotFound()
  return id
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A UUID path segment (notification ids); anything else is 404. */
export function pathUuid(raw: string): string {
  if (!UUID.test(raw)) throw new NotFound()
  return raw
}
