import { NotFound } from './errors.ts'

// Ids in paths: a positive integer of at most 15 digits (fits bigint and stays exact as a JS number).

/** The id written in `raw`, or undefined when it is not one. */
export function parseId(raw: string): number | undefined {
  if (!/^\d{1,15}$/.test(raw)) return undefined
  const id = Number(raw)
  return id >= 1 ? id : undefined
}

/** The id of a path segment; anything else is 404 (no such resource). */
export function pathId(raw: string): number {
  const id = parseId(raw)
  if (id === undefined) throw new NotFound()
  return id
}
