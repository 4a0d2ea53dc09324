import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { notify } from '../notifications/index.ts'
import * as repo from './repository.ts'

// The match's notifications (stored in the inbox and pushed; also sent by SMS and email as the
// booking messages are, notifications/messages/match.ts): joined, full, someone left, the pay
// deadline near, a result to confirm. Each is written in the transaction of the change it reports,
// in English; notify() writes the message in the recipient's language (the server catalogue's
// notify.match_* keys).

export interface About {
  id: number
  sport: string
  venue_name: string
  /** The start on the venue's wall clock, "YYYY-MM-DD HH:mm:ss". */
  start: string
  booking_type: string
  booking_id: number
}

/** What a notice says of match `m` (a match row as repo.matchById reads it). */
export function aboutMatch(
  ctx: AppContext,
  m: { id: number; sport: string; venue_name: string; starts_at: Date; booking_type: string; booking_id: number },
): About {
  return {
    id: m.id,
    sport: m.sport,
    venue_name: m.venue_name,
    start: ctx.zone.format(m.starts_at),
    booking_type: m.booking_type,
    booking_id: m.booking_id,
  }
}

const what = (m: About) => `the ${m.sport} match at ${m.venue_name} on ${m.start}`
// booking_id and booking_type name the booking its SMS and email tell of (venue, court, date, time).
const data = (m: About, message: string, extra: Record<string, unknown> = {}) => ({
  message,
  match_id: m.id,
  sport: m.sport,
  booking_id: m.booking_id,
  booking_type: m.booking_type,
  ...extra,
})

export async function told(
  ctx: AppContext,
  db: Executor,
  userIds: number[],
  type: 'MatchJoined' | 'MatchFull' | 'MatchPlayerLeft' | 'MatchDeadlineNear' | 'MatchResultToConfirm',
  m: About,
  player?: { id: number; name: string },
): Promise<void> {
  const message = {
    MatchJoined: `${player?.name} joined ${what(m)}.`,
    MatchFull: `${what(m)[0].toUpperCase()}${what(m).slice(1)} is full: every spot is taken.`,
    MatchPlayerLeft: `${player?.name} left ${what(m)}; a spot is open again.`,
    MatchDeadlineNear: `${what(m)[0].toUpperCase()}${what(m).slice(1)} still has open spots and its pay deadline is near.`,
    MatchResultToConfirm: `${player?.name} reported the result of ${what(m)}. Please confirm it.`,
  }[type]
  for (const id of new Set(userIds)) {
    await notify(ctx, id, type, data(m, message, player ? { player_id: player.id, player_name: player.name } : {}), db)
  }
}

/** How long before its split's pay deadline an open match's players are told it is near. */
export const DEADLINE_NOTICE_MINUTES = 60

/**
 * The deadline-near sweep: every open match whose split's pay deadline is at most
 * DEADLINE_NOTICE_MINUTES away is announced once to its players (at the deadline, unpaid shares
 * cancel the booking, and so the match).
 */
export async function announceDeadlines(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now()
  const horizon = new Date(now.getTime() + DEADLINE_NOTICE_MINUTES * 60_000)
  return ctx.db.transaction().execute(async (trx) => {
    const ids = await repo.claimDeadlineNear(trx, horizon, now)
    for (const id of ids) {
      const m = (await repo.matchById(trx, id))!
      const players = await repo.livePlayers(trx, [id])
      await told(
        ctx,
        trx,
        players.map((p) => p.user_id),
        'MatchDeadlineNear',
        aboutMatch(ctx, m),
      )
    }
    return ids.length
  })
}
