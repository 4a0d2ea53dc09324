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

/** The CTE name under which `withNextNumber` allocates a number. */
const CTE = 'next_number'

/**
 * A query creator whose statement first allocates the next number of a kind and year (the same
 * upsert as nextBookingNumber, as a data-modifying CTE); `allocatedNumber` reads it as the formatted
 * `BK-2026-000123`. Used by the INSERT of the booking itself, the number is taken in the very
 * statement that inserts the row: the counter row stays locked only from that statement to the end
 * of its transaction, and a refused INSERT (overlap) rolls the increment back, leaving no gap.
 */
export function withNextNumber(db: Executor, kind: NumberKind, year: number) {
  return db.with(CTE, (qb) =>
    qb
      .insertInto('booking_sequences')
      .values({ kind, year, last_value: 1 })
      .onConflict((oc) =>
        oc.columns(['kind', 'year']).doUpdateSet({ last_value: sql<number>`booking_sequences.last_value + 1` }),
      )
      .returning('last_value'),
  )
}

/** The number allocated by `withNextNumber` (a scalar sub-select), zero-padded to at least 6 digits. */
export function allocatedNumber(kind: NumberKind, year: number) {
  return sql<string>`(SELECT ${`${kind}-${year}-`} || lpad(last_value::text, greatest(6, length(last_value::text)), '0') FROM ${sql.table(CTE)})`
}
