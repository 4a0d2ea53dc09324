import { type Static, Type } from 'typebox'
import { formatMoney } from '../../lib/money.ts'
import { DateOnly, DateTime, Enum, Money, Nullable, named } from '../../lib/schemas.ts'
import { toHHmm } from '../../lib/time.ts'
import type { Zone } from '../../lib/zone.ts'
import { BookingKindEnum } from '../booking-core/index.ts'
import { levelOf, NEW_RATING, reliabilityOf } from './rating.ts'
import type { MatchRow, PlayerRow } from './repository.ts'
import { MatchVisibilityEnum } from './schemas.ts'

// The Match and PlayerProfile resources and their mapping (docs/matches.md).

export const MATCH_STATUSES = ['open', 'full', 'cancelled', 'played'] as const

const PlayerSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  level: Type.Number({ description: 'Level in the match’s sport, 0.0–7.0 (3.5 for a player not rated yet)' }),
})

export const MatchSchema = named(
  'Match',
  Type.Object({
    id: Type.Integer(),
    booking: Type.Object({
      id: Type.Integer(),
      type: BookingKindEnum.response,
      booking_number: Type.String(),
      date: DateOnly,
      start_time: Type.String({ description: 'HH:mm' }),
      end_time: Type.String({ description: 'HH:mm' }),
    }),
    sport: Type.String({ description: 'Sport key (futsal, badminton …; an indoor game’s type)' }),
    venue: Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String(), city: Type.String() }),
    start: DateTime,
    organizer_id: Type.Integer(),
    players: Type.Array(PlayerSchema),
    players_total: Type.Integer(),
    spots_left: Type.Integer(),
    price_per_player: Money,
    level_min: Nullable(Type.Number()),
    level_max: Nullable(Type.Number()),
    visibility: MatchVisibilityEnum.response,
    note: Nullable(Type.String()),
    status: Enum(MATCH_STATUSES, {
      description: 'open; full (every spot taken); cancelled; played (result confirmed)',
    }),
    link: Nullable(
      Type.String({
        description: "The match's shareable web link (with a private match's token); shown to its players only",
      }),
    ),
    result: Nullable(
      Type.Object({
        teams: Type.Array(Type.Array(Type.Integer())),
        score: Type.Array(Type.Integer()),
        reported_by: Type.Integer(),
        confirmed: Type.Boolean(),
      }),
    ),
  }),
)
export type Match = Static<typeof MatchSchema>

export const PlayerProfileSchema = named(
  'PlayerProfile',
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    levels: Type.Array(
      Type.Object({
        sport: Type.String(),
        level: Type.Number({ description: '0.0–7.0' }),
        reliability: Type.Integer({ description: '0–100: how sure the level is (grows with confirmed results)' }),
        matches_played: Type.Integer(),
      }),
    ),
    reliability: Type.Integer({
      description: '0–100: share of the matches joined that the player did not leave',
    }),
    matches_played: Type.Integer({ description: 'Matches played with a confirmed result' }),
  }),
)
export type PlayerProfile = Static<typeof PlayerProfileSchema>

/** Equal shares to the paisa; the remainder is the organizer's (as the booking's split does). */
export function pricePerPlayer(total: number, players: number): number {
  return Math.floor(total / players)
}

export interface ResultRow {
  teams: unknown
  score_1: number
  score_2: number
  reported_by: number
  confirmed_at: Date | null
}

export function matchResource(
  row: MatchRow,
  players: PlayerRow[],
  opts: { zone: Zone; appUrl: string; viewerIsPlayer: boolean; result?: ResultRow },
): Match {
  const taken = players.length
  // A spot is one a player can still join and pay: none once the booking is paid in full another way.
  const spotsLeft = Math.max(0, Math.min(row.players_total - taken, Number(row.open_shares ?? 0)))
  const r = opts.result
  return {
    id: row.id,
    booking: {
      id: row.booking_id,
      type: row.booking_type,
      booking_number: row.booking_number,
      date: row.date,
      start_time: toHHmm(row.start_time),
      end_time: toHHmm(row.end_time),
    },
    sport: row.sport,
    venue: { id: row.venue_id, name: row.venue_name, slug: row.venue_slug, city: row.venue_city },
    start: opts.zone.format(row.starts_at),
    organizer_id: row.organizer_id,
    players: players.map((p) => ({ id: p.user_id, name: p.name, level: levelOf(p.rating ?? NEW_RATING) })),
    players_total: row.players_total,
    spots_left: spotsLeft,
    price_per_player: formatMoney(pricePerPlayer(Number(row.total_amount), row.players_total)),
    level_min: row.level_min === null ? null : Number(row.level_min),
    level_max: row.level_max === null ? null : Number(row.level_max),
    visibility: row.visibility,
    note: row.note,
    // A booking cancelled (its split's deadline passed unpaid, or the organizer cancelled it) cancels its match.
    // An open match no one can join any more (its booking paid in full another way) reads as full.
    status: ['cancelled', 'no_show'].includes(row.booking_status)
      ? 'cancelled'
      : row.status === 'open' && spotsLeft === 0
        ? 'full'
        : row.status,
    link: opts.viewerIsPlayer
      ? `${opts.appUrl}/matches/${row.id}${row.visibility === 'private' ? `?token=${row.link_token}` : ''}`
      : null,
    result: r
      ? {
          teams: r.teams as number[][],
          score: [r.score_1, r.score_2],
          reported_by: r.reported_by,
          confirmed: r.confirmed_at !== null,
        }
      : null,
  }
}

export function profileResource(
  user: { id: number; name: string },
  ratings: Array<{ sport: string; rating: number; rd: number; matches_played: number }>,
  counts: { played: number; left: number; joined: number },
): PlayerProfile {
  return {
    id: user.id,
    name: user.name,
    levels: ratings.map((r) => ({
      sport: r.sport,
      level: levelOf(r.rating),
      reliability: reliabilityOf(r.rd),
      matches_played: r.matches_played,
    })),
    reliability: counts.joined === 0 ? 100 : Math.round(((counts.joined - counts.left) / counts.joined) * 100),
    matches_played: counts.played,
  }
}
