import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { selectUsers, type UserResource, type UserRow, userResource } from '../accounts/index.ts'
import { chargesOf, paymentsFor } from '../booking-core/index.ts'
import { loadIndoorGameResources } from '../indoor-games/index.ts'
import { type IndoorBookingRow, toIndoorBooking } from './resource.ts'

// Indoor-game bookings as the contract shows them, loaded for many bookings at once (one query per
// relation, any list size).

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

/** The resources of many bookings, in the given order, with indoor_game, user, charges and payments. */
export async function indoorBookingResources(ctx: AppContext, db: Executor, rows: IndoorBookingRow[]) {
  const ids = rows.map((r) => r.id)
  const [games, users, charges, payments] = await Promise.all([
    loadIndoorGameResources(
      db,
      rows.map((r) => r.indoor_game_id),
      ctx.zone,
    ),
    loadUserResources(
      ctx,
      db,
      rows.flatMap((r) => (r.user_id === null ? [] : [r.user_id])),
    ),
    chargesOf(db, 'indoor', ids, ctx.zone),
    paymentsFor(db, 'indoor', ids, ctx.zone),
  ])
  return rows.map((b) =>
    toIndoorBooking(
      b,
      {
        game: games.get(b.indoor_game_id) ?? null,
        user: b.user_id === null ? null : (users.get(b.user_id) ?? null),
        charges: charges.get(b.id) ?? [],
        payments: payments.get(b.id) ?? [],
      },
      ctx.zone,
    ),
  )
}

export async function indoorBookingResource(ctx: AppContext, db: Executor, row: IndoorBookingRow) {
  return (await indoorBookingResources(ctx, db, [row]))[0]
}
