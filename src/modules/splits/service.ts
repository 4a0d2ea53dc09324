import { randomBytes } from 'node:crypto'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { Conflict, Forbidden, NotFound, Unprocessable } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import {
  type BookingKind,
  bookingHeldAsVerified,
  holdUntil,
  type LockedBooking,
  lockBooking,
  newPayment,
  noShowStanding,
  type PaymentRow,
  receivePayment,
  returnPayment,
  setHold,
} from '../booking-core/index.ts'
import { notify } from '../notifications/index.ts'
import * as repo from './repository.ts'
import { type ShareDetail, shareStatus, splitResource } from './resource.ts'

// Split payment (docs/payments.md, "Split payment"): a pending booking split into equal shares, each
// paid by whoever opens its link, through the one step a payment arrives by (booking-core's
// receivePayment); the booking is held until the split's deadline and confirmed once every share is
// paid. The hold sweep cancels it at the deadline when shares are still unpaid, and the cancel
// refunds each payer their own payment (booking-core's refundBooking). Every function that changes
// shares takes the booking's lock (lockBooking) first, then the shares' row locks.

export const MIN_SHARES = 2
/**
 * The most shares a split has: 22, an 11-a-side match where every player holds one (matches). The
 * split route itself takes 2 to 20 (its schema, issue 48's `shares: 2..20`).
 */
export const MAX_SHARES = 22

export const SPLIT_AFTER_PAYMENT = 'A share of this booking has been paid: its split can no longer change.'
export const SPLIT_NOT_PENDING = 'Only a pending booking that nothing has been paid for can be split.'
export const SPLIT_TOO_LATE = 'It is too late to split this booking: its shares would have no time to be paid.'
export const SHARE_PAID = 'This share has already been paid.'
export const SHARES_ALL_PAID = 'Every share of this booking has been paid.'
export const SHARE_NOT_PAYABLE = 'This share can no longer be paid.'
export const BOOKING_PAID = 'This booking is already paid.'
/** A share larger than the booking's balance due (part was paid at the desk or otherwise). */
export const SHARE_OVER_BALANCE = (share: number, due: number) =>
  `This booking has only Rs ${formatMoney(due)} left to pay, less than this share (Rs ${formatMoney(share)}): part of it was paid another way. The organizer can pay the balance from the booking.`
export const SPLIT_DEADLINE_PASSED = 'The time to pay the shares of this booking has passed.'

/** A split as the API shows it (SplitSchema). */
export type SplitView = ReturnType<typeof splitResource>

/** Equal shares of `total` paisa to the paisa; the remainder goes on the first (the organizer's). */
export function equalShares(total: number, count: number): number[] {
  const each = Math.floor(total / count)
  return Array.from({ length: count }, (_, i) => (i === 0 ? total - each * (count - 1) : each))
}

/**
 * Splits the pending booking `bookingId` of `kind`, customer `organizerId`'s own, into `shares`
 * equal shares (first share first, carrying the remainder), in the caller's transaction. Splitting
 * again replaces the shares while none has been paid (409 after). The booking is then held until
 * the split's deadline: SPLIT_PAY_BEFORE_MINUTES before the start, never longer than the hold the
 * booking could have otherwise (holdUntil as for paying at the venue; the online payment window
 * for a customer without a verified phone or at the venue's no-show limit). 404 unknown booking,
 * 403 not the organizer's, 409 not pending or paid, 422 too late or too little to split.
 */
export async function splitBooking(
  ctx: AppContext,
  trx: Executor,
  input: { kind: BookingKind; bookingId: number; organizerId: number; shares: number },
): Promise<SplitView> {
  const booking = await lockBooking(trx, input.kind, input.bookingId)
  if (!booking) throw new NotFound()
  if (booking.user_id !== input.organizerId) throw new Forbidden()
  if (!Number.isInteger(input.shares) || input.shares < MIN_SHARES || input.shares > MAX_SHARES) {
    throw new Unprocessable(`A booking is split into ${MIN_SHARES} to ${MAX_SHARES} shares.`)
  }
  const existing = await repo.findSplit(trx, input.kind, booking.id)
  if (existing && (await repo.splitHasPayments(trx, existing.id))) throw new Conflict(SPLIT_AFTER_PAYMENT)
  if (booking.status !== 'pending' || booking.paid_amount > 0) throw new Conflict(SPLIT_NOT_PENDING)
  if (booking.total_amount < input.shares) {
    throw new Unprocessable(`This booking costs too little to split into ${input.shares} shares.`)
  }
  const now = ctx.clock.now()
  const deadline = await splitDeadline(ctx, trx, booking, now)
  if (deadline.getTime() <= now.getTime()) throw new Unprocessable(SPLIT_TOO_LATE)
  if (existing) await repo.deleteSplit(trx, existing.id)
  const split = await repo.insertSplit(trx, {
    booking_type: input.kind,
    booking_id: booking.id,
    deadline,
    created_at: now,
  })
  await repo.insertShares(
    trx,
    equalShares(booking.total_amount, input.shares).map((amount, i) => ({
      split_id: split.id,
      position: i + 1,
      amount,
      token: randomBytes(18).toString('base64url'),
      created_at: now,
    })),
  )
  await setHold(trx, input.kind, booking.id, deadline, now)
  return view(ctx, trx, split, booking.total_amount)
}

/** When a split of `b` made at `now` must be paid by (splitBooking). */
async function splitDeadline(ctx: AppContext, trx: Executor, b: LockedBooking, now: Date): Promise<Date> {
  const start = ctx.zone.instant(b.date, b.start_time)
  const byRule = start.getTime() - ctx.config.splitPayBeforeMinutes * 60_000
  const window = now.getTime() + ctx.config.bookingHoldMinutes * 60_000
  const restricted = b.user_id !== null && (await noShowStanding(ctx, trx, b.venue_id, b.user_id)).restricted
  const longest = restricted
    ? window
    : holdUntil(
        ctx,
        { method: 'cash', date: b.date, startTime: b.start_time },
        now,
        await bookingHeldAsVerified(trx, b),
      ).getTime()
  return new Date(Math.min(byRule, longest))
}

/**
 * The split of a booking as the API shows it, or undefined when the booking is not split. No
 * authorization: the caller has checked who asks (sharesForOrganizer).
 */
export async function sharesOf(
  ctx: AppContext,
  db: Executor,
  kind: BookingKind,
  bookingId: number,
): Promise<SplitView | undefined> {
  const split = await repo.findSplit(db, kind, bookingId)
  if (!split) return undefined
  const facts = await repo.bookingFacts(db, kind, bookingId)
  return view(ctx, db, split, facts?.total_amount ?? 0)
}

/** GET …/shares: the organizer's view of their split booking; 404 when it is not split, 403 for anyone else. */
export async function sharesForOrganizer(ctx: AppContext, user: AuthUser, kind: BookingKind, bookingId: number) {
  const facts = await repo.bookingFacts(ctx.db, kind, bookingId)
  if (!facts) throw new NotFound()
  if (facts.user_id !== user.id) throw new Forbidden()
  const split = await sharesOf(ctx, ctx.db, kind, bookingId)
  if (!split) throw new NotFound('This booking is not split.')
  return split
}

async function view(ctx: AppContext, db: Executor, split: repo.SplitRow, total: number): Promise<SplitView> {
  const shares = (await repo.shareDetails(db, split.id)) as ShareDetail[]
  return splitResource(split, total, shares, ctx.config.appUrl, ctx.zone)
}

/** The shares a payment is taken for, with their booking, locked in `trx` (booking first). */
export interface TakenShares {
  booking: LockedBooking
  split: repo.SplitRow
  shares: repo.ShareRow[]
}

/**
 * Locks the booking of the split `splitId` and then its shares, and picks the shares `pick` names
 * (ids); 409 when one is paid already, 422 when the booking no longer takes payments or the deadline
 * has passed.
 */
export async function lockShares(
  ctx: AppContext,
  trx: Executor,
  splitId: number,
  pick: (shares: repo.ShareRow[]) => repo.ShareRow[],
): Promise<TakenShares> {
  const split = await repo.findSplitById(trx, splitId)
  if (!split) throw new NotFound()
  const booking = await lockBooking(trx, split.booking_type as BookingKind, split.booking_id)
  if (!booking) throw new NotFound()
  const shares = pick(await repo.sharesOfSplit(trx, split.id, true))
  if (booking.status !== 'pending' && booking.status !== 'confirmed') throw new Unprocessable(SHARE_NOT_PAYABLE)
  if (booking.status === 'pending' && split.deadline.getTime() <= ctx.clock.now().getTime()) {
    throw new Unprocessable(SPLIT_DEADLINE_PASSED)
  }
  if (shares.length === 0) throw new Conflict(SHARES_ALL_PAID)
  if (shares.some((s) => s.payment_id !== null)) throw new Conflict(SHARE_PAID)
  return { booking, split, shares }
}

/** How a payer pays: the wallet at once, or a gateway (a payment intent the gateway then confirms). */
export type ShareMethod = 'wallet' | 'gateway_1' | 'gateway_2' | 'gateway_3'

/** What paying shares started: paid from the wallet, or a gateway payment to open (openSharePayment). */
export type SharePaymentStart =
  | { kind: 'wallet'; payment: PaymentRow; booking: LockedBooking }
  | { kind: 'gateway'; payment: PaymentRow; booking: LockedBooking }

/**
 * Pays the shares `taken` (lockShares) as user `payerId`, in the caller's transaction: one payment
 * of their sum by the payer. wallet: received at once through receivePayment (its ledger entry and
 * receipt, the booking confirmed when it is the last), the shares marked paid; 422 "Insufficient
 * wallet balance." when short. A gateway: an initiated payment recorded for these shares; the
 * caller opens it at the gateway after commit (payments' startAtGateway), and when the gateway
 * confirms it, receivePayment marks the shares paid (paymentArriving) unless they were paid
 * meanwhile, in which case the money goes back to the payer's wallet. The booking's hold is not
 * touched: it stays the split's deadline.
 */
export async function payTakenShares(
  ctx: AppContext,
  trx: Executor,
  taken: TakenShares,
  payerId: number,
  method: ShareMethod,
  returnUrl: string | null,
): Promise<SharePaymentStart> {
  const amount = taken.shares.reduce((s, x) => s + x.amount, 0)
  const ids = taken.shares.map((s) => s.id)
  // Paid otherwise meanwhile (the whole balance through /api/payments/initiate, or at the desk):
  // the booking would not take the share's money.
  const due = taken.booking.total_amount - taken.booking.paid_amount
  if (due <= 0) throw new Unprocessable(BOOKING_PAID)
  if (due < amount) throw new Unprocessable(SHARE_OVER_BALANCE(amount, due))
  if (method === 'wallet') {
    // The payment is made for these shares: paymentArriving links and marks them as it arrives.
    const received = await receivePayment(ctx, trx, taken.booking, {
      way: 'wallet',
      userId: payerId,
      amount,
      forShares: ids,
    })
    return { kind: 'wallet', payment: received.payment, booking: received.booking }
  }
  const payment = await newPayment(ctx, trx, {
    user_id: payerId,
    payable_type: taken.booking.kind,
    payable_id: taken.booking.id,
    method,
    amount,
    status: 'initiated',
    return_url: returnUrl,
  })
  await repo.linkPayment(trx, payment.id, ids)
  return { kind: 'gateway', payment, booking: taken.booking }
}

/** The split of a share link; 404 for an unknown token. */
export async function splitOfToken(db: Executor, token: string) {
  const share = await repo.findShareByToken(db, token)
  if (!share) throw new NotFound()
  return share
}

/**
 * Booking-core's paymentArriving step (ctx.steps, wired by src/modules/index.ts): a completed
 * payment started for shares marks them paid by its payer when they are all still unpaid and the
 * booking takes their whole sum (`room`); then the booking takes it. Shares paid meanwhile by
 * someone else, or replaced by a re-split, leave the booking taking nothing of it (receivePayment
 * returns it to the payer's wallet). A payment of no share: the booking takes `room`.
 */
export async function paymentArriving(
  ctx: AppContext,
  trx: Executor,
  booking: { kind: BookingKind; id: number },
  payment: { id: number; user_id: number | null; amount: number },
  room: number,
  forShares?: readonly number[],
): Promise<number> {
  // A wallet payment for shares is new in this transaction: linked to its shares here, before it is read.
  if (forShares?.length) await repo.linkPayment(trx, payment.id, [...forShares])
  const links = await repo.lockLinkedShares(trx, payment.id)
  if (links.length === 0) {
    if (room > 0) await settleByWhole(ctx, trx, booking, payment, room)
    return room
  }
  const shares = links.flatMap((l) => (l.share ? [l.share] : []))
  const free = shares.length === links.length && shares.every((s) => s.payment_id === null)
  const sum = shares.reduce((s, x) => s + x.amount, 0)
  if (!free || payment.user_id === null || room < sum) return 0
  await markPaid(
    ctx,
    trx,
    booking,
    shares.map((s) => s.id),
    payment,
  )
  await settleRest(trx, ctx, booking, sum)
  return sum
}

/**
 * A share payment that brings the booking to fully paid when money of no share (the desk's cash, say)
 * paid the rest: the shares still unpaid were paid by that money, so they are marked paid by it (its
 * payer, else the booking's customer). Otherwise they would read "unpaid" on a booking nothing is
 * due on, and a match would show spots no one can pay for.
 */
async function settleRest(trx: Executor, ctx: AppContext, booking: { kind: BookingKind; id: number }, taken: number) {
  const split = await repo.findSplit(trx, booking.kind, booking.id)
  const facts = await repo.bookingFacts(trx, booking.kind, booking.id)
  if (!split || !facts || facts.paid_amount + taken < facts.total_amount) return
  const unpaid = (await repo.sharesOfSplit(trx, split.id, true)).filter((s) => s.payment_id === null)
  if (unpaid.length === 0) return
  const other = await repo.latestPaymentOfNoShare(trx, booking.kind, booking.id)
  const payerId = other?.user_id ?? facts.user_id
  if (!other || payerId === null) return
  await repo.markSharesPaid(
    trx,
    unpaid.map((s) => s.id),
    { payer_id: payerId, payment_id: other.id, paid_at: ctx.clock.now() },
  )
}

/**
 * A payment of no share (the whole balance through /api/payments/initiate, cash or QR at the desk)
 * that brings a split booking to fully paid settles its unpaid shares, as split/settle would: they
 * are marked paid by that payment's payer (the booking's customer for desk money), so the shares,
 * the share page, the desk board and a match's spots agree with the money, and the organizer is
 * told. A payment that leaves a balance due changes no share (a share larger than what is left is
 * then refused when paid: SHARE_OVER_BALANCE).
 */
async function settleByWhole(
  ctx: AppContext,
  trx: Executor,
  booking: { kind: BookingKind; id: number },
  payment: { id: number; user_id: number | null; amount: number },
  room: number,
): Promise<void> {
  const split = await repo.findSplit(trx, booking.kind, booking.id)
  if (!split) return
  const facts = await repo.bookingFacts(trx, booking.kind, booking.id)
  if (!facts || facts.paid_amount + room < facts.total_amount) return
  const unpaid = (await repo.sharesOfSplit(trx, split.id, true)).filter((s) => s.payment_id === null)
  const payerId = payment.user_id ?? facts.user_id
  if (unpaid.length === 0 || payerId === null) return
  await repo.markSharesPaid(
    trx,
    unpaid.map((s) => s.id),
    { payer_id: payerId, payment_id: payment.id, paid_at: ctx.clock.now() },
  )
  if (facts.user_id === null) return
  const shares = await repo.shareDetails(trx, split.id)
  await notify(
    ctx,
    facts.user_id,
    'SplitSharePaid',
    {
      message: `Booking ${facts.booking_number} on ${facts.date} at ${facts.start_time.slice(0, 5)} is paid in full by a payment of Rs ${formatMoney(payment.amount)}: the shares still unpaid (${unpaid.length}) are settled and their links can no longer be paid.`,
      booking_id: booking.id,
      booking_type: booking.kind,
      booking_number: facts.booking_number,
      venue_id: facts.venue_id,
      shares_paid: shares.length,
      shares_total: shares.length,
      unpaid_shares: [],
      settled_shares: unpaid.map((s) => s.id),
    },
    trx,
  )
}

/** Marks shares paid by the payment's payer and tells the organizer who has paid and who has not. */
async function markPaid(
  ctx: AppContext,
  trx: Executor,
  booking: { kind: BookingKind; id: number },
  shareIds: number[],
  payment: { id: number; user_id: number | null; amount: number },
) {
  if (payment.user_id === null) return
  await repo.markSharesPaid(trx, shareIds, {
    payer_id: payment.user_id,
    payment_id: payment.id,
    paid_at: ctx.clock.now(),
  })
  await tellOrganizer(ctx, trx, booking, payment.user_id, payment.amount)
}

async function tellOrganizer(
  ctx: AppContext,
  trx: Executor,
  booking: { kind: BookingKind; id: number },
  payerId: number,
  amount: number,
) {
  const facts = await repo.bookingFacts(trx, booking.kind, booking.id)
  const split = await repo.findSplit(trx, booking.kind, booking.id)
  if (!facts || !split || facts.user_id === null || facts.user_id === payerId) return
  const shares = (await repo.shareDetails(trx, split.id)) as ShareDetail[]
  const paid = shares.filter((s) => shareStatus(s) === 'paid')
  const payer = shares.find((s) => s.payer_id === payerId)?.payer_name ?? 'Someone'
  const unpaid = shares.length - paid.length
  const rest =
    unpaid === 0
      ? 'Every share is paid.'
      : `${unpaid} of ${shares.length} shares are still unpaid; you can pay the rest at once (settle).`
  await notify(
    ctx,
    facts.user_id,
    'SplitSharePaid',
    {
      message: `${payer} paid Rs ${formatMoney(amount)} of booking ${facts.booking_number} on ${facts.date} at ${facts.start_time.slice(0, 5)}. ${rest}`,
      booking_id: booking.id,
      booking_type: booking.kind,
      booking_number: facts.booking_number,
      venue_id: facts.venue_id,
      shares_paid: paid.length,
      shares_total: shares.length,
      unpaid_shares: shares.filter((s) => shareStatus(s) === 'unpaid').map((s) => s.id),
    },
    trx,
  )
}

/**
 * Releases share `shareId` in the caller's transaction (a match player leaves): a paid share's
 * payment is refunded to its payer the way it came (online money to the payer's wallet, charged to
 * the venue's balance; its credit note; the booking's paid_amount lowered) and the share is unpaid
 * again with no payer. An unpaid share is left as it is. Returns the refunded paisa. The booking
 * keeps its status: a confirmed booking then has a balance due until the share is paid again.
 */
export async function releaseShare(
  ctx: AppContext,
  trx: Executor,
  shareId: number,
  description = 'Share refunded: the player left',
): Promise<number> {
  const found = await repo.findShare(trx, shareId)
  if (!found) throw new NotFound()
  const split = await repo.findSplitById(trx, found.split_id)
  if (!split) throw new NotFound()
  const kind = split.booking_type as BookingKind
  const booking = await lockBooking(trx, kind, split.booking_id)
  if (!booking) throw new NotFound()
  const share = (await repo.sharesOfSplit(trx, split.id, true)).find((s) => s.id === shareId)
  if (!share || share.payment_id === null) return 0
  const payment = await repo.lockSharePayment(trx, share.payment_id)
  if (!payment || payment.amount - payment.refunded_amount < share.amount) {
    throw new Unprocessable('This share has already been refunded.')
  }
  await returnPayment(ctx, trx, kind, booking, payment, payment.user_id, share.amount, {
    description: `${description} (booking ${booking.booking_number})`,
    applied: true,
  })
  await repo.markShareUnpaid(trx, share.id, ctx.clock.now())
  return share.amount
}
