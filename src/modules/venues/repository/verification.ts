import type { Updateable } from 'kysely'
import type { Venues } from '../../../db/types.ts'
import type { Executor } from '../../../lib/db.ts'

// Verification transitions: one conditional UPDATE each, so two racing calls cannot both apply.

/** Moves the venue from one of `from` with `values`; false when its status was not one of them. */
export async function transitionVerification(
  db: Executor,
  venueId: number,
  from: string[],
  values: Updateable<Venues>,
): Promise<boolean> {
  const row = await db
    .updateTable('venues')
    .set(values)
    .where('id', '=', venueId)
    .where('verification_status', 'in', from)
    .returning('id')
    .executeTakeFirst()
  return !!row
}

export async function verificationStatus(db: Executor, venueId: number): Promise<string | undefined> {
  const row = await db.selectFrom('venues').select('verification_status').where('id', '=', venueId).executeTakeFirst()
  return row?.verification_status
}
