import { type Static, Type } from 'typebox'
import { formatMoney } from '../../lib/money.ts'
import { DateTime, Money, Nullable, named, namedEnum } from '../../lib/schemas.ts'
import type { Zone } from '../../lib/zone.ts'
import { VenueSummarySchema } from '../venues/index.ts'

// The contract's IndoorGameResource: its schema and row mapping (the loader is in queries.ts).

export const GAME_TYPES = ['playstation', 'chess', 'ludo', 'cards', 'uno', 'table_tennis', 'carrom', 'other'] as const
export const IndoorGameTypeEnum = namedEnum('IndoorGameType', GAME_TYPES)

export const IndoorGameSchema = named(
  'IndoorGame',
  Type.Object({
    id: Type.Integer(),
    tenant_id: Type.Integer(),
    venue_id: Type.Integer(),
    name: Type.String(),
    game_type: IndoorGameTypeEnum.response,
    description: Nullable(Type.String()),
    capacity: Type.Integer({ description: 'Maximum simultaneous players' }),
    slot_minutes: Type.Integer(),
    price_per_hour: Money,
    is_active: Type.Boolean(),
    sort_order: Type.Integer(),
    venue: VenueSummarySchema,
    allows_pay_at_venue: Type.Boolean({
      description:
        "The venue's setting: whether customers may choose to pay at the venue (payment_method cash); false: online only",
    }),
    free_cancellation_hours: Type.Integer({
      description:
        "The venue's setting: a customer who cancels at least this many hours before the start is refunded (0–720)",
    }),
    created_at: DateTime,
    updated_at: DateTime,
  }),
)

export type IndoorGame = Static<typeof IndoorGameSchema>

export type IndoorGameRow = {
  id: number
  tenant_id: number
  venue_id: number
  name: string
  game_type: string
  description: string | null
  capacity: number
  slot_minutes: number
  price_per_hour: number
  is_active: boolean
  sort_order: number
  created_at: Date
  updated_at: Date
  venue_name: string
  venue_slug: string
  allows_pay_at_venue: boolean
  free_cancellation_hours: number
}

export function indoorGameResource(g: IndoorGameRow, zone: Zone): IndoorGame {
  return {
    id: g.id,
    tenant_id: g.tenant_id,
    venue_id: g.venue_id,
    name: g.name,
    game_type: g.game_type,
    description: g.description,
    capacity: g.capacity,
    slot_minutes: g.slot_minutes,
    price_per_hour: formatMoney(g.price_per_hour),
    is_active: g.is_active,
    sort_order: g.sort_order,
    venue: { id: g.venue_id, name: g.venue_name, slug: g.venue_slug },
    allows_pay_at_venue: g.allows_pay_at_venue,
    free_cancellation_hours: g.free_cancellation_hours,
    created_at: zone.format(g.created_at),
    updated_at: zone.format(g.updated_at),
  }
}
