import { randomBytes } from 'node:crypto'
import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Conflict, Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import type { PageParams } from '../../lib/pagination.ts'
import { addDays } from '../../lib/time.ts'
import { MAX_SHARES, splitBooking } from '../splits/index.ts'
import * as repo from './repository.ts'
import { type Match, matchResource } from './resource.ts'
import type { CreateMatchBody, MatchListQuery } from './schemas.ts'

// Opening a match on a booking, the public list, one match, and the organizer's invitations
// (docs/matches.md). Joining and leaving are in play.ts, results and levels in results.ts.

export const BOOKING_NOT_YOURS = 'You may open a match only on a booking of your own.'
export const BOOKING_NOT_OPEN = 'A match can be opened only on a pending or confirmed booking that has not started.'
export const LEVELS_REVERSED = 'The level min must not be above the level max.'
export const MATCH_EXISTS = 'This booking already has a match.'
export const TOO_MANY_PLAYERS = `A match has at most ${MAX_SHARES} players: its booking is split into at most ${MAX_SHARES} shares.`
export const NO_MATCH = 'This booking has no match.'
export const UNKNOWN_EMAIL = 'No player has this email.'

/** A match's id from its path; 404 for anything else. */
export function matchId(raw: string): number {
  const id = repo.parseId(raw)
  if (id === undefined) throw new NotFound()
  return id
}

/**
 * Whether `viewer` may see the match: a public one anyone may; a private one only its players, the
 * invited, or whoever holds its link's token.
 */
export async function maySee(
  db: Executor,
  m: Pick<repo.MatchRow, 'id' | 'visibility' | 'link_token'>,
  viewer: AuthUser | null,
  token: string | undefined,
): Promise<boolean> {
  if (m.visibility === 'public') return true
  if (token !== undefined && token === m.link_token) return true
  if (!viewer) return false
  const players = await repo.livePlayers(db, [m.id])
  return players.some((p) => p.user_id === viewer.id) || (await repo.isInvited(db, m.id, viewer.id))
}

/** The match as `viewer` sees it (its link only for its players). */
export async function loadMatch(ctx: AppContext, db: Executor, id: number, viewer: AuthUser | null): Promise<Match> {
  const row = await repo.matchById(db, id)
  if (!row) throw new NotFound()
  const players = await repo.livePlayers(db, [id])
  const result = await repo.resultOf(db, id)
  return matchResource(row, players, {
    zone: ctx.zone,
    appUrl: ctx.config.appUrl,
    viewerIsPlayer: viewer !== null && players.some((p) => p.user_id === viewer.id),
    result,
  })
}

/** GET /matches/{match}: public matches to anyone, private ones by link (token), to players and the invited. */
export async function showMatch(
  ctx: AppContext,
  viewer: AuthUser | null,
  rawId: string,
  token: string | undefined,
): Promise<Match> {
  const id = matchId(rawId)
  const row = await repo.matchById(ctx.db, id)
  if (!row || !(await maySee(ctx.db, row, viewer, token))) throw new NotFound()
  return loadMatch(ctx, ctx.db, id, viewer)
}

/** GET /matches: public matches still to be played, soonest first, with the query's filters. */
export async function listMatches(
  ctx: AppContext,
  viewer: AuthUser | null,
  q: Static<typeof MatchListQuery>,
  page: PageParams,
): Promise<{ items: Match[]; total: number }> {
  if ((q.lat === undefined) !== (q.lng === undefined)) {
    throw new Invalid(q.lat === undefined ? 'lat' : 'lng', 'The lat and lng fields are required together.')
  }
  const { rows, total } = await repo.publicMatches(ctx.db, {
    sport: q.sport,
    day: q.date
      ? { start: ctx.zone.instant(q.date, '00:00'), end: ctx.zone.instant(addDays(q.date, 1), '00:00') }
      : undefined,
    geo: q.lat !== undefined && q.lng !== undefined ? { lat: q.lat, lng: q.lng, radiusKm: q.radius ?? 10 } : undefined,
    level: q.level,
    from: ctx.clock.now(),
    limit: page.perPage,
    offset: page.offset,
  })
  const players = await repo.livePlayers(
    ctx.db,
    rows.map((r) => r.id),
  )
  const items = rows.map((row) => {
    const own = players.filter((p) => p.match_id === row.id)
    return matchResource(row, own, {
      zone: ctx.zone,
      appUrl: ctx.config.appUrl,
      viewerIsPlayer: viewer !== null && own.some((p) => p.user_id === viewer.id),
    })
  })
  return { items, total }
}

/** The checks of POST /matches that need no split: the booking, its owner and time, the level range. */
export async function checkNewMatch(
  ctx: AppContext,
  db: Executor,
  user: AuthUser,
  input: Static<typeof CreateMatchBody>,
): Promise<repo.BookingForMatch & { starts_at: Date }> {
  if (input.players_total > MAX_SHARES) throw new Invalid('players_total', TOO_MANY_PLAYERS)
  if (input.level_min !== undefined && input.level_max !== undefined && input.level_min > input.level_max) {
    throw new Invalid('level_min', LEVELS_REVERSED)
  }
  const kind = input.booking_type ?? 'court'
  const booking = await repo.bookingForMatch(db, kind, input.booking_id)
  if (!booking) throw new Invalid('booking_id', 'The selected booking id is invalid.')
  if (booking.user_id !== user.id) throw new Forbidden(BOOKING_NOT_YOURS)
  const startsAt = ctx.zone.instant(booking.date, booking.start_time)
  if (!['pending', 'confirmed'].includes(booking.status) || startsAt <= ctx.clock.now()) {
    throw new Invalid('booking_id', BOOKING_NOT_OPEN)
  }
  return { ...booking, starts_at: startsAt }
}

/** Inserts the match and its organizer as its first player; a live match on the booking is 409 (caller maps). */
export async function insertNewMatch(
  ctx: AppContext,
  trx: Executor,
  user: AuthUser,
  input: Static<typeof CreateMatchBody>,
  booking: repo.BookingForMatch & { starts_at: Date },
  organizerShare: number,
): Promise<number> {
  const now = ctx.clock.now()
  const id = await repo.insertMatch(
    trx,
    {
      booking_type: input.booking_type ?? 'court',
      booking_id: booking.id,
      organizer_id: user.id,
      venue_id: booking.venue_id,
      sport: booking.sport,
      starts_at: booking.starts_at,
      players_total: input.players_total,
      level_min: input.level_min ?? null,
      level_max: input.level_max ?? null,
      visibility: input.visibility,
      link_token: randomBytes(16).toString('base64url'),
      note: input.note?.trim() || null,
    },
    now,
  )
  await repo.insertPlayer(trx, { matchId: id, userId: user.id, shareId: organizerShare, now })
  return id
}

/**
 * POST /matches/{match}/invites: the organizer invites a player by email. An invited player may see
 * a private match and join outside its level range. 403 for anyone but the organizer.
 */
export async function invitePlayer(ctx: AppContext, user: AuthUser, rawId: string, email: string) {
  const id = matchId(rawId)
  const row = await repo.matchById(ctx.db, id)
  if (!row) throw new NotFound()
  if (row.organizer_id !== user.id) throw new Forbidden()
  const invited = await repo.userByEmail(ctx.db, email.trim())
  if (!invited) throw new Invalid('email', UNKNOWN_EMAIL)
  await repo.invite(ctx.db, id, invited.id, ctx.clock.now())
  return { id: invited.id, name: invited.name }
}

/**
 * POST /matches: opens a match on the caller's booking, in one transaction: the booking is split into
 * players_total shares (splits' splitBooking: 409 when not pending or a share is paid, 422 too late)
 * and the organizer is the first player, holding the first share (the one with any remainder).
 * At most MAX_SHARES players: a split has at most that many shares.
 */
export async function createMatch(
  ctx: AppContext,
  user: AuthUser,
  input: Static<typeof CreateMatchBody>,
): Promise<Match> {
  let id: number
  try {
    id = await ctx.db.transaction().execute(async (trx) => {
      const booking = await checkNewMatch(ctx, trx, user, input)
      const split = await splitBooking(ctx, trx, {
        kind: input.booking_type ?? 'court',
        bookingId: booking.id,
        organizerId: user.id,
        shares: input.players_total,
      })
      return insertNewMatch(ctx, trx, user, input, booking, split.shares[0].id)
    })
  } catch (err) {
    if (repo.isUniqueViolation(err)) throw new Conflict(MATCH_EXISTS)
    throw err
  }
  return loadMatch(ctx, ctx.db, id, user)
}

/**
 * GET /bookings/{booking}/match (and the indoor one): the match on a booking as the venue's desk sees
 * it (the route's hook checked the desk); 404 when the booking has none.
 */
export async function matchOfBooking(ctx: AppContext, kind: repo.Kind, bookingId: number): Promise<Match> {
  const id = await repo.matchOfBooking(ctx.db, kind, bookingId)
  if (id === undefined) throw new NotFound(NO_MATCH)
  return loadMatch(ctx, ctx.db, id, null)
}
