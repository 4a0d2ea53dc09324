import type { App } from '../../src/app.ts'
import { payThroughGateway } from '../helpers/ledger.ts'

/** Follows a sandbox payment_url with `simulate` and returns the callback URL it redirects to (path + query). */
export async function simulate(app: App, paymentUrl: string, outcome: 'success' | 'failure'): Promise<string> {
  const url = new URL(paymentUrl)
  url.searchParams.set('simulate', outcome)
  const res = await app.inject({ method: 'GET', url: url.pathname + url.search })
  if (res.statusCode !== 302) throw new Error(`sandbox answered ${res.statusCode}: ${res.body}`)
  const back = new URL(res.headers.location as string)
  return back.pathname + back.search
}

/** Wallet balance and ledger sum (completed rows, signed) of a user, in paisa. */
export async function ledger(app: App, userId: number) {
  const user = await app.ctx.db
    .selectFrom('users')
    .select('wallet_balance')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  const rows = await app.ctx.db
    .selectFrom('wallet_transactions')
    .select(['type', 'amount', 'status'])
    .where('user_id', '=', userId)
    .execute()
  const sum = rows
    .filter((r) => r.status === 'completed')
    .reduce((s, r) => s + (r.type === 'debit' ? -r.amount : r.amount), 0)
  return { balance: user.wallet_balance, sum, rows }
}

let bookingSeq = 0

/**
 * A booking row inserted directly (the bookings feature owns creation): pending, unpaid, owned by
 * `userId`, on a court (or an indoor game with `kind: 'indoor'`); with `paid`, paid through gateway_1.
 */
export async function insertBooking(
  app: App,
  opts: {
    userId: number | null
    venueId: number
    courtId?: number
    indoorGameId?: number
    total: number
    date: string
    start?: string
    end?: string
    status?: 'pending' | 'confirmed' | 'cancelled' | 'completed'
    paid?: number
  },
) {
  const n = `${process.pid}${++bookingSeq}`
  const common = {
    user_id: opts.userId,
    venue_id: opts.venueId,
    status: opts.status ?? 'pending',
    date: opts.date,
    start_time: opts.start ?? '10:00',
    end_time: opts.end ?? '11:00',
    base_amount: opts.total,
    total_amount: opts.total,
    paid_amount: opts.paid ?? 0,
    customer_name: 'Test Customer',
  }
  if (opts.indoorGameId) {
    const venue = await app.ctx.db
      .selectFrom('venues')
      .select('owner_id')
      .where('id', '=', opts.venueId)
      .executeTakeFirstOrThrow()
    const row = await app.ctx.db
      .insertInto('indoor_game_bookings')
      .values({ ...common, booking_number: `IG-T-${n}`, indoor_game_id: opts.indoorGameId, tenant_id: venue.owner_id })
      .returning(['id', 'booking_number'])
      .executeTakeFirstOrThrow()
    await paidThrough(app, 'indoor', row.id, opts)
    return { ...row, kind: 'indoor' as const }
  }
  const row = await app.ctx.db
    .insertInto('bookings')
    .values({ ...common, booking_number: `BK-T-${n}`, court_id: opts.courtId! })
    .returning(['id', 'booking_number'])
    .executeTakeFirstOrThrow()
  await paidThrough(app, 'court', row.id, opts)
  return { ...row, kind: 'court' as const }
}

/** A `paid` booking was paid through gateway_1: its completed payment and ledger entry, so the books agree. */
async function paidThrough(
  app: App,
  kind: 'court' | 'indoor',
  bookingId: number,
  opts: { userId: number | null; venueId: number; paid?: number },
) {
  if (opts.paid)
    await payThroughGateway(app, { kind, bookingId, venueId: opts.venueId, userId: opts.userId }, opts.paid)
}

export async function bookingRow(app: App, kind: 'court' | 'indoor', id: number) {
  return app.ctx.db
    .selectFrom(kind === 'court' ? 'bookings' : 'indoor_game_bookings')
    .select(['status', 'paid_amount', 'total_amount', 'payment_method', 'hold_expires_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

/** Follows a sandbox payment_url with `simulate=lost`: paid at the gateway, no callback ever sent. */
export async function payWithoutReturning(app: App, paymentUrl: string): Promise<void> {
  const url = new URL(paymentUrl)
  url.searchParams.set('simulate', 'lost')
  const res = await app.inject({ method: 'GET', url: url.pathname + url.search })
  if (res.statusCode !== 200) throw new Error(`sandbox answered ${res.statusCode}: ${res.body}`)
}

/** Opens a sandbox payment_url (the gateway now knows the payment) without paying. */
export async function openPaymentPage(app: App, paymentUrl: string): Promise<void> {
  const url = new URL(paymentUrl)
  const res = await app.inject({ method: 'GET', url: url.pathname + url.search })
  if (res.statusCode !== 200) throw new Error(`sandbox answered ${res.statusCode}: ${res.body}`)
}

/** Notification class names (without namespace) a user has received, oldest first. */
export async function notificationsOf(app: App, userId: number) {
  const rows = await app.ctx.db
    .selectFrom('notifications')
    .select(['type', 'data'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute()
  return rows.map((r) => ({
    type: r.type.split('\\').pop() as string,
    data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
  }))
}

/**
 * Gateway money at the desk: `staff` start a desk QR payment of `amount` on a booking, and the
 * customer pays it at the sandbox gateway (`outcome`, default success); the callback settles it.
 * Returns the intent (payment, payment_url, qr_svg) and the callback's answer.
 */
export async function payAtDeskByQr(
  app: App,
  staff: { headers: Record<string, string> },
  booking: { kind?: 'court' | 'indoor'; id: number },
  amount: number | string,
  method: 'gateway_1' | 'gateway_2' | 'gateway_3' = 'gateway_2',
  outcome: 'success' | 'failure' = 'success',
) {
  const base = booking.kind === 'indoor' ? '/api/indoor-game-bookings' : '/api/bookings'
  const res = await app.inject({
    method: 'POST',
    url: `${base}/${booking.id}/payments`,
    headers: staff.headers,
    payload: { method, amount },
  })
  if (res.statusCode !== 201) throw new Error(`desk QR payment answered ${res.statusCode}: ${res.body}`)
  const intent = res.json().data as {
    payment: { id: number; status: string; method: string; amount: string }
    payment_url: string
    qr_svg: string
  }
  const callback = await app.inject({ method: 'GET', url: await simulate(app, intent.payment_url, outcome) })
  return { intent, callback }
}
