import { Type } from 'typebox'
import { DateInput, IdParam, namedEnum, PageQuery } from '../../lib/schemas.ts'
import { BookingKindEnum } from '../booking-core/index.ts'
import { SharePaymentMethodEnum } from '../splits/index.ts'

// Request shapes of the open-match routes (docs/matches.md).

/** Who finds a match: public ones are listed, private ones are reached by their link. */
export const MatchVisibilityEnum = namedEnum('MatchVisibility', ['public', 'private'])

const Level = Type.Number({ minimum: 0, maximum: 7, multipleOf: 0.1, description: 'Player level 0.0–7.0' })

export const MatchParams = Type.Object({ match: Type.String({ description: 'Match id' }) })
export const BookingParams = Type.Object({ booking: Type.String({ description: 'Court booking id' }) })
export const IndoorBookingParams = Type.Object({
  indoorGameBooking: Type.String({ description: 'Indoor-game booking id' }),
})
export const UserParams = Type.Object({ user: Type.String({ description: 'User id' }) })

export const CreateMatchBody = Type.Object({
  booking_id: IdParam,
  booking_type: Type.Optional({ ...BookingKindEnum.request, default: 'court' }),
  players_total: Type.Integer({ minimum: 2, maximum: 22, description: 'Players including the organizer' }),
  level_min: Type.Optional(Level),
  level_max: Type.Optional(Level),
  visibility: MatchVisibilityEnum.request,
  note: Type.Optional(Type.String({ maxLength: 500 })),
})

export const MatchListQuery = Type.Object({
  ...PageQuery.properties,
  sport: Type.Optional(Type.String({ maxLength: 50, description: 'A sport key (futsal, badminton …)' })),
  date: Type.Optional(DateInput),
  lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
  lng: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  radius: Type.Optional(
    Type.Number({ exclusiveMinimum: 0, maximum: 20000, description: 'km (default 10 with lat/lng)' }),
  ),
  level: Type.Optional(Level),
})

export const ShowMatchQuery = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 64, description: "A private match's link token" })),
})

export const JoinBody = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 64, description: "A private match's link token" })),
  method: Type.Optional({ ...SharePaymentMethodEnum.request, description: 'How the share is paid (default wallet)' }),
  return_url: Type.Optional(Type.String({ maxLength: 2000 })),
})

export const InviteBody = Type.Object({
  email: Type.String({ maxLength: 255, minLength: 3, description: 'The invited player’s account email' }),
})

export const ResultBody = Type.Object({
  teams: Type.Array(Type.Array(IdParam, { minItems: 1, maxItems: 11 }), { minItems: 2, maxItems: 2 }),
  score: Type.Array(Type.Integer({ minimum: 0, maximum: 999 }), {
    minItems: 2,
    maxItems: 2,
    description: "[team 1's score, team 2's score] (goals, points or sets won); the higher wins, equal is a draw",
  }),
})
