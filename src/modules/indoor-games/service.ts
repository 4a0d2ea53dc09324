import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Conflict, NotFound } from '../../lib/errors.ts'
import { pathId } from '../../lib/ids.ts'
import { toPaisa } from '../../lib/money.ts'
import {
  assertCanSeeVenueContent,
  assertVenueAccess,
  findVenueById,
  MANAGER_ROLES,
  resolveVenue,
  runsVenue,
  venueForStaff,
  venueRoleOf,
} from '../venues/index.ts'
import { listVenueIndoorGames, loadIndoorGameResources } from './queries.ts'
import * as repo from './repository.ts'
import type { IndoorGame } from './resource.ts'
import type { IndoorGameCreateBody, IndoorGameUpdateBody } from './schemas.ts'

// Indoor games (one station each: a console, a table) of a venue: catalogue and management.

async function findGame(db: Executor, key: string) {
  const game = await repo.findGameRow(db, pathId(key))
  if (!game) throw new NotFound()
  const venue = await findVenueById(db, game.venue_id)
  if (!venue) throw new NotFound()
  return { ...game, venue }
}

async function resource(ctx: AppContext, id: number): Promise<IndoorGame> {
  const game = (await loadIndoorGameResources(ctx.db, [id], ctx.zone)).get(id)
  if (!game) throw new NotFound()
  return game
}

/**
 * GET /venues/{venueId}/indoor-games: the active games of a visible venue; with `includeInactive`,
 * the deactivated ones too for the venue's people and super_admin (ignored for anyone else).
 */
export async function venueIndoorGames(
  ctx: AppContext,
  user: AuthUser | null,
  venueKey: string,
  opts: { gameType?: string; includeInactive?: boolean } = {},
) {
  const venue = await resolveVenue(ctx.db, venueKey)
  if (!venue) throw new NotFound()
  await assertCanSeeVenueContent(ctx.db, user, venue)
  const includeInactive = opts.includeInactive === true && (await runsVenue(ctx.db, user, venue.id))
  return listVenueIndoorGames(ctx.db, ctx.zone, venue.id, { gameType: opts.gameType, includeInactive })
}

/** GET /indoor-games/{id}: an active game of a visible venue (any game for the venue's people). */
export async function showIndoorGame(ctx: AppContext, user: AuthUser | null, key: string) {
  const game = await findGame(ctx.db, key)
  await assertCanSeeVenueContent(ctx.db, user, game.venue)
  if (!game.is_active && !(user && (await venueRoleOf(ctx.db, user, game.venue_id)))) throw new NotFound()
  return resource(ctx, game.id)
}

export async function createIndoorGame(
  ctx: AppContext,
  user: AuthUser,
  venueKey: string,
  body: Static<typeof IndoorGameCreateBody>,
) {
  const venue = await venueForStaff(ctx, user, venueKey, MANAGER_ROLES)
  const id = await repo.insertGame(ctx.db, {
    venue_id: venue.id,
    tenant_id: venue.owner_id,
    name: body.name.trim(),
    game_type: body.game_type,
    description: body.description ?? null,
    capacity: body.capacity ?? 2,
    slot_minutes: body.slot_minutes ?? 60,
    price_per_hour: toPaisa(body.price_per_hour),
    is_active: body.is_active ?? true,
    sort_order: body.sort_order ?? 0,
  })
  return resource(ctx, id)
}

/** An indoor game the caller may change: owner or manager of its venue (404 unknown, 403 otherwise). */
export async function gameForStaff(ctx: AppContext, user: AuthUser, key: string) {
  const game = await findGame(ctx.db, key)
  await assertVenueAccess(ctx.db, user, game.venue_id, MANAGER_ROLES)
  return game
}

export async function updateIndoorGame(
  ctx: AppContext,
  user: AuthUser,
  key: string,
  body: Static<typeof IndoorGameUpdateBody>,
) {
  const game = await gameForStaff(ctx, user, key)
  await repo.updateGame(ctx.db, game.id, {
    ...(body.name !== undefined && { name: body.name.trim() }),
    ...(body.game_type !== undefined && { game_type: body.game_type }),
    ...(body.description !== undefined && { description: body.description }),
    ...(body.capacity !== undefined && { capacity: body.capacity }),
    ...(body.slot_minutes !== undefined && { slot_minutes: body.slot_minutes }),
    ...(body.price_per_hour !== undefined && { price_per_hour: toPaisa(body.price_per_hour) }),
    ...(body.is_active !== undefined && { is_active: body.is_active }),
    ...(body.sort_order !== undefined && { sort_order: body.sort_order }),
    updated_at: ctx.clock.now(),
  })
  return resource(ctx, game.id)
}

/** Soft delete; 409 while the game has upcoming confirmed bookings. */
export async function deleteIndoorGame(ctx: AppContext, user: AuthUser, key: string) {
  const game = await gameForStaff(ctx, user, key)
  const now = ctx.zone.wallClock(ctx.clock.now())
  await ctx.db.transaction().execute(async (trx) => {
    await repo.lockGame(trx, game.id)
    if (await repo.hasUpcomingBookings(trx, game.id, now)) {
      throw new Conflict('The indoor game has upcoming confirmed bookings and cannot be deleted.')
    }
    await repo.updateGame(trx, game.id, { deleted_at: ctx.clock.now(), updated_at: ctx.clock.now() })
  })
}
