import { sql } from 'kysely'
import { ROLE_NAMES } from '../../lib/auth.ts'
import type { Executor } from '../../lib/db.ts'
import type { PageParams } from '../../lib/pagination.ts'
import type { UserRow } from './resource.ts'

// Read models of accounts: users as the contract's User (with role and permission names), the
// admin user list and a user's devices.

/** The columns of a User (users as u) with its role and permission names. */
export const USER_COLUMNS = [
  'u.id',
  'u.name',
  'u.email',
  'u.phone',
  'u.avatar_path',
  'u.wallet_balance',
  'u.is_active',
  'u.email_verified_at',
  'u.phone_verified_at',
  'u.notify_sms',
  'u.notify_email',
  'u.locale',
  'u.created_at',
  ROLE_NAMES.as('roles'),
  sql<string[]>`array(select distinct p.name from user_roles ur
      join role_permissions rp on rp.role_id = ur.role_id join permissions p on p.id = rp.permission_id
      where ur.user_id = u.id order by p.name)`.as('permissions'),
] as const

/** Selects users with their role and permission names (use with `.where(...)`). */
export function selectUsers(db: Executor) {
  return db.selectFrom('users as u').select(USER_COLUMNS)
}

/** One user's row for the User resource; undefined when unknown. */
export async function findUserRow(db: Executor, userId: number): Promise<UserRow | undefined> {
  return (await selectUsers(db).where('u.id', '=', userId).executeTakeFirst()) as UserRow | undefined
}

/** A page of users by id, filtered by a part of name, email or phone and by a role, and the total. */
export async function userPage(db: Executor, filters: { search?: string; role?: string }, page: PageParams) {
  let q = selectUsers(db)
  const search = filters.search?.trim()
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    q = q.where((eb) =>
      eb.or([eb('u.name', 'ilike', like), eb(sql<string>`u.email::text`, 'ilike', like), eb('u.phone', 'ilike', like)]),
    )
  }
  if (filters.role) {
    const role = filters.role
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('user_roles as ur')
          .innerJoin('roles as r', 'r.id', 'ur.role_id')
          .select('ur.user_id')
          .whereRef('ur.user_id', '=', 'u.id')
          .where('r.name', '=', role),
      ),
    )
  }
  const [rows, count] = await Promise.all([
    q.orderBy('u.id').limit(page.perPage).offset(page.offset).execute(),
    db
      .selectFrom(q.as('filtered'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows: rows as UserRow[], total: Number(count.n) }
}

/** The user's device tokens, most recently used first. */
export function devicesOf(db: Executor, userId: number) {
  return db
    .selectFrom('api_tokens')
    .select(['id', 'name', 'last_used_at', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy((eb) => eb.fn.coalesce('last_used_at', 'created_at'), 'desc')
    .orderBy('id', 'desc')
    .execute()
}
