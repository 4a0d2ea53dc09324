import { sql } from 'kysely'
import { Type } from 'typebox'
import { ROLE_NAMES } from '../../lib/auth.ts'
import type { Executor } from '../../lib/db.ts'
import { NotFound } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import { DateTime, Nullable } from '../../lib/schemas.ts'
import type { Storage } from '../../lib/storage.ts'
import { formatDateTime } from '../../lib/time.ts'

// The contract's User (UserResource): roles come from user_roles, permissions are what those roles grant.

export const UserSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  phone: Nullable(Type.String()),
  avatar: Nullable(Type.String({ description: 'Absolute URL of the avatar image' })),
  wallet_balance: Type.String({ description: 'NPR, two decimals' }),
  is_active: Type.Boolean({ description: 'false means the account is suspended' }),
  email_verified: Type.Boolean(),
  phone_verified: Type.Boolean(),
  roles: Type.Array(Type.String()),
  permissions: Type.Array(Type.String()),
  created_at: DateTime,
})

export interface UserRow {
  id: number
  name: string
  email: string
  phone: string | null
  avatar_path: string | null
  wallet_balance: number
  is_active: boolean
  email_verified_at: Date | string | null
  phone_verified_at: Date | string | null
  created_at: Date | string
  roles: string[]
  permissions: string[]
}

export interface UserResource {
  id: number
  name: string
  email: string
  phone: string | null
  avatar: string | null
  wallet_balance: string
  is_active: boolean
  email_verified: boolean
  phone_verified: boolean
  roles: string[]
  permissions: string[]
  created_at: string
}

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

export function userResource(storage: Storage, row: UserRow): UserResource {
  return {
    id: Number(row.id),
    name: row.name,
    email: row.email,
    phone: row.phone,
    avatar: storage.url(row.avatar_path),
    wallet_balance: formatMoney(row.wallet_balance),
    is_active: row.is_active,
    email_verified: row.email_verified_at !== null,
    phone_verified: row.phone_verified_at !== null,
    roles: row.roles ?? [],
    permissions: row.permissions ?? [],
    created_at: formatDateTime(row.created_at)!,
  }
}

/** One user as the contract's User; 404 when unknown. */
export async function loadUserResource(db: Executor, storage: Storage, userId: number): Promise<UserResource> {
  const row = await selectUsers(db).where('u.id', '=', userId).executeTakeFirst()
  if (!row) throw new NotFound()
  return userResource(storage, row as UserRow)
}
