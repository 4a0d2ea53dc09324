import { randomBytes } from 'node:crypto'
import type { Insertable, Selectable } from 'kysely'
import type { Payments } from '../../db/types.ts'
import type { Executor } from '../../lib/db.ts'

// Payment rows are written here because both sides write them: bookings record desk payments and
// refunds (operations.ts), payments record wallet, cash and gateway payments. Payments depends on
// this module, never the reverse (docs/architecture.md, "Booking core and money direction").

export type PaymentRow = Selectable<Payments>

/** A payment's id at the gateway: short (Fonepay PRN ≤ 25), unique, unguessable. */
export function newReference(): string {
  return `CS${Date.now().toString(36).toUpperCase()}${randomBytes(5).toString('hex').toUpperCase()}`
}

export async function insertPayment(db: Executor, values: Insertable<Payments>): Promise<PaymentRow> {
  return db.insertInto('payments').values(values).returningAll().executeTakeFirstOrThrow()
}
