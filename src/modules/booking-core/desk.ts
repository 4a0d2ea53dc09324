import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Invalid } from '../../lib/errors.ts'
import type { PageParams } from '../../lib/pagination.ts'
import { isValidDate } from '../../lib/time.ts'
import { deskBookingId, deskVenueId } from './access.ts'
import type { DeskPaymentMethod, GatewayMethod } from './methods.ts'
import { addCharge, changeStatus, deskAmount, openDeskGatewayPayment, recordDeskPayment } from './operations.ts'
import { type BookingKind, type LockedBooking, lockBooking } from './repository/bookings.ts'
import { type BookingListFilter, bookingIdPage } from './repository/lists.ts'
import { type ChargeInput, cancelReason, type StatusChange } from './schemas.ts'

// The venue desk's operations on a booking of either kind (docs/bookings.md, "Staff operations"):
// each is one step run by deskStep. The kind's module answers the booking with its own resource.

/**
 * GET /venues/{venue}/…bookings: one page of the ids of the venue's bookings of a kind, for its desk
 * only (404 unknown venue, 403 otherwise; then 422 on an impossible date), and the total.
 */
export async function venueBookingIds(
  ctx: AppContext,
  user: AuthUser,
  kind: BookingKind,
  venueParam: string,
  filter: Omit<BookingListFilter, 'venueId' | 'userId'>,
  page: PageParams,
  order: 'newest' | 'schedule',
): Promise<{ ids: number[]; total: number }> {
  const venueId = await deskVenueId(ctx, user, venueParam)
  if (filter.date !== undefined && !isValidDate(filter.date)) {
    throw new Invalid('date', 'The date field must be a valid date.')
  }
  return bookingIdPage(ctx.db, kind, { ...filter, venueId }, page, order)
}

/** How a kind answers one of its bookings by id, as it is after a step. */
export type Reload<B> = (id: number) => Promise<B>

/**
 * Look up, lock, step, reload: once the caller is known to work at the booking's venue (404 for an
 * unknown id, 403 for anyone else; with `payable` also 403 on the caller's own booking), runs `step`
 * on the row-locked booking in one transaction, then answers the booking as it is afterwards.
 */
export async function deskStep<B>(
  ctx: AppContext,
  user: AuthUser,
  kind: BookingKind,
  rawId: string,
  reload: Reload<B>,
  step: (trx: Executor, booking: LockedBooking) => Promise<unknown>,
  payable = false,
): Promise<B> {
  const id = await deskBookingId(ctx, user, kind, rawId, payable)
  await ctx.db.transaction().execute(async (trx) => step(trx, (await lockBooking(trx, kind, id))!))
  return reload(id)
}

/** PATCH …/status: a state machine step; a cancel keeps the reason (cancelReason). */
export function setStatusAtDesk<B>(
  ctx: AppContext,
  user: AuthUser,
  kind: BookingKind,
  rawId: string,
  input: StatusChange,
  reload: Reload<B>,
): Promise<B> {
  return deskStep(ctx, user, kind, rawId, reload, (trx, booking) =>
    changeStatus(ctx, trx, booking, input.status, cancelReason(input), user.id),
  )
}

/** POST …/charges: an extra session charge (a blank description is 422, then the amount's bounds). */
export function chargeAtDesk<B>(
  ctx: AppContext,
  user: AuthUser,
  kind: BookingKind,
  rawId: string,
  input: ChargeInput,
  reload: Reload<B>,
): Promise<B> {
  return deskStep(ctx, user, kind, rawId, reload, async (trx, booking) => {
    const description = input.description.trim()
    if (!description) throw new Invalid('description', 'The description field is required.')
    await addCharge(ctx, trx, booking, { description, amount: deskAmount(input.amount) }, user)
  })
}

/** What a payment taken at the desk says: the amount and the method (cash by default). */
export interface DeskPaymentInput {
  amount: number | string
  method?: DeskPaymentMethod
}

/**
 * POST …/payments with cash: taken at the desk, never on the caller's own booking. (A gateway
 * method is a desk payment intent instead: payments' startDeskGatewayPayment.)
 */
export function payAtDesk<B>(
  ctx: AppContext,
  user: AuthUser,
  kind: BookingKind,
  rawId: string,
  input: DeskPaymentInput,
  reload: Reload<B>,
): Promise<B> {
  return deskStep(
    ctx,
    user,
    kind,
    rawId,
    reload,
    (trx, booking) => recordDeskPayment(ctx, trx, booking, { amount: deskAmount(input.amount), method: 'cash' }, user),
    true,
  )
}

/**
 * POST …/payments with a gateway method: the initiated desk payment, in its own transaction (the
 * caller then opens it at the gateway). Who may, and how much, as for cash.
 */
export async function openGatewayPaymentAtDesk(
  ctx: AppContext,
  user: AuthUser,
  kind: BookingKind,
  rawId: string,
  input: { amount: number | string; method: GatewayMethod; returnUrl: string | null },
) {
  const id = await deskBookingId(ctx, user, kind, rawId, true)
  return ctx.db.transaction().execute(async (trx) => {
    const booking = (await lockBooking(trx, kind, id))!
    const amount = deskAmount(input.amount)
    const payment = await openDeskGatewayPayment(
      ctx,
      trx,
      booking,
      { amount, method: input.method, returnUrl: input.returnUrl },
      user,
    )
    return { payment, booking }
  })
}
