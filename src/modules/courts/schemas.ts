import { Type } from 'typebox'
import {
  ClockInput,
  DateInput,
  DateTime,
  MoneyInput,
  Nullable,
  named,
  QueryFlag,
  TimeInput,
} from '../../lib/schemas.ts'
import { PricingRuleTypeEnum } from './resource.ts'

// Request shapes of the court management routes.

export const SlotMinutes = named(
  'SlotMinutes',
  Type.Union(
    [15, 30, 45, 60, 90, 120].map((n) => Type.Literal(n)),
    { description: '15, 30, 45, 60, 90 or 120' },
  ),
)

export const CourtCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  type: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Free-form kind; defaults to the sport key' }),
  ),
  sport_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  capacity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  slot_minutes: Type.Optional(SlotMinutes),
  price_per_hour: MoneyInput,
  is_active: Type.Optional(Type.Boolean()),
})

export const CourtUpdateBody = Type.Partial(CourtCreateBody)

export const ScheduleBody = Type.Object({
  schedules: Type.Array(
    Type.Object({
      day_of_week: Type.Integer({ minimum: 0, maximum: 6 }),
      open_time: Type.Optional(ClockInput),
      close_time: Type.Optional(ClockInput),
      is_closed: Type.Optional(Type.Boolean()),
    }),
    { maxItems: 7 },
  ),
})

export const PricingType = PricingRuleTypeEnum.request

export const PricingBody = Type.Object({
  type: PricingType,
  day_of_week: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 6 }))),
  start_time: ClockInput,
  end_time: ClockInput,
  price_per_hour: MoneyInput,
  is_active: Type.Optional(Type.Boolean()),
})

export const PricingUpdateBody = Type.Partial(PricingBody)

export const BlockBody = Type.Object({
  date: DateInput,
  start_time: TimeInput,
  end_time: TimeInput,
  reason: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  cancel_bookings: Type.Optional(
    Type.Boolean({
      description:
        'true (owner, manager): cancel the live bookings under the block, by the venue, with refunds and a ' +
        'notification giving the reason; without it a block over live bookings is 409 listing them',
    }),
  ),
})

export const BlockQuery = Type.Object({ date: Type.Optional(DateInput) })

export const BlockSchema = named(
  'CourtBlock',
  Type.Object({
    id: Type.Integer(),
    court_id: Type.Integer(),
    date: Type.String({ description: 'YYYY-MM-DD' }),
    start_time: Type.String({ description: 'HH:mm' }),
    end_time: Type.String({ description: 'HH:mm' }),
    reason: Nullable(Type.String()),
    created_at: DateTime,
  }),
)

export const CourtListQuery = Type.Object({
  include_inactive: Type.Optional(
    QueryFlag(
      "1 (or true) also lists the venue's deactivated courts (is_active false), for the venue's owner, managers and " +
        'staff and for super_admin; ignored for guests and customers, who see active courts only',
    ),
  ),
})
