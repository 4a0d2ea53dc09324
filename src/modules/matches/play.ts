import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Conflict, Forbidden, Invalid, NotFound, Unprocessable } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import { checkReturnUrl, type Gateways, paymentResource, startAtGateway } from '../payments/index.ts'
import { lockShares, payTakenShares, releaseShare } from '../splits/index.ts'
import { aboutMatch, told } from './notices.ts'
import { levelOf, NEW_RATING } from './rating.ts'
import * as repo from './repository.ts'
import type { Match } from './resource.ts'
import type { JoinBody } from './schemas.ts'
import { loadMatch, matchId, maySee } from './service.ts'

// Joining and leaving a match (docs/matches.md, "Joining and leaving"): a player takes one share of
// the booking's split and pays it as any share is paid (splits' lockShares + payTakenShares); leaving
// before the split's deadline refunds that share (releaseShare) and reopens the spot. Each runs in one
// transaction that locks the match row first, then (through the splits module) the booking and its
// shares, so joins, leaves and results of one match take their turn.

export const MATCH_FULL = 'This match is full.'
export const SPOTS_PAID =
  'The whole booking of this match has been paid another way: no spot is left to join and pay for. Ask the organizer.'
export const ALREADY_JOINED = 'You are already a player of this match.'
export const NOT_OPEN = 'This match is no longer open.'
export const OUTSIDE_LEVEL = (min: number | null, max: number | null, level: number) =>
  `This match is for levels ${min ?? 0}–${max ?? 7}; your level is ${level}. Ask the organizer to invite you.`
export const NOT_A_PLAYER = 'You are not a player of this match.'
export const ORGANIZER_STAYS = 'The organizer cannot leave the match: cancel the booking instead.'
export const TOO_LATE_TO_LEAVE = 'The deadline to leave this match has passed.'

export type JoinAnswer =
  | { kind: 'wallet'; match: Match; payment: ReturnType<typeof paymentResource> }
  | { kind: 'gateway'; match: Match; payment: ReturnType<typeof paymentResource>; paymentUrl: string }

/**
 * POST /matches/{match}/join. 404 when the caller may not see it (a private match without its link's
 * token or an invitation); 409 already a player or no spot left; 422 not open, outside the level range
 * (unless invited), the deadline passed, or the wallet short.
 */
export async function joinMatch(
  ctx: AppContext,
  gateways: Gateways,
  user: AuthUser,
  rawId: string,
  input: Static<typeof JoinBody>,
): Promise<JoinAnswer> {
  const id = matchId(rawId)
  checkReturnUrl(ctx.config, input.return_url)
  const method = input.method ?? 'wallet'
  const now = ctx.clock.now()
  const started = await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.lockMatch(trx, id))) throw new NotFound()
    const m = (await repo.matchById(trx, id))!
    if (!(await maySee(trx, m, user, input.token))) throw new NotFound()
    const players = await repo.livePlayers(trx, [id])
    if (players.some((p) => p.user_id === user.id)) throw new Conflict(ALREADY_JOINED)
    if (m.status === 'cancelled' || m.status === 'played' || !['pending', 'confirmed'].includes(m.booking_status)) {
      throw new Unprocessable(NOT_OPEN)
    }
    if (players.length >= m.players_total) throw new Conflict(MATCH_FULL)
    const min = m.level_min === null ? null : Number(m.level_min)
    const max = m.level_max === null ? null : Number(m.level_max)
    if (min !== null || max !== null) {
      const mine = await repo.ratingOf(trx, user.id, m.sport)
      const level = levelOf(mine?.rating ?? NEW_RATING)
      const outside = (min !== null && level < min) || (max !== null && level > max)
      if (outside && !(await repo.isInvited(trx, id, user.id))) {
        throw new Invalid('level', OUTSIDE_LEVEL(min, max, level))
      }
    }
    const split = await repo.splitOf(trx, m.booking_type as repo.Kind, m.booking_id)
    if (!split) throw new Unprocessable(NOT_OPEN)
    const held = await repo.heldShares(trx, id)
    const taken = await lockShares(ctx, trx, split.id, (shares) =>
      shares.filter((s) => s.payment_id === null && !held.has(s.id)).slice(0, 1),
    ).catch((err) => {
      // Every share held or paid: the spot went to someone else, or the booking was paid in full
      // another way (its unpaid shares settled by that payment) and no spot takes money any more.
      if (err instanceof Conflict) throw new Conflict(players.length < m.players_total ? SPOTS_PAID : MATCH_FULL)
      throw err
    })
    const payment = await payTakenShares(ctx, trx, taken, user.id, method, input.return_url ?? null)
    await repo.insertPlayer(trx, { matchId: id, userId: user.id, shareId: taken.shares[0].id, now })
    const meta = aboutMatch(ctx, m)
    const everyone = [...players.map((p) => p.user_id), user.id]
    if (everyone.length >= m.players_total) {
      await repo.setStatus(trx, id, 'full')
      await told(ctx, trx, everyone, 'MatchFull', meta)
    } else {
      await told(ctx, trx, [m.organizer_id], 'MatchJoined', meta, { id: user.id, name: user.name })
    }
    return { payment, booking: taken.booking }
  })
  const match = await loadMatch(ctx, ctx.db, id, user)
  const payment = paymentResource(started.payment.payment, ctx.zone)
  if (started.payment.kind === 'wallet') return { kind: 'wallet', match, payment }
  const paymentUrl = await startAtGateway(
    ctx,
    gateways,
    started.payment.payment,
    `Share of booking ${started.booking.booking_number}`,
  )
  return { kind: 'gateway', match, payment, paymentUrl }
}

/**
 * POST /matches/{match}/leave: a player other than the organizer leaves before the split's deadline;
 * a paid share is refunded to its payer the way it came (splits' releaseShare) and the spot reopens.
 * 403 not a player; 422 the organizer, or the deadline passed.
 */
export async function leaveMatch(
  ctx: AppContext,
  user: AuthUser,
  rawId: string,
): Promise<{ match: Match; refunded: string }> {
  const id = matchId(rawId)
  const now = ctx.clock.now()
  const refunded = await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.lockMatch(trx, id))) throw new NotFound()
    const m = (await repo.matchById(trx, id))!
    const me = await repo.livePlayer(trx, id, user.id)
    if (!me) throw new Forbidden(NOT_A_PLAYER)
    if (m.organizer_id === user.id) throw new Unprocessable(ORGANIZER_STAYS)
    if (m.status === 'cancelled' || m.status === 'played' || !['pending', 'confirmed'].includes(m.booking_status)) {
      throw new Unprocessable(NOT_OPEN)
    }
    const split = await repo.splitOf(trx, m.booking_type as repo.Kind, m.booking_id)
    if (!split || split.deadline <= now) throw new Unprocessable(TOO_LATE_TO_LEAVE)
    const paisa = me.share_id === null ? 0 : await releaseShare(ctx, trx, me.share_id)
    await repo.markLeft(trx, id, user.id, now)
    await repo.setStatus(trx, id, 'open')
    const rest = (await repo.livePlayers(trx, [id])).map((p) => p.user_id)
    const meta = aboutMatch(ctx, m)
    await told(ctx, trx, rest, 'MatchPlayerLeft', meta, { id: user.id, name: user.name })
    return paisa
  })
  return { match: await loadMatch(ctx, ctx.db, id, user), refunded: formatMoney(refunded) }
}
