import type { Executor } from '../../../lib/db.ts'

// A venue's CBMS account (venue_ird_settings) and each invoice's CBMS sync (receipt_ird_sync),
// migrations/040_invoices.sql.

/** Whether the venue reports to CBMS now. */
export async function reportsToCbms(db: Executor, venueId: number): Promise<boolean> {
  const row = await db
    .selectFrom('venue_ird_settings')
    .select('venue_id')
    .where('venue_id', '=', venueId)
    .where('enabled', '=', true)
    .executeTakeFirst()
  return row !== undefined
}

export async function insertSync(trx: Executor, receiptId: number, venueId: number, now: Date) {
  await trx
    .insertInto('receipt_ird_sync')
    .values({ receipt_id: receiptId, venue_id: venueId, status: 'pending', realtime: true, updated_at: now })
    .execute()
}

export async function syncOf(db: Executor, receiptId: number) {
  return db.selectFrom('receipt_ird_sync').selectAll().where('receipt_id', '=', receiptId).executeTakeFirst()
}

export async function recordSync(
  db: Executor,
  receiptId: number,
  values: {
    status: 'pending' | 'synced' | 'failed'
    attempts: number
    last_code: number | null
    last_error: string | null
    realtime: boolean
    synced_at: Date | null
    updated_at: Date
  },
) {
  await db.updateTable('receipt_ird_sync').set(values).where('receipt_id', '=', receiptId).execute()
}

export async function settingsOf(db: Executor, venueId: number) {
  return db.selectFrom('venue_ird_settings').selectAll().where('venue_id', '=', venueId).executeTakeFirst()
}

export async function saveSettings(
  db: Executor,
  venueId: number,
  values: {
    enabled: boolean
    username: string
    seller_pan: string
    password_encrypted: string
    updated_by: number
    updated_at: Date
  },
) {
  await db
    .insertInto('venue_ird_settings')
    .values({ venue_id: venueId, ...values })
    .onConflict((oc) => oc.column('venue_id').doUpdateSet(values))
    .execute()
}

/** The desk's buyer PAN of an invoice, when the desk set its buyer. */
export async function deskBuyerOf(db: Executor, receiptId: number) {
  return db.selectFrom('receipt_buyers').select('buyer_pan').where('receipt_id', '=', receiptId).executeTakeFirst()
}

/** How many of a venue's reports are pending and failed, and the failed ones (at most 100). */
export async function syncProblems(db: Executor, venueId: number) {
  const counts = await db
    .selectFrom('receipt_ird_sync')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('venue_id', '=', venueId)
    .where('status', 'in', ['pending', 'failed'])
    .groupBy('status')
    .execute()
  const failures = await db
    .selectFrom('receipt_ird_sync as s')
    .innerJoin('receipts as r', 'r.id', 's.receipt_id')
    .select(['r.id', 'r.receipt_number', 'r.issued_on_bs', 's.last_code', 's.last_error'])
    .where('s.venue_id', '=', venueId)
    .where('s.status', '=', 'failed')
    .orderBy('r.id')
    .limit(100)
    .execute()
  const count = (status: string) => Number(counts.find((c) => c.status === status)?.n ?? 0)
  return { pending: count('pending'), failed: count('failed'), failures }
}

/** Sets a venue's failed reports pending again; returns their receipt ids. */
export async function reopenFailed(trx: Executor, venueId: number, now: Date): Promise<number[]> {
  const rows = await trx
    .updateTable('receipt_ird_sync')
    .set({ status: 'pending', attempts: 0, updated_at: now })
    .where('venue_id', '=', venueId)
    .where('status', '=', 'failed')
    .returning('receipt_id')
    .execute()
  return rows.map((r) => Number(r.receipt_id))
}

/** The venue's tax identity as its books print it. */
export async function taxIdentityOf(db: Executor, venueId: number) {
  return db
    .selectFrom('venues')
    .select(['pan_number', 'vat_registered', 'legal_name', 'name'])
    .where('id', '=', venueId)
    .executeTakeFirstOrThrow()
}
