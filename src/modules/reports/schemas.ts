import { Type } from 'typebox'
import { DateInput, MoneyInput, Nullable } from '../../lib/schemas.ts'
import { BookingKindEnum } from '../booking-core/index.ts'

// Request shapes of the reports and the cash-up.

export const VenueParams = Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) })

export const RangeQuery = Type.Object({
  from: { ...DateInput, description: 'First day, YYYY-MM-DD, venue time' },
  to: { ...DateInput, description: 'Last day (inclusive), YYYY-MM-DD, venue time; at most 366 days after from' },
  kind: Type.Optional({ ...BookingKindEnum.request, description: 'Only court or only indoor-game bookings' }),
})

export const CashUpQuery = Type.Object({
  date: Type.Optional({ ...DateInput, description: 'YYYY-MM-DD (venue time); default today' }),
})

export const CashUpBody = Type.Object({
  date: { ...DateInput, description: 'The venue-local day to close, YYYY-MM-DD; today or earlier' },
  counted_cash: { ...MoneyInput, description: 'NPR counted in the drawer, at most two decimals' },
  note: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
})
