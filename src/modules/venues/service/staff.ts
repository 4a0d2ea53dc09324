import type { Static } from 'typebox'
import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import type { Executor } from '../../../lib/db.ts'
import { Invalid, NotFound } from '../../../lib/errors.ts'
import { pathId } from '../../../lib/ids.ts'
import type { Zone } from '../../../lib/zone.ts'
import type { StaffMemberSchema } from '../schemas.ts'
import { venueForStaff } from './manage.ts'

// Staff assignment: the owner (or super_admin) assigns an existing user, found by email, as a
// manager or staff of the venue. The user also gets that global role, which is dropped again
// when their last assignment with that role goes.

type StaffMember = Static<typeof StaffMemberSchema>

async function members(db: Executor, zone: Zone, venueId: number, userId?: number): Promise<StaffMember[]> {
  let q = db
    .selectFrom('venue_staff as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['u.id', 'u.name', 'u.email', 'u.phone', 's.role', 's.created_at'])
    .where('s.venue_id', '=', venueId)
  if (userId !== undefined) q = q.where('s.user_id', '=', userId)
  const rows = await q.orderBy('s.created_at').orderBy('u.id').execute()
  return rows.map((r) => ({ ...r, assigned_at: zone.format(r.created_at)! }))
}

export async function listStaff(ctx: AppContext, user: AuthUser, key: string) {
  const venue = await venueForStaff(ctx, user, key, ['owner'])
  return members(ctx.db, ctx.zone, venue.id)
}

async function syncGlobalRole(db: Executor, userId: number, role: 'manager' | 'staff') {
  const still = await db
    .selectFrom('venue_staff')
    .select('venue_id')
    .where('user_id', '=', userId)
    .where('role', '=', role)
    .executeTakeFirst()
  const roleId = db.selectFrom('roles').select('id').where('name', '=', role)
  if (still) {
    await db
      .insertInto('user_roles')
      .columns(['user_id', 'role_id'])
      .expression((eb) =>
        eb
          .selectFrom('roles')
          .select([eb.val(userId).as('user_id'), 'id'])
          .where('name', '=', role),
      )
      .onConflict((oc) => oc.doNothing())
      .execute()
  } else {
    await db.deleteFrom('user_roles').where('user_id', '=', userId).where('role_id', '=', roleId).execute()
  }
}

/** Assigns (or re-assigns with another role) a user to the venue. */
export async function assignStaff(
  ctx: AppContext,
  user: AuthUser,
  key: string,
  body: { email: string; role: 'manager' | 'staff' },
): Promise<StaffMember> {
  const venue = await venueForStaff(ctx, user, key, ['owner'])
  const target = await ctx.db.selectFrom('users').select('id').where('email', '=', body.email.trim()).executeTakeFirst()
  if (!target) throw new Invalid('email', 'The selected email is invalid.')
  if (target.id === venue.owner_id) throw new Invalid('email', 'The owner of the venue cannot be assigned as staff.')
  return ctx.db.transaction().execute(async (trx) => {
    const previous = await trx
      .selectFrom('venue_staff')
      .select('role')
      .where('venue_id', '=', venue.id)
      .where('user_id', '=', target.id)
      .executeTakeFirst()
    await trx
      .insertInto('venue_staff')
      .values({ venue_id: venue.id, user_id: target.id, role: body.role })
      .onConflict((oc) => oc.columns(['venue_id', 'user_id']).doUpdateSet({ role: body.role }))
      .execute()
    await syncGlobalRole(trx, target.id, body.role)
    if (previous && previous.role !== body.role)
      await syncGlobalRole(trx, target.id, previous.role as 'manager' | 'staff')
    const [member] = await members(trx, ctx.zone, venue.id, target.id)
    return member
  })
}

export async function removeStaff(ctx: AppContext, user: AuthUser, key: string, userKey: string): Promise<void> {
  const venue = await venueForStaff(ctx, user, key, ['owner'])
  const userId = pathId(userKey)
  await ctx.db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('venue_staff')
      .where('venue_id', '=', venue.id)
      .where('user_id', '=', userId)
      .returning('role')
      .executeTakeFirst()
    if (!removed) throw new NotFound()
    await syncGlobalRole(trx, userId, removed.role as 'manager' | 'staff')
  })
}
