import { sql } from 'kysely'
import type { App } from '../../src/app.ts'
import { account, post, transfer } from '../../src/modules/ledger/index.ts'

/**
 * Bookings a test inserted with raw SQL as already paid (for speed, or to set up a state the API
 * would take many calls to reach) are given the payment that paid them: a completed gateway_1
 * payment and its ledger entry, so the books agree with the rows when the app closes
 * (test/helpers/app.ts). Only bookings with a paid_amount and no payment at all are touched.
 */
export async function payInsertedBookings(app: App): Promise<number> {
  const { rows } = await sql<{
    kind: 'court' | 'indoor'
    id: number
    venue_id: number
    user_id: number | null
    paid: number
  }>`
    SELECT 'court' AS kind, b.id, b.venue_id, b.user_id, b.paid_amount AS paid FROM bookings b
    WHERE b.paid_amount > 0 AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.payable_type = 'court' AND p.payable_id = b.id)
    UNION ALL
    SELECT 'indoor', b.id, b.venue_id, b.user_id, b.paid_amount FROM indoor_game_bookings b
    WHERE b.paid_amount > 0 AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.payable_type = 'indoor' AND p.payable_id = b.id)`.execute(
    app.ctx.db,
  )
  const now = app.ctx.clock.now()
  for (const b of rows) {
    const amount = Number(b.paid)
    const payment = await app.ctx.db
      .insertInto('payments')
      .values({
        user_id: b.user_id,
        payable_type: b.kind,
        payable_id: b.id,
        method: 'gateway_1',
        amount,
        status: 'completed',
        reference: `TI${process.pid}-${b.kind}-${b.id}`,
        completed_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await post(app.ctx.db, {
      kind: 'gateway_payment',
      occurredAt: now,
      description: 'Test payment of an inserted booking',
      paymentId: payment.id,
      booking: { kind: b.kind, id: b.id },
      venueId: b.venue_id,
      userId: b.user_id,
      lines: transfer(account.gatewayClearing('gateway_1'), account.venueBalance(b.venue_id), amount),
    })
  }
  return rows.length
}
