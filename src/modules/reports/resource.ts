import { Type } from 'typebox'
import { DateOnly, DateTime, Money, Nullable, named } from '../../lib/schemas.ts'
import { BookingKindEnum, PaymentMethodEnum } from '../booking-core/index.ts'

// Response shapes of the reports and the cash-up (docs/reports.md).

const Hours = Type.Number({ description: 'Hours, two decimals' })

const Counts = Type.Object({
  pending: Type.Integer(),
  confirmed: Type.Integer(),
  playing: Type.Integer(),
  completed: Type.Integer(),
  cancelled: Type.Integer(),
  no_show: Type.Integer(),
})

const ByMethod = Type.Object({
  cash: Money,
  wallet: Money,
  gateway_1: Money,
  gateway_2: Money,
  gateway_3: Money,
  other: { ...Money, description: 'Platform-funded discounts and money with no payment row' },
})

export const ReportSummarySchema = named(
  'ReportSummary',
  Type.Object({
    from: DateOnly,
    to: DateOnly,
    kind: Nullable({ ...BookingKindEnum.response, description: 'The kind filter, null for both' }),
    bookings: Type.Object({
      total: Type.Integer({ description: 'Bookings whose venue-local date is in the range, every status' }),
      by_status: Counts,
    }),
    revenue: Type.Object({
      gross: { ...Money, description: 'Money received for the venue in the range (by when it moved)' },
      refunds: { ...Money, description: 'Money returned to customers in the range' },
      net: {
        ...Money,
        description: 'gross − refunds: the statement’s online_gross − refunds + desk_gross − desk_refunds',
      },
      by_method: { ...ByMethod, description: 'net by the method of the payment the money moved for; sums to net' },
    }),
    occupancy: Type.Object({
      booked_hours: Hours,
      open_hours: Hours,
      percent: Type.Number({ description: 'booked_hours / open_hours × 100, four decimals; 0 with no open hours' }),
    }),
    no_show_rate: Type.Number({
      description: 'no-shows / bookings not cancelled whose start has passed, 0–1, four decimals',
    }),
    by_hour: Type.Array(
      Type.Object({
        weekday: Type.Integer({ minimum: 0, maximum: 6, description: '0 = Sunday … 6 = Saturday' }),
        hour: Type.Integer({ minimum: 0, maximum: 23 }),
        booked_hours: Hours,
        open_hours: Hours,
      }),
    ),
    by_day: Type.Array(
      Type.Object({
        date: DateOnly,
        bookings: Type.Integer(),
        net: Money,
        by_method: { ...ByMethod, description: "That day's net by method (as revenue.by_method); sums to net" },
      }),
    ),
    top_customers: Type.Array(
      Type.Object({
        name: Type.String(),
        phone: Nullable(Type.String()),
        bookings: Type.Integer({ description: 'Bookings in the range, not cancelled' }),
        net: Money,
      }),
    ),
  }),
)

const StaffRef = Type.Object({ id: Type.Integer(), name: Nullable(Type.String()) })

const Actor = (description: string) => Type.Union([StaffRef, Type.Null()], { description })
const CashBackActors = {
  taken_by: Actor('Who recorded the refunded payment at the desk'),
  cancelled_by: Actor('Who cancelled the booking or refunded the payment (null: the system)'),
  approved_by: Actor('The owner or manager who approved paying it out'),
}

const StaffTotals = Type.Object({
  staff: Nullable(StaffRef),
  payments: Type.Integer({ description: 'Desk payments this staff member took that day' }),
  cash: Money,
  counter: { ...Money, description: 'Gateway payments taken at the counter (not in the drawer)' },
  cash_backs: { ...Money, description: 'Cash-backs this staff member handed over that day' },
  expected_cash: { ...Money, description: 'cash − cash_backs' },
})

export const CashUpSchema = named(
  'CashUp',
  Type.Object({
    date: DateOnly,
    status: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
    cash: { ...Money, description: 'Cash received at the desk that day' },
    counter: { ...Money, description: 'Counter (gateway) payments recorded at the desk that day' },
    cash_backs: { ...Money, description: 'Cash-backs handed over that day' },
    expected_cash: { ...Money, description: 'What the drawer should hold from the day: cash − cash_backs' },
    by_staff: Type.Array(StaffTotals),
    payments: Type.Array(
      Type.Object({
        id: Type.Integer(),
        booking_number: Type.String(),
        booking_type: BookingKindEnum.response,
        customer_name: Type.String(),
        method: PaymentMethodEnum.response,
        amount: Money,
        received_at: DateTime,
        staff: StaffRef,
        unverified: Type.Boolean({
          description: 'A gateway payment staff typed a reference for before desk QR payments: nobody verified it',
        }),
      }),
    ),
    cash_backs_paid: Type.Array(
      Type.Object({
        id: Type.Integer(),
        payment_id: Type.Integer(),
        booking_number: Nullable(Type.String()),
        booking_type: BookingKindEnum.response,
        amount: Money,
        reason: Nullable(Type.String()),
        paid_at: DateTime,
        staff: Nullable(StaffRef),
        ...CashBackActors,
      }),
    ),
    cash_backs_of_day: Type.Array(
      Type.Object({
        id: Type.Integer(),
        payment_id: Type.Integer(),
        payment_method: PaymentMethodEnum.response,
        booking_number: Nullable(Type.String()),
        booking_type: BookingKindEnum.response,
        amount: Money,
        reason: Nullable(Type.String()),
        status: Type.Union([Type.Literal('due'), Type.Literal('paid')]),
        needs_approval: Type.Boolean({ description: 'Above CASH_BACK_APPROVAL_AMOUNT' }),
        created_at: { ...DateTime, description: 'When it fell due (the cancel or refund)' },
        ...CashBackActors,
        approved_at: Nullable(DateTime),
        paid_by: Actor('Who handed it over'),
        paid_at: Nullable(DateTime),
      }),
      {
        description:
          'Every cash-back that fell due or was handed over that day, due or paid, with who took the payment, who ' +
          'cancelled, who approved and who paid it out',
      },
    ),
    closing: Nullable(
      Type.Object(
        {
          id: Type.Integer(),
          cash: Money,
          counter: Money,
          cash_backs: Money,
          expected_cash: Money,
          counted_cash: Money,
          difference: { ...Money, description: 'counted − expected: negative is a shortfall' },
          note: Nullable(Type.String()),
          by_staff: Type.Array(StaffTotals),
          closed_by: Nullable(StaffRef),
          closed_at: DateTime,
        },
        { description: 'The figures as they were when the day was closed; never changed' },
      ),
    ),
  }),
)
