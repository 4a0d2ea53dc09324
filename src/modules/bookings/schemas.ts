import { Type } from 'typebox'
import { DateInput, IdParam, Nullable, namedEnum, PageQuery, TimeInput } from '../../lib/schemas.ts'
import { BookingStatusEnum, DeskBookingTypeEnum, PaymentMethodEnum } from '../booking-core/index.ts'

// Request shapes of the court booking routes.

export const BookingParams = Type.Object({ booking: Type.String({ description: 'Booking id' }) })
export const VenueParams = Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) })

const slotFields = {
  court_id: IdParam,
  date: DateInput,
  start_time: TimeInput,
  end_time: TimeInput,
  notes: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
}

export const CreateBody = Type.Object({
  ...slotFields,
  coupon_code: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
  payment_method: Type.Optional(
    Nullable({
      ...PaymentMethodEnum.request,
      description:
        'How the customer intends to pay. gateway_1..3 or wallet hold the slot for BOOKING_HOLD_MINUTES; ' +
        'cash holds it until the start. Paying itself goes through POST /api/payments/initiate.',
    }),
  ),
})

export const StaffCreateBody = Type.Object({
  ...slotFields,
  type: Type.Optional({ ...DeskBookingTypeEnum.request, description: 'offline (default) or walkin' }),
  customer_name: Type.String({ minLength: 1, maxLength: 255 }),
  customer_phone: Type.Optional(Nullable(Type.String({ maxLength: 30 }))),
})

const statusFilter = Type.Optional(BookingStatusEnum.request)

export const ListQuery = Type.Object({
  ...PageQuery.properties,
  status: statusFilter,
  date: Type.Optional(DateInput),
})

export const VenueListQuery = Type.Object({
  ...PageQuery.properties,
  status: statusFilter,
  date: Type.Optional(DateInput),
  court_id: Type.Optional(IdParam),
})

export { CancelBody, ChargeBody, DeskPaymentBody as PaymentBody, StatusBody } from '../booking-core/index.ts'

export const SeriesParams = Type.Object({ series: Type.String({ description: 'Series id' }) })
export const VenueSeriesParams = Type.Object({
  venue: Type.String({ description: 'Venue id or slug' }),
  series: Type.String({ description: 'Series id' }),
})

/** What a series does about a week whose slot is taken. */
const SeriesOnConflictEnum = namedEnum('SeriesOnConflict', ['fail', 'skip'])

const seriesFields = {
  court_id: IdParam,
  start_date: Type.String({ format: 'date', description: 'YYYY-MM-DD: the first week; its weekday is the series’' }),
  weeks: Type.Integer({ minimum: 2, maximum: 26, description: 'How many weeks, 2–26' }),
  start_time: TimeInput,
  end_time: TimeInput,
  on_conflict: Type.Optional({
    ...SeriesOnConflictEnum.request,
    description: 'fail (default): one unavailable week books nothing (409); skip: book the free weeks',
  }),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
}

export const SeriesBody = Type.Object({
  ...seriesFields,
  payment_method: CreateBody.properties.payment_method,
})

export const StaffSeriesBody = Type.Object({
  ...seriesFields,
  type: StaffCreateBody.properties.type,
  customer_name: Type.String({ minLength: 1, maxLength: 255 }),
  customer_phone: Type.Optional(Nullable(Type.String({ maxLength: 30 }))),
})

export const SeriesCancelBody = Type.Object({
  from_date: Type.Optional(
    Type.String({ format: 'date', description: 'Cancel the occurrences on or after this date (default: today)' }),
  ),
  reason: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
})
