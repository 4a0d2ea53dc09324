import { Type } from 'typebox'
import { QueryFlag } from '../../lib/schemas.ts'

// The catalogue's query strings: the venue list's filters and sorts, and the free-time search's
// window (docs/catalogue.md, "Free-time search").

/** HH:mm, venue time; `to` may also be 24:00 (the end of the day). */
const HHmm = (description: string, endOfDay = false) =>
  Type.String({
    pattern: endOfDay ? '^(([01]\\d|2[0-3]):[0-5]\\d|24:00)$' : '^([01]\\d|2[0-3]):[0-5]\\d$',
    description,
  })

/** The free-time search: with `date`, only venues with a bookable start in the window are listed. */
const freeTimeFields = {
  date: Type.Optional(
    Type.String({
      format: 'date',
      description:
        'YYYY-MM-DD, today or later (venue time): list only venues with at least one bookable court slot or indoor-game session of `duration` starting in [from, to) that day, each with free_slots',
    }),
  ),
  from: Type.Optional(HHmm('HH:mm, venue time: the window starts (with date; default 00:00)')),
  to: Type.Optional(
    HHmm('HH:mm or 24:00, venue time: starts before this (with date; default the end of the day)', true),
  ),
  duration: Type.Optional(
    Type.Integer({ minimum: 15, maximum: 720, description: 'Minutes of play (with date; default 60)' }),
  ),
}

export const SORTS = ['recommended', 'distance', 'rating', 'price', 'newest', 'soonest'] as const

const Latitude = Type.Number({ minimum: -90, maximum: 90 })
const Longitude = Type.Number({ minimum: -180, maximum: 180 })
const Radius = Type.Number({ exclusiveMinimum: 0, maximum: 20000, description: 'km' })

export const VenueListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Matches name, city or address' })),
  city: Type.Optional(Type.String({ maxLength: 255 })),
  lat: Type.Optional(Latitude),
  latitude: Type.Optional(Latitude),
  lng: Type.Optional(Longitude),
  longitude: Type.Optional(Longitude),
  radius: Type.Optional(Radius),
  sort: Type.Optional(
    Type.String({
      description:
        'Recommended (default), distance, rating, price, newest or soonest (with date: the earliest free start first); case-insensitive',
    }),
  ),
  sport: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        'A sport name (e.g. Futsal), an indoor game type (e.g. chess, carrom, playstation), indoor (any indoor sport or game) or outdoor',
    }),
  ),
  court_type: Type.Optional(Type.String({ maxLength: 100, description: 'Same as sport' })),
  is_verified: Type.Optional(QueryFlag('1 (or true) shows only verified venues; 0 (or false) only the others')),
  owner_id: Type.Optional(Type.Integer({ minimum: 1, description: 'super_admin only; ignored otherwise' })),
  ...freeTimeFields,
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, description: 'Default 15, at most 100' })),
})

export const NearbyQuery = Type.Object({
  latitude: Latitude,
  longitude: Longitude,
  radius: Type.Optional(Radius),
  ...freeTimeFields,
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1 })),
})
