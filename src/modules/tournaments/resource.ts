import type { Static } from 'typebox'
import { formatMoney } from '../../lib/money.ts'
import type { Zone } from '../../lib/zone.ts'
import type { FixtureRow, TeamRow, TournamentRow } from './repository.ts'
import type { FixtureSchema, StandingSchema, TeamSchema, TournamentSchema } from './schemas.ts'

export type Tournament = Static<typeof TournamentSchema>
export type Team = Static<typeof TeamSchema>
export type Fixture = Static<typeof FixtureSchema>
export type Standing = Static<typeof StandingSchema>

export function tournamentResource(
  t: Omit<TournamentRow, 'is_public'>,
  zone: Zone,
  loaded: { teams?: Team[]; standings?: Standing[] } = {},
): Tournament {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    format: t.format,
    sport_type: t.sport_type,
    max_teams: t.max_teams,
    registered_teams: t.registered_teams,
    registration_fee: formatMoney(t.registration_fee),
    prize_pool: formatMoney(t.prize_pool),
    starts_at: t.starts_at,
    ends_at: t.ends_at,
    status: t.status,
    venue: { id: t.venue_id, name: t.venue_name, slug: t.venue_slug },
    ...loaded,
    created_at: zone.format(t.created_at)!,
  }
}

interface Player {
  name: string
  position?: string | null
}

export function teamResource(t: TeamRow, zone: Zone): Team {
  const raw = typeof t.players === 'string' ? JSON.parse(t.players) : t.players
  const players = (Array.isArray(raw) ? (raw as unknown as Player[]) : []).map((p) => ({
    name: String(p.name),
    position: p.position ?? null,
  }))
  return {
    id: t.id,
    name: t.name,
    captain_name: t.captain_name,
    contact_phone: t.contact_phone,
    player_count: players.length,
    players,
    registered_at: zone.format(t.registered_at)!,
    fee_status: t.fee_refunded_at ? 'refunded' : t.fee_paid > 0 ? 'paid' : 'unpaid',
    fee_paid: formatMoney(t.fee_paid),
  }
}

export function fixtureResource(f: FixtureRow, zone: Zone): Fixture {
  return {
    id: f.id,
    round: f.round,
    match_number: f.match_number,
    team_a: f.team_a_id === null ? null : { id: f.team_a_id, name: f.team_a_name ?? '' },
    team_b: f.team_b_id === null ? null : { id: f.team_b_id, name: f.team_b_name ?? '' },
    scheduled_at: zone.format(f.scheduled_at),
    status: f.status,
    result:
      f.status === 'completed' && f.score_a !== null && f.score_b !== null
        ? { score_a: f.score_a, score_b: f.score_b, winner_id: f.winner_id }
        : null,
    stage: f.stage,
    group: f.group_name,
    round_number: f.round_number,
    next_fixture_id: f.next_fixture_id,
    next_slot: f.next_slot,
  }
}
