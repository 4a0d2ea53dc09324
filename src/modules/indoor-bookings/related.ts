import { sql } from 'kysely'
import { type Static, Type } from 'typebox'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { formatMoney } from '../../lib/money.ts'
import { DateTime, Money, Nullable } from '../../lib/schemas.ts'
import { formatDateTime } from '../../lib/time.ts'

// The customer an indoor booking embeds (the contract's UserResource), loaded for many bookings at once.

export const UserSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  phone: Nullable(Type.String()),
  avatar: Nullable(Type.String()),
  wallet_balance: Money,
  is_active: Type.Boolean(),
  email_verified: Type.Boolean(),
  phone_verified: Type.Boolean(),
  roles: Type.Array(Type.String()),
  permissions: Type.Array(Type.String()),
  created_at: DateTime,
})
export type User = Static<typeof UserSchema>

/** Users by id as the contract's UserResource (roles and permissions included). */
export async function loadUserResources(ctx: AppContext, db: Executor, ids: number[]): Promise<Map<number, User>> {
  const out = new Map<number, User>()
  if (ids.length === 0) return out
  const rows = await db
    .selectFrom('users as u')
    .select([
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
      sql<string[]>`array(select r.name from user_roles ur join roles r on r.id = ur.role_id
        where ur.user_id = u.id order by r.id)`.as('roles'),
      sql<string[]>`array(select distinct p.name from user_roles ur
        join role_permissions rp on rp.role_id = ur.role_id join permissions p on p.id = rp.permission_id
        where ur.user_id = u.id order by p.name)`.as('permissions'),
    ])
    .where('u.id', 'in', [...new Set(ids)])
    .execute()
  for (const u of rows) {
    out.set(u.id, {
      id: u.id,
      name: u.name,
      email: u.email,
      phone: u.phone,
      avatar: ctx.storage.url(u.avatar_path),
      wallet_balance: formatMoney(u.wallet_balance),
      is_active: u.is_active,
      email_verified: u.email_verified_at !== null,
      phone_verified: u.phone_verified_at !== null,
      roles: u.roles,
      permissions: u.permissions,
      created_at: formatDateTime(u.created_at)!,
    })
  }
  return out
}
