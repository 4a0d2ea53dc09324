import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { holdSweep } from '../../src/modules/booking-core/expiry.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { expireLapsedHolds } from '../helpers/sweeps.ts'
import { bookingRow, payWithoutReturning } from './helpers.ts'
import { reconcileKit } from './reconcile-helpers.ts'

// The hold sweep expires each booking in its own step (bookings/expiry.ts); the gateway check of
// reconciliation runs inside that step, before the booking's transaction. A check that fails for
// one booking keeps that booking pending (retried with back-off) and never blocks the others.

// The app runs on a ManualClock at FIXED_NOW (Tuesday 10 March 2026, 09:00 venue time): holds run
// out as it moves on. Sweep retries are kept on the database's clock (src/lib/sweeps.ts).
let app: App
let kit: ReturnType<typeof reconcileKit>
before(async () => {
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
  kit = reconcileKit(app)
})
after(() => app.close())

/** A trigger that refuses to complete one payment (as a broken row or constraint would). */
async function refuseCompletion(paymentId: number) {
  const fn = `test_refuse_payment_${paymentId}`
  await sql
    .raw(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.id = ${Number(paymentId)} AND NEW.status = 'completed' THEN RAISE EXCEPTION 'payment % refuses', NEW.id; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER ${fn} BEFORE UPDATE ON payments FOR EACH ROW EXECUTE FUNCTION ${fn}();`)
    .execute(app.ctx.db)
  return async () => {
    await sql.raw(`DROP TRIGGER ${fn} ON payments; DROP FUNCTION ${fn}();`).execute(app.ctx.db)
  }
}

test('the per-booking sweep step asks the gateway before cancelling; a failing check blocks only its booking', async () => {
  const paid = await kit.setup()
  const stuck = await kit.setup()
  const unpaid = await kit.setup({ indoor: true })
  const a = await kit.startGateway(paid.user, paid.booking.id, 'gateway_2')
  const b = await kit.startGateway(stuck.user, stuck.booking.id, 'gateway_1')
  await kit.startGateway(unpaid.user, unpaid.booking.id, 'gateway_3', 'indoor')
  await payWithoutReturning(app, a.payment_url)
  await payWithoutReturning(app, b.payment_url)
  await kit.expireHold('court', paid.booking.id)
  await kit.expireHold('court', stuck.booking.id)
  await kit.expireHold('indoor', unpaid.booking.id)
  const release = await refuseCompletion(b.payment.id)

  assert.equal(await expireLapsedHolds(app), 1) // only the one nobody paid
  assert.equal((await bookingRow(app, 'court', paid.booking.id)).status, 'confirmed')
  assert.equal((await bookingRow(app, 'indoor', unpaid.booking.id)).status, 'cancelled')
  // The check failed for this booking: it is neither confirmed nor cancelled, and waits for a retry.
  assert.equal((await bookingRow(app, 'court', stuck.booking.id)).status, 'pending')
  assert.equal((await kit.paymentRow(b.payment.id)).status, 'initiated')
  const retry = await app.ctx.db
    .selectFrom('sweep_retries')
    .select(['attempts', 'last_error'])
    .where('sweep', '=', holdSweep('court'))
    .where('row_id', '=', stuck.booking.id)
    .executeTakeFirstOrThrow()
  assert.equal(retry.attempts, 1)
  assert.match(retry.last_error ?? '', /refuses/)

  // Once the fault is gone and the back-off has passed, the next run confirms it. The back-off is
  // on the database's clock (src/lib/sweeps.ts), so it is passed there.
  await release()
  await app.ctx.db
    .updateTable('sweep_retries')
    .set({ retry_at: sql<Date>`now() - interval '1 second'` })
    .where('sweep', '=', holdSweep('court'))
    .where('row_id', '=', stuck.booking.id)
    .execute()
  assert.equal(await expireLapsedHolds(app), 0)
  assert.equal((await bookingRow(app, 'court', stuck.booking.id)).status, 'confirmed')
  assert.equal((await kit.paymentRow(b.payment.id)).status, 'completed')
  for (const u of [paid.user, stuck.user, unpaid.user]) assert.equal((await kit.assertLedgerHolds(u.id)).balance, 0)
})
