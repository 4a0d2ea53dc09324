import type { Static } from 'typebox'
import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import type { Executor } from '../../../lib/db.ts'
import { Conflict, Invalid, NotFound } from '../../../lib/errors.ts'
import { pathId } from '../../../lib/ids.ts'
import { toPaisa } from '../../../lib/money.ts'
import {
  assertCanSeeVenueContent,
  assertVenueAccess,
  DESK_ROLES,
  findVenueById,
  MANAGER_ROLES,
  refreshMinPrice,
  runsVenue,
  type VenueRecord,
  type VenueRole,
  venueForStaff,
} from '../../venues/index.ts'
import { loadCourtResources } from '../queries.ts'
import {
  findCourtRow,
  findSport,
  hasUpcomingCourtBookings,
  insertCourt,
  lockCourt,
  updateCourtRow,
  venueCourtIds,
} from '../repository.ts'
import type { Court } from '../resource.ts'
import type { CourtCreateBody, CourtUpdateBody } from '../schemas.ts'

// Courts: who may see and change them, and their create/update/delete.

export interface CourtRecord {
  id: number
  venue_id: number
  is_active: boolean
  slot_minutes: number
  venue: VenueRecord
}

async function findCourt(db: Executor, key: string): Promise<CourtRecord> {
  const court = await findCourtRow(db, pathId(key))
  if (!court) throw new NotFound()
  const venue = await findVenueById(db, court.venue_id)
  if (!venue) throw new NotFound()
  return { ...court, venue }
}

/** A court the caller may manage with one of `allowed` at its venue (404 unknown, 403 otherwise). */
export async function courtForStaff(ctx: AppContext, user: AuthUser, key: string, allowed: readonly VenueRole[]) {
  const court = await findCourt(ctx.db, key)
  await assertVenueAccess(ctx.db, user, court.venue_id, allowed)
  return court
}

/** A court the caller may see: active at a public venue, or any court of a venue they work at. */
export async function courtForViewer(ctx: AppContext, user: AuthUser | null, key: string) {
  const court = await findCourt(ctx.db, key)
  await assertCanSeeVenueContent(ctx.db, user, court.venue)
  if (!court.is_active && !(await staffCanSee(ctx, user, court.venue))) throw new NotFound()
  return court
}

async function staffCanSee(ctx: AppContext, user: AuthUser | null, venue: VenueRecord) {
  if (!user) return false
  try {
    await assertVenueAccess(ctx.db, user, venue.id, DESK_ROLES)
    return true
  } catch {
    return false
  }
}

export async function courtResource(ctx: AppContext, id: number): Promise<Court> {
  const court = (await loadCourtResources(ctx.db, [id], { storage: ctx.storage, zone: ctx.zone })).get(id)
  if (!court) throw new NotFound()
  return court
}

/**
 * GET /venues/{venue}/courts: the active courts of a visible venue; with `includeInactive`, the
 * deactivated ones too for the venue's people and super_admin (ignored for anyone else).
 */
export async function venueCourts(
  ctx: AppContext,
  user: AuthUser | null,
  venue: VenueRecord,
  includeInactive = false,
): Promise<Court[]> {
  await assertCanSeeVenueContent(ctx.db, user, venue)
  const all = includeInactive && (await runsVenue(ctx.db, user, venue.id))
  const ids = await venueCourtIds(ctx.db, venue.id, { includeInactive: all })
  const map = await loadCourtResources(ctx.db, ids, { storage: ctx.storage, zone: ctx.zone })
  return ids.map((id) => map.get(id)!).filter(Boolean)
}

async function sportOf(db: Executor, sportId: number | null | undefined) {
  if (sportId === undefined || sportId === null) return null
  const sport = await findSport(db, sportId)
  if (!sport) throw new Invalid('sport_id', 'The selected sport id is invalid.')
  return sport
}

type CreateBody = Static<typeof CourtCreateBody>

export async function createCourt(ctx: AppContext, user: AuthUser, venueKey: string, body: CreateBody): Promise<Court> {
  const venue = await venueForStaff(ctx, user, venueKey, MANAGER_ROLES)
  const sport = await sportOf(ctx.db, body.sport_id)
  const type = body.type?.trim() || sport?.key
  if (!type) throw new Invalid('type', 'The type field is required when sport id is not present.')
  const id = await ctx.db.transaction().execute(async (trx) => {
    const courtId = await insertCourt(trx, {
      venue_id: venue.id,
      sport_id: sport?.id ?? null,
      name: body.name.trim(),
      type,
      description: body.description ?? null,
      capacity: body.capacity ?? 10,
      slot_minutes: body.slot_minutes ?? 60,
      price_per_hour: toPaisa(body.price_per_hour),
      is_active: body.is_active ?? true,
    })
    await refreshMinPrice(trx, venue.id)
    return courtId
  })
  return courtResource(ctx, id)
}

export async function updateCourt(
  ctx: AppContext,
  user: AuthUser,
  key: string,
  body: Static<typeof CourtUpdateBody>,
): Promise<Court> {
  const court = await courtForStaff(ctx, user, key, MANAGER_ROLES)
  const sport = body.sport_id === undefined ? undefined : await sportOf(ctx.db, body.sport_id)
  await ctx.db.transaction().execute(async (trx) => {
    await updateCourtRow(trx, court.id, {
      ...(body.name !== undefined && { name: body.name.trim() }),
      ...(body.type !== undefined && { type: body.type.trim() }),
      ...(sport !== undefined && { sport_id: sport?.id ?? null }),
      ...(body.description !== undefined && { description: body.description }),
      ...(body.capacity !== undefined && { capacity: body.capacity }),
      ...(body.slot_minutes !== undefined && { slot_minutes: body.slot_minutes }),
      ...(body.price_per_hour !== undefined && { price_per_hour: toPaisa(body.price_per_hour) }),
      ...(body.is_active !== undefined && { is_active: body.is_active }),
      updated_at: ctx.clock.now(),
    })
    await refreshMinPrice(trx, court.venue_id)
  })
  return courtResource(ctx, court.id)
}

/** Soft delete; 409 while the court has upcoming confirmed bookings. */
export async function deleteCourt(ctx: AppContext, user: AuthUser, key: string): Promise<void> {
  const court = await courtForStaff(ctx, user, key, MANAGER_ROLES)
  const now = ctx.zone.wallClock(ctx.clock.now())
  await ctx.db.transaction().execute(async (trx) => {
    await lockCourt(trx, court.id)
    if (await hasUpcomingCourtBookings(trx, court.id, now)) {
      throw new Conflict('The court has upcoming confirmed bookings and cannot be deleted.')
    }
    await updateCourtRow(trx, court.id, { deleted_at: ctx.clock.now(), updated_at: ctx.clock.now() })
    await refreshMinPrice(trx, court.venue_id)
  })
}
