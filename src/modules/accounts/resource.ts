import { Type } from 'typebox'
import { formatMoney } from '../../lib/money.ts'
import { DateTime, Nullable, named, namedEnum } from '../../lib/schemas.ts'
import type { Storage } from '../../lib/storage.ts'
import type { Zone } from '../../lib/zone.ts'

// The contract's User (UserResource): roles come from user_roles, permissions are what those roles grant.

/** A user's roles: customer, venue_owner, manager, staff, super_admin. */
/** The languages the service writes in: en (English, the default) and ne (Nepali). */
export const LocaleEnum = namedEnum('Locale', ['en', 'ne'])

export const UserRoleEnum = namedEnum('UserRole', ['customer', 'venue_owner', 'manager', 'staff', 'super_admin'])

export const UserSchema = named(
  'User',
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    phone: Nullable(Type.String()),
    avatar: Nullable(Type.String({ description: 'Absolute URL of the avatar image' })),
    wallet_balance: Type.String({ description: 'NPR, two decimals' }),
    is_active: Type.Boolean({ description: 'false means the account is suspended' }),
    email_verified: Type.Boolean(),
    phone_verified: Type.Boolean(),
    notify_sms: Type.Boolean({ description: 'Booking messages by SMS to the phone on file (default true)' }),
    notify_email: Type.Boolean({ description: 'Booking messages by email to a verified email (default true)' }),
    locale: LocaleEnum.response,
    roles: Type.Array(UserRoleEnum.response),
    permissions: Type.Array(Type.String()),
    created_at: DateTime,
  }),
)

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
  notify_sms: boolean
  notify_email: boolean
  locale: string
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
  notify_sms: boolean
  notify_email: boolean
  locale: 'en' | 'ne'
  roles: string[]
  permissions: string[]
  created_at: string
}

/** A user row as the contract's User; `created_at` on the venue zone's wall clock. */
export function userResource(ctx: { storage: Storage; zone: Zone }, row: UserRow): UserResource {
  return {
    id: Number(row.id),
    name: row.name,
    email: row.email,
    phone: row.phone,
    avatar: ctx.storage.url(row.avatar_path),
    wallet_balance: formatMoney(row.wallet_balance),
    is_active: row.is_active,
    email_verified: row.email_verified_at !== null,
    phone_verified: row.phone_verified_at !== null,
    notify_sms: row.notify_sms,
    notify_email: row.notify_email,
    locale: row.locale === 'ne' ? 'ne' : 'en',
    roles: row.roles ?? [],
    permissions: row.permissions ?? [],
    created_at: ctx.zone.format(row.created_at),
  }
}

/** A device token as the contract's Device. */
export function deviceResource(
  t: { id: number | string; name: string; last_used_at: Date | null; created_at: Date },
  zone: Zone,
) {
  return {
    id: Number(t.id),
    name: t.name,
    // A token never used since sign-in was last used when it was issued.
    last_used_at: zone.format(t.last_used_at ?? t.created_at)!,
    created_at: zone.format(t.created_at)!,
  }
}
