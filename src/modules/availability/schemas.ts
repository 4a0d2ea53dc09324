import { Type } from 'typebox'
import { DateInput, DateOnly, Money, named } from '../../lib/schemas.ts'

// The contract's availability responses (Courts and Indoor game bookings tables).

export const AvailabilityQuery = Type.Object({
  date: Type.String({ ...DateInput, description: 'YYYY-MM-DD, venue-local, today or later' }),
})

export const CourtSlotSchema = named(
  'CourtSlot',
  Type.Object({
    start_time: Type.String({ description: 'HH:mm' }),
    end_time: Type.String({ description: 'HH:mm' }),
    is_available: Type.Boolean({
      description: 'false when a live booking or a maintenance block overlaps the slot, or it has started',
    }),
    price_per_hour: Money,
  }),
)

export const CourtAvailabilitySchema = named(
  'CourtAvailability',
  Type.Object({
    date: DateOnly,
    slot_minutes: Type.Integer(),
    is_closed: Type.Boolean({ description: 'Weekly off day: slots is empty and booking is refused' }),
    open_time: Type.String({ description: 'HH:mm' }),
    close_time: Type.String({ description: 'HH:mm' }),
    slots: Type.Array(CourtSlotSchema),
  }),
)

export const IndoorSlotSchema = named(
  'IndoorGameSlot',
  Type.Object({
    start_time: Type.String({ description: 'HH:mm' }),
    end_time: Type.String({ description: 'HH:mm' }),
    is_available: Type.Boolean({ description: 'false when a live booking overlaps the slot, or it has started' }),
  }),
)

export const IndoorAvailabilitySchema = named(
  'IndoorGameAvailability',
  Type.Object({
    date: DateOnly,
    slot_minutes: Type.Integer(),
    slots: Type.Array(IndoorSlotSchema),
  }),
)
