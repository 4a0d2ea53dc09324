import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Forbidden, NotFound } from '../../lib/errors.ts'
import { formatMoney } from '../../lib/money.ts'
import type { BookingKind } from '../booking-core/index.ts'
import { bookingSummary, type Gateways, paymentResource, startAtGateway } from '../payments/index.ts'
import * as repo from './repository.ts'
import { shareResource, shareStatus } from './resource.ts'
import { lockShares, payTakenShares, type ShareMethod, type SplitView, splitBooking } from './service.ts'

// The HTTP services of split payment: each opens its transaction, and a gateway payment is opened
// at its gateway after the commit (the network never inside a transaction), as /api/payments/initiate does.

export interface PayInput {
  method: ShareMethod
  return_url?: string
}

/** What paying shares answers: like /api/payments/initiate (wallet 200 paid; a gateway 201 payment_url). */
export type PayAnswer =
  | {
      kind: 'wallet'
      message: string
      payment: ReturnType<typeof paymentResource>
      booking: ReturnType<typeof bookingSummary>
    }
  | { kind: 'gateway'; payment: ReturnType<typeof paymentResource>; paymentUrl: string }

/** POST /api/bookings/{booking}/split: the organizer splits their pending booking. */
export function splitAsOrganizer(
  ctx: AppContext,
  user: AuthUser,
  kind: BookingKind,
  bookingId: number,
  shares: number,
): Promise<SplitView> {
  return ctx.db
    .transaction()
    .execute((trx) => splitBooking(ctx, trx, { kind, bookingId, organizerId: user.id, shares }))
}

/** POST /api/shares/{token}/pay: any signed-in user pays the share of the link. */
export async function payShare(
  ctx: AppContext,
  gateways: Gateways,
  user: AuthUser,
  token: string,
  input: PayInput,
): Promise<PayAnswer> {
  const share = await repo.findShareByToken(ctx.db, token)
  if (!share) throw new NotFound()
  return pay(ctx, gateways, user, share.split_id, (all) => all.filter((s) => s.id === share.id), input)
}

/** POST /api/bookings/{booking}/split/settle: the organizer pays every unpaid share at once. */
export async function settleSplit(
  ctx: AppContext,
  gateways: Gateways,
  user: AuthUser,
  kind: BookingKind,
  bookingId: number,
  input: PayInput,
): Promise<PayAnswer> {
  const facts = await repo.bookingFacts(ctx.db, kind, bookingId)
  if (!facts) throw new NotFound()
  if (facts.user_id !== user.id) throw new Forbidden()
  const split = await repo.findSplit(ctx.db, kind, bookingId)
  if (!split) throw new NotFound('This booking is not split.')
  return pay(ctx, gateways, user, split.id, (all) => all.filter((s) => s.payment_id === null), input)
}

async function pay(
  ctx: AppContext,
  gateways: Gateways,
  user: AuthUser,
  splitId: number,
  pick: Parameters<typeof lockShares>[3],
  input: PayInput,
): Promise<PayAnswer> {
  const started = await ctx.db.transaction().execute(async (trx) => {
    const taken = await lockShares(ctx, trx, splitId, pick)
    return payTakenShares(ctx, trx, taken, user.id, input.method, input.return_url ?? null)
  })
  if (started.kind === 'wallet') {
    ctx.metrics.payments.inc({ gateway: 'wallet', outcome: 'completed' })
    return {
      kind: 'wallet',
      message: 'Payment successful.',
      payment: paymentResource(started.payment, ctx.zone),
      booking: bookingSummary(started.booking),
    }
  }
  const paymentUrl = await startAtGateway(
    ctx,
    gateways,
    started.payment,
    `Share of booking ${started.booking.booking_number}`,
  )
  return { kind: 'gateway', payment: paymentResource(started.payment, ctx.zone), paymentUrl }
}

/** GET /api/shares/{token}: the share page's booking summary and who has paid (anyone with the link). */
export async function sharePage(ctx: AppContext, token: string) {
  const share = await repo.findShareByToken(ctx.db, token)
  if (!share) throw new NotFound()
  const split = await repo.findSplitById(ctx.db, share.split_id)
  if (!split) throw new NotFound()
  const kind = split.booking_type as BookingKind
  const facts = await repo.bookingFacts(ctx.db, kind, split.booking_id)
  if (!facts) throw new NotFound()
  const details = await repo.shareDetails(ctx.db, split.id)
  const mine = details.find((d) => d.id === share.id)
  if (!mine) throw new NotFound()
  const paid = details.filter((d) => shareStatus(d) === 'paid')
  const byPayer = new Map<string, number>()
  for (const d of paid) byPayer.set(d.payer_name ?? '', (byPayer.get(d.payer_name ?? '') ?? 0) + 1)
  return {
    share: shareResource(mine, ctx.config.appUrl),
    booking: {
      id: facts.id,
      booking_type: kind,
      booking_number: facts.booking_number,
      status: facts.status,
      venue: facts.venue,
      venue_slug: facts.venue_slug,
      resource: facts.resource,
      date: facts.date,
      start_time: facts.start_time.slice(0, 5),
      end_time: facts.end_time.slice(0, 5),
      organizer: facts.organizer ?? '',
      total: formatMoney(facts.total_amount),
    },
    deadline: ctx.zone.format(split.deadline) ?? '',
    shares_total: details.length,
    shares_paid: paid.length,
    paid_by: [...byPayer].map(([name, shares]) => ({ name, shares })),
  }
}
