import type { Updateable } from 'kysely'
import type { Static } from 'typebox'
import type { Coupons } from '../../db/types.ts'
import type { AuthUser } from '../../lib/auth.ts'
import type { Executor } from '../../lib/db.ts'
import { Conflict, Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import { toPaisa } from '../../lib/money.ts'
import type { Zone } from '../../lib/zone.ts'
import { assertVenueAccess, MANAGER_ROLES } from '../venues/index.ts'
import * as repo from './repository.ts'
import type { UpdateCouponBody } from './schemas.ts'

/** What a coupon route validated: every field optional on update; the create body fits it too. */
export type CouponInput = Static<typeof UpdateCouponBody>

const CODE_TAKEN = 'The code has already been taken.'

/** Owner or manager of the coupon's venue; platform-wide coupons belong to super_admins. */
export async function assertCouponAccess(db: Executor, user: AuthUser, venueId: number | null) {
  if (venueId === null) {
    if (!user.roles.includes('super_admin')) throw new Forbidden()
    return
  }
  await assertVenueAccess(db, user, venueId, MANAGER_ROLES)
}

/** "YYYY-MM-DD[ HH:mm[:ss]]" venue time -> instant; a bare date means the start (or end) of that day. */
function instant(zone: Zone, value: string, endOfDay: boolean): Date {
  const [date, time] = value.split(' ')
  return zone.instant(date, time ?? (endOfDay ? '23:59:59' : '00:00:00'))
}

/** The columns an input sets, checked against each other and against `current` for an update. */
function columns(zone: Zone, input: CouponInput, current?: repo.CouponRecord): Updateable<Coupons> {
  const errors: Record<string, string[]> = {}
  const out: Updateable<Coupons> = {}
  if (input.code !== undefined) out.code = input.code.trim()
  if (input.type !== undefined) out.type = input.type
  if (input.value !== undefined) out.value = toPaisa(input.value)
  if (input.max_discount !== undefined)
    out.max_discount = input.max_discount === null ? null : toPaisa(input.max_discount)
  if (input.min_amount !== undefined) out.min_amount = input.min_amount === null ? null : toPaisa(input.min_amount)
  if (input.starts_at !== undefined)
    out.starts_at = input.starts_at === null ? null : instant(zone, input.starts_at, false)
  if (input.expires_at !== undefined)
    out.expires_at = input.expires_at === null ? null : instant(zone, input.expires_at, true)
  if (input.usage_limit !== undefined) out.usage_limit = input.usage_limit
  if (input.per_user_limit !== undefined) out.per_user_limit = input.per_user_limit
  if (input.is_active !== undefined) out.is_active = input.is_active

  const type = out.type ?? current?.type
  const value = (out.value ?? current?.value) as number
  if (value <= 0) errors.value = ['The value field must be greater than 0.']
  else if (type === 'percent' && value > 10000) errors.value = ['The value field must not be greater than 100.']
  for (const f of ['starts_at', 'expires_at'] as const) {
    const d = out[f]
    if (d instanceof Date && Number.isNaN(d.getTime()))
      errors[f] = [`The ${f.replace('_', ' ')} field must be a valid date.`]
  }
  const starts = out.starts_at !== undefined ? out.starts_at : current?.starts_at
  const expires = out.expires_at !== undefined ? out.expires_at : current?.expires_at
  if (starts && expires && !errors.expires_at && new Date(expires as Date) <= new Date(starts as Date)) {
    errors.expires_at = ['The expires at field must be a date after starts at.']
  }
  for (const f of ['usage_limit', 'per_user_limit'] as const) {
    if (out[f] === 0) errors[f] = [`The ${f.replace(/_/g, ' ')} field must be at least 1.`]
  }
  const limit = out.usage_limit !== undefined ? out.usage_limit : current?.usage_limit
  if (current && limit !== null && limit !== undefined && limit < current.used_count) {
    errors.usage_limit = [`The usage limit field must be at least ${current.used_count}.`]
  }
  if (Object.keys(errors).length) throw new Invalid(errors)
  return out
}

export async function createCoupon(
  db: Executor,
  zone: Zone,
  user: AuthUser,
  venueId: number | null,
  input: CouponInput,
) {
  await assertCouponAccess(db, user, venueId)
  const values = columns(zone, input)
  if (await repo.codeTaken(db, values.code as string)) throw new Invalid('code', CODE_TAKEN)
  try {
    return await repo.insertCoupon(db, {
      ...values,
      code: values.code as string,
      type: values.type as string,
      value: values.value as number,
      venue_id: venueId,
      created_by: user.id,
    })
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new Invalid('code', CODE_TAKEN)
    throw err
  }
}

export async function updateCoupon(db: Executor, zone: Zone, user: AuthUser, id: number, input: CouponInput) {
  const current = await repo.findCoupon(db, id)
  if (!current) throw new NotFound()
  await assertCouponAccess(db, user, current.venue_id)
  const values = columns(zone, input, current)
  if (values.code && (await repo.codeTaken(db, values.code as string, id))) throw new Invalid('code', CODE_TAKEN)
  try {
    return await repo.updateCoupon(db, id, values)
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new Invalid('code', CODE_TAKEN)
    throw err
  }
}

/** A coupon that bookings used keeps their history: deactivate it instead. */
export async function deleteCoupon(db: Executor, user: AuthUser, id: number) {
  const current = await repo.findCoupon(db, id)
  if (!current) throw new NotFound()
  await assertCouponAccess(db, user, current.venue_id)
  if (current.used_count > 0) throw new Conflict('This coupon has been used; deactivate it instead.')
  await repo.deleteCoupon(db, id)
}

export async function venueCoupons(db: Executor, user: AuthUser, venueParam: string) {
  const venueId = await repo.resolveVenueId(db, venueParam)
  if (!venueId) throw new NotFound()
  await assertCouponAccess(db, user, venueId)
  return { venueId, coupons: await repo.listCoupons(db, venueId) }
}
