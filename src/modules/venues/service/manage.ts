import type { Static } from 'typebox'
import { type AuthUser, hasRole } from '../../../lib/auth.ts'
import { cacheTags } from '../../../lib/cache-tags.ts'
import type { AppContext } from '../../../lib/context.ts'
import type { Executor } from '../../../lib/db.ts'
import { Conflict, Forbidden, Invalid, NotFound, Unprocessable } from '../../../lib/errors.ts'
import { toMinutes, toTimeWithSeconds } from '../../../lib/time.ts'
import { assertVenueAccess, MANAGER_ROLES, type VenueRole } from '../access.ts'
import { loadVenueResource } from '../queries.ts'
import { emailVerified } from '../repository/invitations.ts'
import {
  countAmenities,
  grantRole,
  hasUpcomingBookings,
  insertVenue,
  lockedVenuesSince,
  lockVenue,
  setVenueAmenities,
  taxIdentities,
  updateVenueRow,
  userExists,
} from '../repository/manage.ts'
import { resolveVenue, type VenueRecord } from '../repository.ts'
import type { Venue } from '../resource.ts'
import type { VenueCreateBody, VenueUpdateBody } from '../schemas.ts'
import { freeSlug, slugify } from '../slug.ts'
import { addVenueImage, type CheckedImage, checkGallery, checkImage, ImageChanges } from './images.ts'

// Venue create, update and delete (docs/catalogue.md, "Venues, courts, indoor games").

type CreateBody = Static<typeof VenueCreateBody>
type UpdateBody = Static<typeof VenueUpdateBody>

/** The live venue behind a path key (slug or id) that the caller may act on with one of `allowed`. */
export async function venueForStaff(
  ctx: AppContext,
  user: AuthUser,
  key: string,
  allowed: readonly VenueRole[],
): Promise<VenueRecord & { role: VenueRole | 'admin' }> {
  const venue = await resolveVenue(ctx.db, key)
  if (!venue) throw new NotFound()
  const role = await assertVenueAccess(ctx.db, user, venue.id, allowed)
  return { ...venue, role }
}

/** Opening hours: HH:mm or HH:mm:ss, closing strictly after opening (overnight hours are refused). */
export function checkHours(opening: string, closing: string) {
  const open = toTimeWithSeconds(opening)
  const close = toTimeWithSeconds(closing)
  if (toMinutes(close) * 60 + Number(close.slice(6)) <= toMinutes(open) * 60 + Number(open.slice(6))) {
    throw new Invalid('closing_time', 'The closing time must be a time after opening time.')
  }
  return { opening_time: open, closing_time: close }
}

/** The booking rules a create or update sets (docs/bookings.md, "Booking rules"); absent fields stay as they are. */
function bookingRules(
  body: Pick<
    UpdateBody,
    'booking_window_days' | 'min_notice_minutes' | 'max_hours_per_day' | 'no_show_limit' | 'allows_pay_at_venue'
  >,
) {
  return {
    ...(body.booking_window_days !== undefined && { booking_window_days: body.booking_window_days }),
    ...(body.min_notice_minutes !== undefined && { min_notice_minutes: body.min_notice_minutes }),
    ...(body.max_hours_per_day !== undefined && { max_hours_per_day: body.max_hours_per_day }),
    ...(body.no_show_limit !== undefined && { no_show_limit: body.no_show_limit }),
    ...(body.allows_pay_at_venue !== undefined && { allows_pay_at_venue: body.allows_pay_at_venue }),
  }
}

/**
 * The tax identity an update sets (docs/payments.md, "Receipts and IRD"): the owner's (or a
 * super_admin's) to set, 403 for a manager; VAT registration needs a PAN.
 */
async function taxIdentity(db: Executor, venue: { id: number; role: VenueRole | 'admin' }, body: UpdateBody) {
  const set = {
    ...(body.pan_number !== undefined && { pan_number: body.pan_number }),
    ...(body.vat_registered !== undefined && { vat_registered: body.vat_registered }),
    ...(body.legal_name !== undefined && { legal_name: body.legal_name?.trim() || null }),
  }
  if (Object.keys(set).length === 0) return set
  if (venue.role !== 'owner' && venue.role !== 'admin') throw new Forbidden()
  const current = (await taxIdentities(db, [venue.id])).get(venue.id)
  if ((set.vat_registered ?? current?.vat_registered) && !(set.pan_number ?? current?.pan_number ?? null)) {
    throw new Invalid('pan_number', 'A VAT registered venue needs its PAN number.')
  }
  return set
}

/** A venue resource with its tax identity, for those who manage it. */
export async function withTaxIdentity<V extends { id: number }>(db: Executor, venues: V[]) {
  const identities = await taxIdentities(
    db,
    venues.map((v) => v.id),
  )
  return venues.map((v) => ({ ...v, ...identities.get(v.id) }))
}

function amenityIds(body: { amenities?: number[]; 'amenities[]'?: number[] }): number[] | undefined {
  const ids = body.amenities ?? body['amenities[]']
  return ids === undefined ? undefined : [...new Set(ids)]
}

async function checkAmenities(db: Executor, ids: number[] | undefined) {
  if (!ids || ids.length === 0) return
  if ((await countAmenities(db, ids)) !== ids.length)
    throw new Invalid('amenities', 'The selected amenities is invalid.')
}

/** A super_admin may name the owner; the owner gets the venue_owner role if they lack it. */
async function checkOwner(db: Executor, ownerId: number) {
  if (!(await userExists(db, ownerId))) throw new Invalid('owner_id', 'The selected owner id is invalid.')
}

async function uploads(body: Record<string, unknown>): Promise<{ thumbnail?: CheckedImage; gallery: CheckedImage[] }> {
  const thumb = body.thumbnail
  const thumbnail =
    thumb === undefined || thumb === null || thumb === '' ? undefined : await checkImage('thumbnail', thumb)
  return { thumbnail, gallery: await checkGallery(body) }
}

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505'

export const VERIFY_EMAIL_FIRST = 'Verify your email address before creating a venue.'

/** 403 for a caller without venue_owner or super_admin whose email is unverified; whether they become an owner. */
export async function assertMayCreateVenue(ctx: AppContext, user: AuthUser): Promise<boolean> {
  if (hasRole(user, 'super_admin') || hasRole(user, 'venue_owner')) return false
  if (!(await emailVerified(ctx.db, user.id))) throw new Forbidden(VERIFY_EMAIL_FIRST)
  return true
}

/** A venue's name must say something: at least one letter or digit (a name of spaces or dots is 422). */
function checkName(name: string | undefined): void {
  if (name !== undefined && !/[\p{L}\p{N}]/u.test(name)) {
    throw new Invalid('name', 'The name must contain at least one letter or digit.')
  }
}

/**
 * At most VENUE_CREATE_PER_DAY venues a day for one owner (super_admin is not counted): throwaway
 * accounts cannot fill the catalogue. Counted in the creating transaction under the owner's lock.
 */
async function checkDailyVenues(ctx: AppContext, trx: Executor, ownerId: number): Promise<void> {
  const max = ctx.config.venueCreatePerDay
  const since = new Date(ctx.clock.now().getTime() - 24 * 3_600_000)
  if ((await lockedVenuesSince(trx, ownerId, since)) >= max) {
    throw new Unprocessable(
      `You may create at most ${max} venue${max === 1 ? '' : 's'} a day. Please try again tomorrow.`,
    )
  }
}

/**
 * POST /venues: a new venue of the caller (or of owner_id, for super_admin); unverified, active,
 * so hidden from the catalogue until the super admin approves it. A signed-in user without the
 * venue_owner role needs a verified email (403 otherwise) and receives the role with the venue.
 */
export async function createVenue(ctx: AppContext, user: AuthUser, body: CreateBody): Promise<Venue> {
  const isAdmin = hasRole(user, 'super_admin')
  const becomesOwner = await assertMayCreateVenue(ctx, user)
  checkName(body.name)
  const hours = checkHours(body.opening_time, body.closing_time)
  const ownerId = isAdmin && body.owner_id !== undefined ? body.owner_id : user.id
  if (ownerId !== user.id) await checkOwner(ctx.db, ownerId)
  const amenities = amenityIds(body)
  await checkAmenities(ctx.db, amenities)
  const files = await uploads(body as Record<string, unknown>)

  const changes = new ImageChanges()
  for (let attempt = 0; ; attempt++) {
    try {
      const id = await ctx.db.transaction().execute(async (trx) => {
        if (!isAdmin) await checkDailyVenues(ctx, trx, ownerId)
        const slug = await freeSlug(trx, slugify(body.name))
        const venueId = await insertVenue(trx, {
          created_at: ctx.clock.now(),
          owner_id: ownerId,
          name: body.name.trim(),
          slug,
          description: body.description ?? null,
          phone: body.phone ?? null,
          email: body.email ?? null,
          address: body.address,
          name_ne: body.name_ne?.trim() || null,
          address_ne: body.address_ne?.trim() || null,
          city: body.city,
          state: body.state,
          latitude: String(body.latitude),
          longitude: String(body.longitude),
          ...hours,
          ...(body.free_cancellation_hours !== undefined && {
            free_cancellation_hours: body.free_cancellation_hours,
          }),
          ...bookingRules(body),
          is_active: true,
          verification_status: 'unverified',
        })
        if (amenities) await setVenueAmenities(trx, venueId, amenities)
        if (ownerId !== user.id || becomesOwner) await grantRole(trx, ownerId, 'venue_owner')
        if (files.thumbnail) await addVenueImage(ctx, trx, venueId, files.thumbnail, 'thumbnail', changes)
        for (const g of files.gallery) await addVenueImage(ctx, trx, venueId, g, 'gallery', changes)
        return venueId
      })
      await changes.finish(ctx, true)
      // The new owner's role is announced by the database too; drop it here at once (lib/auth.ts).
      if (becomesOwner) ctx.cache.invalidate(cacheTags.user(user.id))
      return (await loadVenueResource(ctx, id))!
    } catch (e) {
      await changes.finish(ctx, false)
      // Two venues with the same name raced for one slug: take the next one.
      if (isUniqueViolation(e) && attempt < 5) continue
      throw e
    }
  }
}

/** PUT/PATCH /venues/{venue}: partial update by the owner, a manager or super_admin. */
export async function updateVenue(ctx: AppContext, user: AuthUser, key: string, body: UpdateBody): Promise<Venue> {
  const venue = await venueForStaff(ctx, user, key, MANAGER_ROLES)
  checkName(body.name)
  const hours =
    body.opening_time !== undefined || body.closing_time !== undefined
      ? checkHours(body.opening_time ?? venue.opening_time, body.closing_time ?? venue.closing_time)
      : {}
  const ownerId = venue.role === 'admin' ? body.owner_id : undefined
  if (ownerId !== undefined) await checkOwner(ctx.db, ownerId)
  const amenities = amenityIds(body)
  await checkAmenities(ctx.db, amenities)
  const tax = await taxIdentity(ctx.db, venue, body)
  const files = await uploads(body as Record<string, unknown>)

  const changes = new ImageChanges()
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const set = {
        ...(body.name !== undefined && { name: body.name.trim() }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.phone !== undefined && { phone: body.phone }),
        ...(body.email !== undefined && { email: body.email }),
        ...(body.address !== undefined && { address: body.address }),
        ...(body.name_ne !== undefined && { name_ne: body.name_ne?.trim() || null }),
        ...(body.address_ne !== undefined && { address_ne: body.address_ne?.trim() || null }),
        ...(body.city !== undefined && { city: body.city }),
        ...(body.state !== undefined && { state: body.state }),
        ...(body.latitude !== undefined && { latitude: String(body.latitude) }),
        ...(body.longitude !== undefined && { longitude: String(body.longitude) }),
        ...(body.is_active !== undefined && { is_active: body.is_active }),
        ...(body.free_cancellation_hours !== undefined && { free_cancellation_hours: body.free_cancellation_hours }),
        ...bookingRules(body),
        ...tax,
        ...(ownerId !== undefined && { owner_id: ownerId }),
        ...hours,
      }
      await updateVenueRow(trx, venue.id, { ...set, updated_at: ctx.clock.now() })
      if (ownerId !== undefined) await grantRole(trx, ownerId, 'venue_owner')
      if (amenities) await setVenueAmenities(trx, venue.id, amenities)
      if (files.thumbnail) await addVenueImage(ctx, trx, venue.id, files.thumbnail, 'thumbnail', changes)
      for (const g of files.gallery) await addVenueImage(ctx, trx, venue.id, g, 'gallery', changes)
    })
  } catch (e) {
    await changes.finish(ctx, false)
    throw e
  }
  await changes.finish(ctx, true)
  const [shown] = await withTaxIdentity(ctx.db, [(await loadVenueResource(ctx, venue.id))!])
  return shown
}

/** DELETE /venues/{venue}: soft delete by the owner or super_admin; 409 while upcoming confirmed bookings exist. */
export async function deleteVenue(ctx: AppContext, user: AuthUser, key: string): Promise<void> {
  const venue = await venueForStaff(ctx, user, key, ['owner'])
  const now = ctx.zone.wallClock(ctx.clock.now())
  await ctx.db.transaction().execute(async (trx) => {
    await lockVenue(trx, venue.id)
    if (await hasUpcomingBookings(trx, venue.id, now)) {
      throw new Conflict('The venue has upcoming confirmed bookings and cannot be deleted.')
    }
    await updateVenueRow(trx, venue.id, { deleted_at: ctx.clock.now(), updated_at: ctx.clock.now() })
  })
}
