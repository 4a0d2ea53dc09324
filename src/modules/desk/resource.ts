import { type Static, Type } from 'typebox'
import { Enum, Money, Nullable, named, namedEnum } from '../../lib/schemas.ts'
import { BookingStatusEnum, BookingTypeEnum, PaymentMethodEnum } from '../booking-core/index.ts'

// The front-desk board (GET /venues/{venue}/board): response schemas. Rows are mapped in service.ts
// from the availability grid and the day's bookings.

const Instant = Type.String({
  description: "An instant as the venue's wall clock shows it, YYYY-MM-DD HH:mm:ss (like every instant of the API)",
})
const Clock = Type.String({ description: 'HH:mm, venue time' })
/** What a board column or booking is: a court or an indoor game. */
const BoardKindEnum = namedEnum('BoardKind', ['court', 'indoor_game'])
const Kind = BoardKindEnum.response

export const BoardSlotSchema = named(
  'BoardSlot',
  Type.Object({
    start_time: Clock,
    end_time: Clock,
    price: Nullable(
      Type.String({ description: "Price per hour of this slot (the availability routes' price_per_hour), NPR" }),
    ),
    state: Enum(['free', 'now', 'booked', 'blocked', 'past'], {
      description:
        'booked: a booking that is not cancelled (and not a pending hold that ran out) overlaps the slot; ' +
        'blocked: a maintenance block overlaps it; past: it has ended (venue time); now: it is in progress ' +
        'and free, so staff may still sell it until it ends; free otherwise.',
    }),
    booking_id: Nullable(Type.Integer({ description: 'The booking occupying the slot (state booked)' })),
    block_id: Nullable(Type.Integer({ description: 'The maintenance block covering the slot (state blocked)' })),
  }),
)

export const BoardColumnSchema = named(
  'BoardColumn',
  Type.Object({
    kind: Kind,
    id: Type.Integer(),
    name: Type.String(),
    type: Type.String({ description: "The court's court_type or the game's game_type" }),
    is_active: Type.Boolean(),
    slot_minutes: Type.Integer(),
    is_closed: Type.Boolean({ description: "true when the court's weekly schedule closes it that day" }),
    open_time: Nullable(Clock),
    close_time: Nullable(Clock),
    slots: Type.Array(BoardSlotSchema),
  }),
)

export const BoardBookingSchema = named(
  'BoardBooking',
  Type.Object({
    kind: Kind,
    id: Type.Integer(),
    booking_number: Type.String(),
    resource_id: Type.Integer({ description: 'The court id (kind court) or indoor game id (kind indoor_game)' }),
    start_time: Clock,
    end_time: Clock,
    status: BookingStatusEnum.response,
    customer_name: Type.String(),
    customer_phone: Nullable(Type.String()),
    booking_type: { ...BookingTypeEnum.response, description: "The booking's type: online, offline or walkin" },
    total_amount: Money,
    paid_amount: Money,
    balance_due: Money,
    payment_method: Nullable(PaymentMethodEnum.response),
    is_hold: Type.Boolean({ description: 'A pending booking whose payment hold is still running' }),
    hold_expires_at: Nullable(Instant),
    waitlist_count: Type.Integer({ description: 'Customers waiting for this slot (court bookings)' }),
    is_waitlist_offer: Type.Boolean({
      description:
        'The slot was offered to the first waiting customer when it freed: this pending booking is the offer, ' +
        'open until hold_expires_at (court bookings)',
    }),
    series_id: Nullable(
      Type.Integer({ description: 'The recurring series this court booking is an occurrence of; null for games' }),
    ),
    shares: Nullable(
      Type.Object(
        { paid: Type.Integer(), total: Type.Integer() },
        { description: 'A split booking: how many of its shares are paid ("shares 3/5 paid"); null when not split' },
      ),
    ),
  }),
)

export const BoardBlockSchema = named(
  'BoardBlock',
  Type.Object({
    id: Type.Integer(),
    court_id: Type.Integer(),
    start_time: Clock,
    end_time: Clock,
    reason: Nullable(Type.String()),
  }),
)

export const BoardSchema = named(
  'DeskBoard',
  Type.Object({
    date: Type.String({ description: 'YYYY-MM-DD, venue time' }),
    now: Instant,
    time_zone: Type.String({ description: 'The venue time zone (IANA name) of every time in this answer' }),
    venue: Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      slug: Type.String(),
      opening_time: Clock,
      closing_time: Clock,
    }),
    is_holiday: Type.Boolean(),
    holiday_reason: Nullable(Type.String()),
    columns: Type.Array(BoardColumnSchema),
    bookings: Type.Array(BoardBookingSchema),
    blocks: Type.Array(BoardBlockSchema),
    totals: Type.Object({
      bookings: Type.Integer({ description: 'Bookings of the day that are not cancelled' }),
      paid: Money,
      due: Money,
      cash_taken: Money,
    }),
  }),
)

export type Board = Static<typeof BoardSchema>
export type BoardColumn = Static<typeof BoardColumnSchema>
export type BoardBooking = Static<typeof BoardBookingSchema>
export type BoardSlot = Static<typeof BoardSlotSchema>
