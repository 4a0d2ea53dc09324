import { type Static, Type } from 'typebox'
import {
  DateInput,
  DateOnly,
  DateTime,
  Enum,
  IdParam,
  Money,
  MoneyInput,
  Nullable,
  named,
  PaidStatusEnum,
} from '../../lib/schemas.ts'

export const FORMATS = ['league', 'knockout', 'group_knockout'] as const
export const STATUSES = ['registration_open', 'registration_closed', 'ongoing', 'completed', 'cancelled'] as const
export type Format = (typeof FORMATS)[number]
export type Status = (typeof STATUSES)[number]

// Named enums (components TournamentFormat and TournamentStatus of the OpenAPI document). In
// requests the same JSON schema as Type.String({ enum }), typed as the union of the names; in
// responses a string.
const FormatInput = named('TournamentFormat', Type.Unsafe<Format>({ type: 'string', enum: [...FORMATS] }))
const StatusInput = named('TournamentStatus', Type.Unsafe<Status>({ type: 'string', enum: [...STATUSES] }))
const FormatField = named('TournamentFormat', Type.String({ enum: [...FORMATS] }))
const StatusField = named('TournamentStatus', Type.String({ enum: [...STATUSES] }))

const TeamRef = Type.Object({ id: Type.Integer(), name: Type.String() })

export const PlayerSchema = named(
  'Player',
  Type.Object({
    name: Type.String({ minLength: 1, maxLength: 255 }),
    position: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  }),
)

export const TeamSchema = named(
  'Team',
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    captain_name: Type.String(),
    contact_phone: Nullable(Type.String()),
    player_count: Type.Integer(),
    players: Type.Array(Type.Object({ name: Type.String(), position: Nullable(Type.String()) })),
    registered_at: DateTime,
    fee_status: {
      ...PaidStatusEnum.response,
      description: 'The registration fee: paid online from the wallet, or refunded when the tournament was cancelled',
    },
    fee_paid: Money,
  }),
)

export const StandingSchema = named(
  'Standing',
  Type.Object({
    rank: Type.Integer(),
    team: TeamRef,
    played: Type.Integer(),
    won: Type.Integer(),
    drawn: Type.Integer(),
    lost: Type.Integer(),
    goals_for: Type.Integer(),
    goals_against: Type.Integer(),
    points: Type.Integer(),
    group: Type.Optional(Nullable(Type.String({ description: 'Group letter (group_knockout group stage)' }))),
  }),
)

export const FixtureSchema = named(
  'Fixture',
  Type.Object({
    id: Type.Integer(),
    round: Type.String({ description: 'e.g. "Round 1", "Group A - Round 2", "Semi-final", "Final"' }),
    match_number: Type.Integer(),
    team_a: Nullable(TeamRef),
    team_b: Nullable(TeamRef),
    scheduled_at: Nullable(DateTime),
    status: Enum(['scheduled', 'completed', 'bye']),
    result: Nullable(
      Type.Object({ score_a: Type.Integer(), score_b: Type.Integer(), winner_id: Nullable(Type.Integer()) }),
    ),
    stage: Enum(['league', 'group', 'knockout']),
    group: Nullable(Type.String()),
    round_number: Type.Integer(),
    next_fixture_id: Nullable(Type.Integer({ description: 'Knockout: the fixture the winner plays next' })),
    next_slot: Nullable(Type.String({ description: 'a or b' })),
  }),
)

export const TournamentSchema = named(
  'Tournament',
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    description: Nullable(Type.String()),
    format: FormatField,
    sport_type: Type.String(),
    max_teams: Type.Integer(),
    registered_teams: Type.Integer(),
    registration_fee: Money,
    prize_pool: Money,
    starts_at: DateOnly,
    ends_at: DateOnly,
    status: StatusField,
    venue: Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() }),
    teams: Type.Optional(Type.Array(TeamSchema)),
    standings: Type.Optional(Type.Array(StandingSchema)),
    created_at: DateTime,
  }),
)

export const ListQuery = Type.Object({
  venue_id: Type.Optional(IdParam),
  status: Type.Optional(StatusInput),
})

const fields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  format: FormatInput,
  sport_type: Type.String({ minLength: 1, maxLength: 100 }),
  max_teams: Type.Integer({ minimum: 2, maximum: 128 }),
  registration_fee: Type.Optional(MoneyInput),
  prize_pool: Type.Optional(MoneyInput),
  starts_at: DateInput,
  ends_at: DateInput,
}

export const CreateBody = Type.Object({ venue_id: IdParam, ...fields })

export const UpdateBody = Type.Object({
  name: Type.Optional(fields.name),
  description: fields.description,
  format: Type.Optional(fields.format),
  sport_type: Type.Optional(fields.sport_type),
  max_teams: Type.Optional(fields.max_teams),
  registration_fee: fields.registration_fee,
  prize_pool: fields.prize_pool,
  starts_at: Type.Optional(fields.starts_at),
  ends_at: Type.Optional(fields.ends_at),
})

export type CreateInput = Static<typeof CreateBody>
export type UpdateInput = Static<typeof UpdateBody>

export const StatusBody = Type.Object({ status: StatusInput })

export const TeamBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  captain_name: Type.String({ minLength: 1, maxLength: 255 }),
  contact_phone: Type.Optional(Nullable(Type.String({ maxLength: 30 }))),
  players: Type.Optional(Type.Array(PlayerSchema, { maxItems: 50 })),
})

export type TeamInput = Static<typeof TeamBody>

export const ResultBody = Type.Object({
  score_a: Type.Integer({ minimum: 0, maximum: 999 }),
  score_b: Type.Integer({ minimum: 0, maximum: 999 }),
  winner_id: Type.Optional(Nullable(IdParam)),
})

export type ResultInput = Static<typeof ResultBody>
