import { Type } from 'typebox'
import { DateInput, IdParam, Nullable, PageQuery, TimeInput } from '../../lib/schemas.ts'
import { BookingStatusEnum, DeskBookingTypeEnum } from '../booking-core/index.ts'

// Request shapes of the indoor booking routes.

export const BookingParams = Type.Object({ indoorGameBooking: Type.String({ description: 'Booking id' }) })
export const VenueParams = Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) })

const bookingFields = {
  indoor_game_id: IdParam,
  date: DateInput,
  start_time: TimeInput,
  end_time: TimeInput,
  players_count: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 20, description: 'At most min(game capacity, 20)' }),
  ),
  customer_phone: Type.Optional(Nullable(Type.String({ maxLength: 30 }))),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
}

export const CreateBody = Type.Object(bookingFields)

export const StaffCreateBody = Type.Object({
  ...bookingFields,
  type: Type.Optional({ ...DeskBookingTypeEnum.request, description: 'offline (default) or walkin' }),
  customer_name: Type.String({ minLength: 1, maxLength: 255 }),
})

const StatusFilter = BookingStatusEnum.request

export const ListQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(StatusFilter),
  date: Type.Optional(DateInput),
})

export const VenueListQuery = Type.Object({
  ...PageQuery.properties,
  date: Type.Optional(DateInput),
  status: Type.Optional(StatusFilter),
  indoor_game_id: Type.Optional(IdParam),
})

export { CancelBody, ChargeBody, DeskPaymentBody as PaymentBody, StatusBody } from '../booking-core/index.ts'
