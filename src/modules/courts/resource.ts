import { type Static, Type } from 'typebox'
import { formatMoney } from '../../lib/money.ts'
import { DateTime, Money, Nullable, named, namedEnum } from '../../lib/schemas.ts'

// The contract's CourtResource, its schedule entries and pricing rules, and the pure mapping of
// their rows (the loader is queries.ts). Other features embed courts through index.ts.

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const

export const SportSchema = named(
  'SportSummary',
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    name_ne: Nullable(Type.String({ description: 'The name in Nepali (Devanagari); null when none is set' })),
    slug: Type.String(),
    key: Type.String(),
    label: Type.String(),
  }),
)

export const ScheduleEntrySchema = named(
  'ScheduleEntry',
  Type.Object({
    id: Type.Integer(),
    day_of_week: Type.Integer({ minimum: 0, maximum: 6 }),
    day_name: Type.String(),
    open_time: Type.String({ description: 'HH:mm:ss' }),
    close_time: Type.String({ description: 'HH:mm:ss' }),
    is_closed: Type.Boolean(),
  }),
)

export const PricingRuleTypeEnum = namedEnum('PricingRuleType', ['standard', 'peak', 'off_peak', 'holiday'])

export const PricingRuleSchema = named(
  'PricingRule',
  Type.Object({
    id: Type.Integer(),
    type: PricingRuleTypeEnum.response,
    day_of_week: Nullable(
      Type.Integer({ minimum: 0, maximum: 6, description: '0=Sunday … 6=Saturday; null = every day' }),
    ),
    start_time: Type.String({ description: 'HH:mm:ss' }),
    end_time: Type.String({ description: 'HH:mm:ss' }),
    price_per_hour: Money,
    is_active: Type.Boolean(),
  }),
)

export const CourtImageSchema = named('CourtImage', Type.Object({ id: Type.Integer(), url: Type.String() }))

export const CourtSchema = named(
  'Court',
  Type.Object({
    id: Type.Integer(),
    venue_id: Type.Integer(),
    name: Type.String(),
    type: Type.String({ description: 'Free-form kind, e.g. futsal, basketball, cricket' }),
    sport: Nullable(SportSchema),
    price_per_hour: Money,
    starting_price: Type.Number({
      description: 'Lowest hourly price of the court (base price or an active rule), NPR',
    }),
    description: Nullable(Type.String()),
    capacity: Type.Integer(),
    slot_minutes: Type.Integer(),
    is_active: Type.Boolean(),
    images: Type.Array(CourtImageSchema),
    schedules: Type.Array(ScheduleEntrySchema),
    pricing: Type.Array(PricingRuleSchema),
    created_at: DateTime,
  }),
)

export type Court = Static<typeof CourtSchema>
export type ScheduleEntry = Static<typeof ScheduleEntrySchema>
export type PricingRule = Static<typeof PricingRuleSchema>

export function scheduleEntry(s: {
  id: number
  day_of_week: number
  open_time: string
  close_time: string
  is_closed: boolean
}): ScheduleEntry {
  return {
    id: s.id,
    day_of_week: s.day_of_week,
    day_name: DAY_NAMES[s.day_of_week],
    open_time: s.open_time,
    close_time: s.close_time,
    is_closed: s.is_closed,
  }
}

export function pricingRule(r: {
  id: number
  type: string
  day_of_week: number | null
  start_time: string
  end_time: string
  price_per_hour: number
  is_active: boolean
}): PricingRule {
  return {
    id: r.id,
    type: r.type,
    day_of_week: r.day_of_week,
    start_time: r.start_time,
    end_time: r.end_time,
    price_per_hour: formatMoney(r.price_per_hour),
    is_active: r.is_active,
  }
}
