import { sql } from 'kysely'
import type { Executor } from '../../lib/db.ts'

export type NumberKind = 'BK' | 'IG'

/**
 * The next booking number of a kind for a year: `BK-2026-000123` (courts) or `IG-2026-000123`
 * (indoor games). The counter row is upserted and incremented in one statement, so it is row-locked
 * until the caller's transaction ends: concurrent bookings get distinct, gap-free numbers.
 */
export async function nextBookingNumber(trx: Executor, kind: NumberKind, year: number): Promise<string> {
  const row = await sql<{ last_value: number }>`
    INSERT INTO booking_sequences (kind, year, last_value) VALUES (${kind}, ${year}, 1)
    ON CONFLICT (kind, year) DO UPDATE SET last_value = booking_sequences.last_value + 1
    RETURNING last_value`.execute(trx)
  const value = Number(row.rows[0]!.last_value)
  return `${kind}-${year}-${String(value).padStart(6, '0')}`
}
