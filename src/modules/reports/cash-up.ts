import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Conflict, Invalid } from '../../lib/errors.ts'
import { formatMoney, toPaisa } from '../../lib/money.ts'
import { addDays } from '../../lib/time.ts'
import { type CashBackDetailRow, cashBacksOfPeriod } from '../booking-core/index.ts'
import { cashBacksPaidIn, deskPaymentsIn } from './queries.ts'
import { type CashUpRow, findCashUp, insertCashUp } from './repository.ts'

// The desk's cash-up (docs/reports.md, "Cash-up"): the money staff took at the desk on one
// venue-local day, by the day it was received (payments.completed_at) and by who took it, less the
// cash-backs handed over that day (cash_backs.paid_at, paid_by). Cash goes into the drawer; a
// counter payment (a desk QR payment the gateway confirmed; before migration 030 a typed reference,
// unverified) is never in the drawer, so it is listed and totalled but not expected there. Every cash-back that
// fell due or was handed over that day is listed with who took the payment, who cancelled, who
// approved and who paid it out. Closing a day stores what was expected, what was counted and the
// difference, once.

export const ALREADY_CLOSED = "This day's cash-up is already closed."

interface StaffTotals {
  staff: { id: number; name: string | null } | null
  cash: number
  counter: number
  cash_backs: number
  payments: number
}

/** The day's figures, computed from the payments and cash-backs as they are now. */
async function dayFigures(ctx: AppContext, venueId: number, date: string) {
  const start = ctx.zone.instant(date, '00:00')
  const end = ctx.zone.instant(addDays(date, 1), '00:00')
  const [payments, cashBacks, ofDay] = await Promise.all([
    deskPaymentsIn(ctx.db, venueId, start, end),
    cashBacksPaidIn(ctx.db, venueId, start, end),
    cashBacksOfPeriod(ctx.db, venueId, start, end),
  ])
  const staff = new Map<number | null, StaffTotals>()
  const of = (id: number | null, name: string | null) => {
    let s = staff.get(id)
    if (!s) {
      s = { staff: id === null ? null : { id, name }, cash: 0, counter: 0, cash_backs: 0, payments: 0 }
      staff.set(id, s)
    }
    return s
  }
  for (const p of payments) {
    const s = of(p.staff_id, p.staff_name)
    if (p.method === 'cash') s.cash += p.amount
    else s.counter += p.amount
    s.payments++
  }
  for (const c of cashBacks) of(c.staff_id, c.staff_name).cash_backs += c.amount
  const list = [...staff.values()].sort((a, b) => (a.staff?.name ?? '').localeCompare(b.staff?.name ?? ''))
  const totals = list.reduce(
    (t, s) => ({ cash: t.cash + s.cash, counter: t.counter + s.counter, cash_backs: t.cash_backs + s.cash_backs }),
    { cash: 0, counter: 0, cash_backs: 0 },
  )
  return { payments, cashBacks, ofDay, staff: list, totals }
}

const ref = (id: number | null, name: string | null) => (id === null ? null : { id, name })

/** Who took the refunded payment, who cancelled and who approved a cash-back. */
const actorsOf = (c: CashBackDetailRow | undefined) => ({
  taken_by: c ? ref(c.taken_by, c.taken_by_name) : null,
  cancelled_by: c ? ref(c.cancelled_by, c.cancelled_by_name) : null,
  approved_by: c ? ref(c.approved_by, c.approved_by_name) : null,
})

const staffResource = (s: StaffTotals) => ({
  staff: s.staff,
  payments: s.payments,
  cash: formatMoney(s.cash),
  counter: formatMoney(s.counter),
  cash_backs: formatMoney(s.cash_backs),
  expected_cash: formatMoney(s.cash - s.cash_backs),
})

function closingResource(ctx: AppContext, row: CashUpRow) {
  return {
    id: Number(row.id),
    cash: formatMoney(row.cash_received),
    counter: formatMoney(row.counter_received),
    cash_backs: formatMoney(row.cash_backs_paid),
    expected_cash: formatMoney(row.expected_cash),
    counted_cash: formatMoney(row.counted_cash),
    difference: formatMoney(row.difference),
    note: row.note,
    by_staff: (typeof row.by_staff === 'string' ? JSON.parse(row.by_staff) : row.by_staff) as ReturnType<
      typeof staffResource
    >[],
    closed_by: row.closed_by === null ? null : { id: Number(row.closed_by), name: row.closed_by_name },
    closed_at: ctx.zone.format(row.closed_at),
  }
}

function checkDate(ctx: AppContext, date: string) {
  if (date > ctx.zone.today(ctx.clock.now())) {
    throw new Invalid('date', 'The date field must be a date before or equal to today.')
  }
}

/** The day's cash-up: what the drawer should hold, by staff member, what made it, and the closing if closed. */
export async function cashUp(ctx: AppContext, venueId: number, date: string | undefined) {
  const day = date ?? ctx.zone.today(ctx.clock.now())
  checkDate(ctx, day)
  const [f, closed] = await Promise.all([dayFigures(ctx, venueId, day), findCashUp(ctx.db, venueId, day)])
  return {
    date: day,
    status: closed ? ('closed' as const) : ('open' as const),
    cash: formatMoney(f.totals.cash),
    counter: formatMoney(f.totals.counter),
    cash_backs: formatMoney(f.totals.cash_backs),
    expected_cash: formatMoney(f.totals.cash - f.totals.cash_backs),
    by_staff: f.staff.map(staffResource),
    payments: f.payments.map((p) => ({
      id: p.id,
      booking_number: p.booking_number,
      booking_type: p.kind,
      customer_name: p.customer_name,
      method: p.method,
      amount: formatMoney(p.amount),
      received_at: ctx.zone.format(p.completed_at),
      staff: { id: p.staff_id, name: p.staff_name },
      unverified: p.unverified,
    })),
    cash_backs_paid: f.cashBacks.map((c) => ({
      id: c.id,
      payment_id: c.payment_id,
      booking_number: c.booking_number,
      booking_type: c.kind,
      amount: formatMoney(c.amount),
      reason: c.reason,
      paid_at: ctx.zone.format(c.paid_at),
      staff: c.staff_id === null ? null : { id: c.staff_id, name: c.staff_name },
      ...actorsOf(f.ofDay.find((d) => d.id === c.id)),
    })),
    cash_backs_of_day: f.ofDay.map((c) => ({
      id: c.id,
      payment_id: c.payment_id,
      payment_method: c.payment_method,
      booking_number: c.booking_number,
      booking_type: c.booking_type,
      amount: formatMoney(c.amount),
      reason: c.reason,
      status: c.status === 'paid' ? ('paid' as const) : ('due' as const),
      needs_approval: c.amount > ctx.config.cashBackApprovalAmount,
      created_at: ctx.zone.format(c.created_at),
      ...actorsOf(c),
      approved_at: ctx.zone.format(c.approved_at),
      paid_by: ref(c.paid_by, c.paid_by_name),
      paid_at: ctx.zone.format(c.paid_at),
    })),
    closing: closed ? closingResource(ctx, closed) : null,
  }
}

/**
 * Closes the day: stores the expected cash (computed now), the counted cash and their difference
 * (counted − expected: negative is a shortfall), who closed it and when. A day is closed once: a
 * second close, or the loser of two at once, is 409 (the unique constraint decides).
 */
export async function closeCashUp(
  ctx: AppContext,
  venueId: number,
  user: AuthUser,
  input: { date: string; counted_cash: number | string; note?: string | null },
) {
  checkDate(ctx, input.date)
  const counted = toPaisa(input.counted_cash)
  if (await findCashUp(ctx.db, venueId, input.date)) throw new Conflict(ALREADY_CLOSED)
  const f = await dayFigures(ctx, venueId, input.date)
  const expected = f.totals.cash - f.totals.cash_backs
  const note = input.note?.trim() || null
  const row = await insertCashUp(ctx.db, {
    venue_id: venueId,
    date: input.date,
    cash_received: f.totals.cash,
    counter_received: f.totals.counter,
    cash_backs_paid: f.totals.cash_backs,
    expected_cash: expected,
    counted_cash: counted,
    difference: counted - expected,
    note,
    by_staff: JSON.stringify(f.staff.map(staffResource)),
    closed_by: user.id,
    closed_at: ctx.clock.now(),
  })
  if (!row) throw new Conflict(ALREADY_CLOSED)
  return cashUp(ctx, venueId, input.date)
}
