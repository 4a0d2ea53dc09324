import { type RawBuilder, sql } from 'kysely'
import type { AppContext } from './context.ts'
import type { Executor } from './db.ts'

// Periodic sweeps (hold expiry, reminders, …) work row by row, each row in its own transaction, so
// one row that cannot be processed never blocks the others. A failing row is written to
// sweep_retries with its next retry time (exponential back-off, capped) and left out of the sweep
// until then; it is logged once, when it first fails, not on every run. The state is in the
// database, so every instance honours the same back-off.

/** First retry this long after the first failure; each later failure doubles it. */
export const SWEEP_RETRY_BASE_SECONDS = 60
/** The back-off never grows past this: a stuck row is still tried every hour. */
export const SWEEP_RETRY_MAX_SECONDS = 3600

/** A row a sweep is about to process; `attempts` is how often it failed before (0: never). */
export interface SweepRow {
  id: number
  attempts: number
}

/**
 * SQL: the failure count of `idColumn`'s row under `sweep` (0 when none). Selected with the due rows
 * so a recovered row can be cleared without a query for every row that never failed.
 */
function sweepAttempts(sweep: string, idColumn: string) {
  return sql<number>`coalesce((SELECT r.attempts FROM sweep_retries r WHERE r.sweep = ${sweep} AND r.row_id = ${sql.ref(idColumn)}), 0)`
}

/** SQL condition: `idColumn`'s row is not waiting out a back-off under `sweep`. */
function notBackedOff(sweep: string, idColumn: string) {
  return sql<boolean>`NOT EXISTS (SELECT 1 FROM sweep_retries r WHERE r.sweep = ${sweep} AND r.row_id = ${sql.ref(idColumn)} AND r.retry_at > now())`
}

/**
 * The next batch of a sweep: rows of `table` (aliased `b`, as `due` names its columns) where `due` holds, after id `afterId`,
 * oldest id first, leaving out rows waiting out a back-off, each with its failure count.
 */
export async function dueRows(
  db: Executor,
  sweep: string,
  table: string,
  due: RawBuilder<boolean>,
  afterId: number,
  limit: number,
): Promise<SweepRow[]> {
  const { rows } = await sql<SweepRow>`
    SELECT b.id, ${sweepAttempts(sweep, 'b.id')} AS attempts
    FROM ${sql.table(table)} b
    WHERE ${due} AND b.id > ${afterId} AND ${notBackedOff(sweep, 'b.id')}
    ORDER BY b.id
    LIMIT ${limit}`.execute(db)
  return rows.map((r) => ({ id: Number(r.id), attempts: Number(r.attempts) }))
}

/**
 * Runs one row's step (which opens its own transaction). On success, a row that had failed before
 * leaves sweep_retries; on failure, the error is recorded for a later retry and the sweep goes on:
 * the result is undefined then.
 */
export async function sweepStep<T>(
  ctx: Pick<AppContext, 'db' | 'log'>,
  sweep: string,
  row: SweepRow,
  step: () => Promise<T>,
): Promise<T | undefined> {
  let value: T
  try {
    value = await step()
  } catch (err) {
    await recordFailure(ctx, sweep, row.id, err)
    return undefined
  }
  if (row.attempts > 0) {
    await ctx.db.deleteFrom('sweep_retries').where('sweep', '=', sweep).where('row_id', '=', row.id).execute()
    ctx.log.info({ sweep, row_id: row.id, attempts: row.attempts }, 'sweep row recovered')
  }
  return value
}

async function recordFailure(ctx: Pick<AppContext, 'db' | 'log'>, sweep: string, rowId: number, err: unknown) {
  const message = String((err as Error)?.message ?? err).slice(0, 2000)
  // The delay doubles per failure: base · 2^(attempts − 1), at most the cap.
  const { rows } = await sql<{ attempts: number }>`
    INSERT INTO sweep_retries AS r (sweep, row_id, attempts, retry_at, last_error)
    VALUES (${sweep}, ${rowId}, 1, now() + make_interval(secs => ${SWEEP_RETRY_BASE_SECONDS}), ${message})
    ON CONFLICT (sweep, row_id) DO UPDATE SET
      attempts = r.attempts + 1,
      retry_at = now() + make_interval(secs => least(${SWEEP_RETRY_BASE_SECONDS} * power(2, r.attempts), ${SWEEP_RETRY_MAX_SECONDS})),
      last_error = EXCLUDED.last_error,
      updated_at = now()
    RETURNING attempts`.execute(ctx.db)
  const attempts = rows[0]?.attempts ?? 1
  if (attempts === 1)
    ctx.log.error({ err, sweep, row_id: rowId }, `sweep ${sweep}: row ${rowId} failed; retrying later`)
  else ctx.log.debug({ sweep, row_id: rowId, attempts, error: message }, 'sweep row failed again')
}
