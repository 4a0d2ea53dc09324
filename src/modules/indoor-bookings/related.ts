import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { selectUsers, type UserResource, type UserRow, userResource } from '../accounts/index.ts'

// The customer an indoor booking embeds (the contract's UserResource), loaded for many bookings at once.

export { UserSchema } from '../accounts/index.ts'

/** Users by id as the contract's UserResource (roles and permissions included), one query. */
export async function loadUserResources(
  ctx: AppContext,
  db: Executor,
  ids: number[],
): Promise<Map<number, UserResource>> {
  const out = new Map<number, UserResource>()
  if (ids.length === 0) return out
  const rows = await selectUsers(db)
    .where('u.id', 'in', [...new Set(ids)])
    .execute()
  for (const r of rows) out.set(r.id, userResource(ctx, r as UserRow))
  return out
}
