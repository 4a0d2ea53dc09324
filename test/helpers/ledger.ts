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
  for (const b of rows) {
    await payThroughGateway(
      app,
      { kind: b.kind, bookingId: b.id, venueId: b.venue_id, userId: b.user_id },
      Number(b.paid),
    )
  }
  return rows.length
}

/** A completed gateway_1 payment of `amount` for a booking, with its ledger entry (no change to the booking row). */
export async function payThroughGateway(
  app: App,
  b: { kind: 'court' | 'indoor'; bookingId: number; venueId: number; userId: number | null },
  amount: number,
): Promise<void> {
  const now = app.ctx.clock.now()
  const payment = await app.ctx.db
    .insertInto('payments')
    .values({
      user_id: b.userId,
      payable_type: b.kind,
      payable_id: b.bookingId,
      method: 'gateway_1',
      amount,
      status: 'completed',
      reference: `TI${process.pid}-${b.kind}-${b.bookingId}`,
      completed_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await post(app.ctx.db, {
    kind: 'gateway_payment',
    occurredAt: now,
    description: 'Test payment of an inserted booking',
    paymentId: payment.id,
    booking: { kind: b.kind, id: b.bookingId },
    venueId: b.venueId,
    userId: b.userId,
    lines: transfer(account.gatewayClearing('gateway_1'), account.venueBalance(b.venueId), amount),
  })
}
