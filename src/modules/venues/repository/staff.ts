import type { Executor } from '../../../lib/db.ts'

// Rows of venue staff assignments and the global manager/staff roles that follow them.

export type StaffRole = 'manager' | 'staff'

/** The venue's staff with their user columns (one user when `userId` is given), oldest first. */
export async function staffRows(db: Executor, venueId: number, userId?: number) {
  let q = db
    .selectFrom('venue_staff as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['u.id', 'u.name', 'u.email', 'u.phone', 's.role', 's.created_at'])
    .where('s.venue_id', '=', venueId)
  if (userId !== undefined) q = q.where('s.user_id', '=', userId)
  return q.orderBy('s.created_at').orderBy('u.id').execute()
}

/** Whether the user still holds an assignment with `role` at any venue. */
export async function holdsStaffRole(db: Executor, userId: number, role: StaffRole): Promise<boolean> {
  const still = await db
    .selectFrom('venue_staff')
    .select('venue_id')
    .where('user_id', '=', userId)
    .where('role', '=', role)
    .executeTakeFirst()
  return still !== undefined
}

export async function grantStaffRole(db: Executor, userId: number, role: StaffRole) {
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
}

export async function revokeStaffRole(db: Executor, userId: number, role: StaffRole) {
  const roleId = db.selectFrom('roles').select('id').where('name', '=', role)
  await db.deleteFrom('user_roles').where('user_id', '=', userId).where('role_id', '=', roleId).execute()
}

export const userIdByEmail = (db: Executor, email: string) =>
  db.selectFrom('users').select(['id', 'email']).where('email', '=', email).executeTakeFirst()

export const staffAssignment = (db: Executor, venueId: number, userId: number) =>
  db
    .selectFrom('venue_staff')
    .select('role')
    .where('venue_id', '=', venueId)
    .where('user_id', '=', userId)
    .executeTakeFirst()

/** Assigns the user, or changes the role of an existing assignment. */
export async function upsertStaff(db: Executor, venueId: number, userId: number, role: StaffRole) {
  await db
    .insertInto('venue_staff')
    .values({ venue_id: venueId, user_id: userId, role })
    .onConflict((oc) => oc.columns(['venue_id', 'user_id']).doUpdateSet({ role }))
    .execute()
}

/** Removes the assignment; its role, or undefined when there was none. */
export const deleteStaff = (db: Executor, venueId: number, userId: number) =>
  db
    .deleteFrom('venue_staff')
    .where('venue_id', '=', venueId)
    .where('user_id', '=', userId)
    .returning('role')
    .executeTakeFirst()
