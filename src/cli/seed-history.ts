import type { Executor } from '../lib/db.ts'
import type { DemoCourt, DemoVenue } from '../lib/demo-data.ts'
import { toPaisa } from '../lib/money.ts'
import { addDays, dayOfWeek, fromMinutes, toMinutes, toTimeWithSeconds } from '../lib/time.ts'
import type { Zone } from '../lib/zone.ts'
import { allocatedNumber } from '../modules/booking-core/index.ts'
import { account, post, returnCommission, takeCommission, transfer } from '../modules/ledger/index.ts'
import { creditWallet, debitWallet } from '../modules/wallet/index.ts'

// The demo venue's past (issue 33): about two months of bookings before the app clock's "now",
// played, paid, a few no-shows, cancellations refunded to the wallet and cash handed back at the
// desk, so the console's Reports and Cash-up pages have something to show on a fresh start.
//
// Money is written the way the services write it, with the same ledger helpers they call:
// desk payments post `desk_payment` (drawer against desk sales); online payments post
// `gateway_payment` (gateway clearing against the venue's balance) or go through the wallet
// module's debitWallet (`wallet_payment`) after a creditWallet top-up; the platform's commission is
// takeCommission; a cancellation refunds through creditWallet (`refund_to_wallet`) and
// returnCommission; desk money refunded is a `desk_refund` and a cash-back paid (`cash_back`).
// Each booking's paid_amount is what the ledger holds for it, so `npm run ledger -- check` passes.
// Not written: receipts and payment events for these payments (the history's bookings have no
// receipts to print), and a payments row for the wallet's top-ups (the ledger and the wallet's own
// transactions have them). Booking numbers come from the real sequences (allocatedNumber).
//
// Deterministic: a seeded generator picks the slots and outcomes, so every fresh start shows the same
// pattern, counted back from its own today.

export const HISTORY_DAYS = 60

/** The least the demo customer's wallet keeps after a payment (paisa). */
const WALLET_FLOOR = toPaisa(5_000)

/** Walk-in and phone customers of the desk (repeat players, so "top customers" means something). */
const DESK_CUSTOMERS = [
  { name: 'Sujan Maharjan', phone: '+9779841000011' },
  { name: 'Prakash Tamang', phone: '+9779841000012' },
  { name: 'Kiran Rai', phone: '+9779841000013' },
  { name: 'Nabin Lama', phone: '+9779841000014' },
  { name: 'Roshan Adhikari', phone: '+9779841000015' },
  { name: 'Dipesh KC', phone: '+9779841000016' },
  { name: 'Sagar Basnet', phone: '+9779841000017' },
  { name: 'Asmita Joshi', phone: '+9779841000018' },
  { name: 'Bibek Poudel', phone: null },
]

/** mulberry32: a small seeded generator (demo data, not security). */
function generator(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
    chance: (p: number) => next() < p,
  }
}

/** The court's price per hour (NPR) for a slot starting at `minute` on `weekday`, from its demo rules. */
function courtPrice(c: DemoCourt, weekday: number, minute: number): number {
  const covers = (r: DemoCourt['rules'][number]) =>
    r.type !== 'holiday' && toMinutes(r.start_time) <= minute && minute < toMinutes(r.end_time)
  const own = c.rules.find((r) => r.day_of_week === weekday && covers(r))
  const any =
    c.rules.find((r) => r.day_of_week === null && r.type === 'peak' && covers(r)) ??
    c.rules.find((r) => r.day_of_week === null && covers(r))
  return (own ?? any)?.price ?? c.price
}

interface Resource {
  kind: 'court' | 'indoor'
  id: number
  slot: number
  /** Opening and closing minute on a weekday. */
  hours: (weekday: number) => [number, number]
  price: (weekday: number, minute: number) => number
  /** The least and most bookings asked for a day (two more on Fridays and Saturdays). */
  perDay: [number, number]
}

interface HistoryPeople {
  customerId: number
  customerName: string
  customerPhone: string
  staffIds: number[]
}

/** Which minutes of the day players ask for: evenings most, then early mornings. */
function preferredStart(rng: ReturnType<typeof generator>, open: number, close: number, slot: number): number {
  const slots = Math.floor((close - open) / slot)
  const roll = rng.next()
  const at = (min: number, max: number) => {
    const lo = Math.max(open, min)
    const hi = Math.min(close - slot, max)
    if (hi < lo) return open + rng.int(0, slots - 1) * slot
    return lo + rng.int(0, Math.floor((hi - lo) / slot)) * slot
  }
  if (roll < 0.55) return at(16 * 60, 21 * 60)
  if (roll < 0.75) return at(6 * 60, 9 * 60)
  return open + rng.int(0, slots - 1) * slot
}

/**
 * Writes the history of one venue for the HISTORY_DAYS days before today (venue time) and today's
 * slots that have already ended. Returns the number of bookings written.
 */
export async function seedVenueHistory(
  db: Executor,
  venue: DemoVenue,
  people: HistoryPeople,
  time: { zone: Zone; now: Date; commissionBasisPoints: number },
): Promise<number> {
  const row = await db.selectFrom('venues').select(['id', 'owner_id']).where('slug', '=', venue.slug).executeTakeFirst()
  if (!row) return 0
  const venueId = row.id
  const today = time.zone.today(time.now)
  const past = await db
    .selectFrom('bookings')
    .select('id')
    .where('venue_id', '=', venueId)
    .where('date', '<', today)
    .limit(1)
    .executeTakeFirst()
  if (past) return 0 // already has a past: the seed stays idempotent

  const courts = await db
    .selectFrom('courts')
    .select(['id', 'name'])
    .where('venue_id', '=', venueId)
    .where('deleted_at', 'is', null)
    .execute()
  const games = await db
    .selectFrom('indoor_games')
    .select(['id', 'name', 'tenant_id'])
    .where('venue_id', '=', venueId)
    .execute()
  const venueHours: [number, number] = [toMinutes(venue.opening_time), toMinutes(venue.closing_time)]
  const resources: (Resource & { tenant?: number })[] = []
  for (const c of venue.courts) {
    const id = courts.find((x) => x.name === c.name)?.id
    if (!id) continue
    resources.push({
      kind: 'court',
      id,
      slot: c.slot_minutes,
      hours: (weekday) => {
        const s = c.schedules?.find((x) => x.day_of_week === weekday)
        return s ? [toMinutes(s.open_time), toMinutes(s.close_time)] : venueHours
      },
      price: (weekday, minute) => courtPrice(c, weekday, minute),
      perDay: [3, 6],
    })
  }
  for (const g of venue.games) {
    const found = games.find((x) => x.name === g.name)
    if (!found) continue
    resources.push({
      kind: 'indoor',
      id: found.id,
      tenant: found.tenant_id,
      slot: g.slot_minutes,
      hours: () => venueHours,
      price: () => g.price,
      perDay: [1, 3],
    })
  }

  const rng = generator(venueId * 7919 + 33)
  const nowMinute = toMinutes(time.zone.wallClock(time.now).time)
  const desk = [...people.staffIds, row.owner_id]
  // The customer's wallet is topped up online (Rs 15,000) whenever a payment would leave it under
  // Rs 5,000: a newcomer signed in as the demo customer can always pay a tournament's entry fee or a
  // booking from it, whatever day the history is written on.
  const wallet = { balance: 0 }
  let written = 0
  for (let back = HISTORY_DAYS; back >= 0; back--) {
    const date = addDays(today, -back)
    const plans = planDay(rng, resources, date, back === 0 ? nowMinute : 24 * 60, { zone: time.zone, people, desk })
    if (plans.length === 0) continue
    written += plans.length
    const ids = await insertBookings(db, venueId, plans)
    const payments = await insertPayments(db, plans, ids)
    for (const [i, plan] of plans.entries()) {
      const payment = payments[i]
      if (payment === undefined) continue
      await postMoney(db, { venueId, plan, booking: ids[i], payment, people, wallet, time })
    }
  }
  return written
}

interface Plan {
  resource: Resource & { tenant?: number }
  date: string
  start: string
  end: string
  total: number
  online: boolean
  method: 'cash' | 'wallet' | 'gateway_1' | 'gateway_2' | 'gateway_3'
  status: 'completed' | 'cancelled' | 'no_show'
  customer: { name: string; phone: string | null }
  userId: number | null
  createdBy: number
  type: 'online' | 'offline' | 'walkin'
  createdAt: Date
  cancelledAt: Date | null
  /** When the money came in; null when none did (a desk booking cancelled or not turned up). */
  paidAt: Date | null
  /** Part of a desk cash payment handed back that evening (paisa), and when. */
  cashBack: { amount: number; at: Date } | null
  staff: number
}

/** One day's bookings on every resource: which slots, who, how they paid and how it ended. */
function planDay(
  rng: ReturnType<typeof generator>,
  resources: (Resource & { tenant?: number })[],
  date: string,
  endedBy: number,
  ctx: { zone: Zone; people: HistoryPeople; desk: number[] },
): Plan[] {
  const weekday = dayOfWeek(date)
  const busy = weekday === 5 || weekday === 6
  const today = endedBy < 24 * 60
  const plans: Plan[] = []
  for (const r of resources) {
    const [open, close] = r.hours(weekday)
    const wanted = rng.int(r.perDay[0], r.perDay[1]) + (busy ? 2 : 0)
    const taken = new Set<number>()
    for (let i = 0; i < wanted * 3 && taken.size < wanted; i++) {
      const start = preferredStart(rng, open, close, r.slot)
      const length = r.kind === 'court' && rng.chance(0.2) ? 2 * r.slot : r.slot
      if (start + length > close || start + length > endedBy) continue
      let free = true
      for (let m = start; m < start + length; m += r.slot) if (taken.has(m)) free = false
      if (!free) continue
      for (let m = start; m < start + length; m += r.slot) taken.add(m)
      const total = toPaisa((r.price(weekday, start) * length) / 60)
      const online = rng.chance(0.3)
      // No-shows are the desk's walk-in and phone customers': the demo login's own history stays clean,
      // so a newcomer signed in as the demo customer is not refused by the venue's no-show limit.
      const cancels = rng.chance(0.07)
      const status = today ? 'completed' : cancels ? 'cancelled' : rng.chance(0.07) && !online ? 'no_show' : 'completed'
      const method = online
        ? rng.pick(['wallet', 'wallet', 'gateway_1', 'gateway_2', 'gateway_3'] as const)
        : rng.chance(0.85)
          ? 'cash'
          : rng.pick(['gateway_1', 'gateway_2'] as const)
      const staff = rng.chance(0.75) ? ctx.desk[0] : rng.pick(ctx.desk)
      const startsAt = ctx.zone.instant(date, fromMinutes(start))
      const createdAt = new Date(startsAt.getTime() - (online ? rng.int(2, 72) * 3_600_000 : rng.int(10, 240) * 60_000))
      const cancelledAt = status === 'cancelled' ? new Date(startsAt.getTime() - rng.int(1, 2) * 3_600_000) : null
      const deskPaid = !online && status === 'completed'
      const paidAt = online ? createdAt : deskPaid ? new Date(startsAt.getTime() - rng.int(0, 15) * 60_000) : null
      const cashBack =
        deskPaid && method === 'cash' && !today && rng.chance(0.05)
          ? {
              amount: Math.round(total / 200) * 100, // about half, whole rupees
              at: ctx.zone.instant(date, fromMinutes(Math.min(start + length + 5, 23 * 60 + 50))),
            }
          : null
      plans.push({
        resource: r,
        date,
        start: fromMinutes(start),
        end: fromMinutes(start + length),
        total,
        online,
        method,
        status,
        customer: online
          ? { name: ctx.people.customerName, phone: ctx.people.customerPhone }
          : rng.pick(DESK_CUSTOMERS),
        userId: online ? ctx.people.customerId : null,
        createdBy: online ? ctx.people.customerId : staff,
        type: online ? 'online' : rng.chance(0.5) ? 'walkin' : 'offline',
        createdAt,
        cancelledAt,
        paidAt,
        cashBack,
        staff,
      })
    }
  }
  return plans
}

/** What the booking holds in the end (paid_amount is net of refunds), and what went back. */
function paidOf(p: Plan): { paid: number; refunded: number } {
  if (p.paidAt === null) return { paid: 0, refunded: 0 }
  if (p.status === 'cancelled') return { paid: 0, refunded: p.total }
  const refunded = p.cashBack?.amount ?? 0
  return { paid: p.total - refunded, refunded }
}

/** One day's bookings in one statement per table; their ids and numbers in the plans' order. */
async function insertBookings(db: Executor, venueId: number, plans: Plan[]) {
  const common = (p: Plan) => ({
    venue_id: venueId,
    user_id: p.userId,
    created_by: p.createdBy,
    customer_name: p.customer.name,
    customer_phone: p.customer.phone,
    date: p.date,
    start_time: toTimeWithSeconds(p.start),
    end_time: toTimeWithSeconds(p.end),
    base_amount: p.total,
    total_amount: p.total,
    paid_amount: paidOf(p).paid,
    refunded_amount: paidOf(p).refunded,
    type: p.type,
    payment_method: p.method,
    status: p.status,
    created_at: p.createdAt,
    updated_at: p.createdAt,
    cancelled_at: p.cancelledAt,
    cancel_reason: p.cancelledAt ? 'Pitch closed for maintenance' : null,
  })
  const year = Number(plans[0].date.slice(0, 4))
  const courts = plans.filter((p) => p.resource.kind === 'court')
  const games = plans.filter((p) => p.resource.kind === 'indoor')
  const key = (resource: number, start: string) => `${resource}@${start}`
  const found = new Map<string, { id: number; booking_number: string }>()
  if (courts.length) {
    const rows = await db
      .insertInto('bookings')
      .values(
        courts.map((p) => ({
          ...common(p),
          court_id: p.resource.id,
          booking_number: allocatedNumber('BK', year, p.resource.id),
        })),
      )
      .returning(['id', 'booking_number', 'court_id as resource', 'start_time'])
      .execute()
    for (const r of rows) found.set(`c${key(r.resource, r.start_time)}`, r)
  }
  if (games.length) {
    const rows = await db
      .insertInto('indoor_game_bookings')
      .values(
        games.map((p) => ({
          ...common(p),
          indoor_game_id: p.resource.id,
          tenant_id: p.resource.tenant!,
          players_count: 2,
          booking_number: allocatedNumber('IG', year, p.resource.id),
        })),
      )
      .returning(['id', 'booking_number', 'indoor_game_id as resource', 'start_time'])
      .execute()
    for (const r of rows) found.set(`i${key(r.resource, r.start_time)}`, r)
  }
  return plans.map((p) => {
    const k = `${p.resource.kind === 'court' ? 'c' : 'i'}${key(p.resource.id, toTimeWithSeconds(p.start))}`
    const row = found.get(k)
    if (!row) throw new Error(`seed history: booking ${k} was not written`)
    return row
  })
}

/** The payment of every plan that was paid, in one statement; undefined where nothing was paid. */
async function insertPayments(db: Executor, plans: Plan[], bookings: { id: number }[]) {
  const paid = plans.flatMap((p, i) => (p.paidAt ? [{ p, booking: bookings[i] }] : []))
  if (paid.length === 0) return plans.map(() => undefined)
  const rows = await db
    .insertInto('payments')
    .values(
      paid.map(({ p, booking }) => {
        const refunded = paidOf(p).refunded
        return {
          user_id: p.userId,
          payable_type: p.resource.kind,
          payable_id: booking.id,
          method: p.method,
          amount: p.total,
          refunded_amount: refunded,
          status: refunded === 0 ? 'completed' : refunded >= p.total ? 'refunded' : 'partially_refunded',
          reference: `CSDEMO${p.resource.kind === 'court' ? 'C' : 'I'}${booking.id}`,
          gateway_transaction_id: p.method === 'wallet' || p.method === 'cash' ? null : `DEMO-${booking.id}`,
          recorded_by: p.online ? null : p.staff,
          completed_at: p.paidAt,
          created_at: p.paidAt!,
          updated_at: p.paidAt!,
        }
      }),
    )
    .returning(['id', 'payable_type', 'payable_id'])
    .execute()
  const byBooking = new Map(rows.map((r) => [`${r.payable_type}:${r.payable_id}`, r.id]))
  return plans.map((p, i) => byBooking.get(`${p.resource.kind}:${bookings[i].id}`))
}

/** The ledger entries of one paid booking, as the payment, cancellation and refund services post them. */
async function postMoney(
  db: Executor,
  m: {
    venueId: number
    plan: Plan
    booking: { id: number; booking_number: string }
    payment: number
    people: HistoryPeople
    wallet: { balance: number }
    time: { commissionBasisPoints: number }
  },
) {
  const { venueId, plan: p, payment } = m
  const target = { kind: p.resource.kind, id: m.booking.id }
  const paidAt = p.paidAt!
  const refType = p.resource.kind === 'court' ? 'booking' : 'indoor'
  if (!p.online) {
    await post(db, {
      kind: 'desk_payment',
      occurredAt: paidAt,
      description: `Payment for booking ${m.booking.booking_number} taken at the desk`,
      paymentId: payment,
      booking: target,
      venueId,
      createdBy: p.staff,
      lines: transfer(account.venueDesk(venueId), account.venueDeskSales(venueId), p.total),
    })
    if (p.cashBack)
      await refundAtDesk(db, { venueId, target, payment, ...p.cashBack, staff: p.staff, reason: 'Floodlights failed' })
    return
  }
  const customer = m.people.customerId
  if (p.method === 'wallet') {
    if (m.wallet.balance - p.total < WALLET_FLOOR) {
      const topup = toPaisa(15_000)
      await creditWallet(
        db,
        customer,
        topup,
        { referenceType: null, referenceId: null, description: 'Wallet top-up' },
        {
          kind: 'topup',
          occurredAt: new Date(paidAt.getTime() - 600_000),
          contra: account.gatewayClearing('gateway_1'),
        },
        'topup',
      )
      m.wallet.balance += topup
    }
    await debitWallet(
      db,
      customer,
      p.total,
      {
        referenceType: refType,
        referenceId: m.booking.id,
        description: `Payment for booking ${m.booking.booking_number}`,
        paymentId: payment,
      },
      { kind: 'wallet_payment', occurredAt: paidAt, contra: account.venueBalance(venueId), venueId, booking: target },
    )
    m.wallet.balance -= p.total
  } else {
    await post(db, {
      kind: 'gateway_payment',
      occurredAt: paidAt,
      description: `Payment for booking ${m.booking.booking_number}`,
      paymentId: payment,
      booking: target,
      venueId,
      userId: customer,
      lines: transfer(account.gatewayClearing(p.method), account.venueBalance(venueId), p.total),
    })
  }
  const commission = { paymentId: payment, venueId, booking: target, occurredAt: paidAt }
  if (m.time.commissionBasisPoints > 0) {
    await takeCommission(db, commission, p.total, 'online', m.time.commissionBasisPoints)
  }
  if (p.status === 'cancelled') {
    // The venue cancelled it: the money goes back to the wallet, with the commission on it.
    const at = p.cancelledAt!
    await creditWallet(
      db,
      customer,
      p.total,
      {
        referenceType: refType,
        referenceId: m.booking.id,
        description: `Refund for cancelled booking ${m.booking.booking_number}`,
        paymentId: payment,
      },
      { kind: 'refund_to_wallet', occurredAt: at, contra: account.venueBalance(venueId), venueId, booking: target },
    )
    m.wallet.balance += p.total
    await returnCommission(db, { ...commission, occurredAt: at }, { amount: p.total, refundedBefore: 0, take: p.total })
  }
}

/** Desk money refunded: due at the desk (`desk_refund`), then handed back the same evening (`cash_back`). */
async function refundAtDesk(
  db: Executor,
  r: {
    venueId: number
    target: { kind: 'court' | 'indoor'; id: number }
    payment: number
    amount: number
    at: Date
    staff: number
    reason: string
  },
) {
  const cashBack = await db
    .insertInto('cash_backs')
    .values({
      venue_id: r.venueId,
      booking_type: r.target.kind,
      booking_id: r.target.id,
      payment_id: r.payment,
      user_id: null,
      amount: r.amount,
      reason: r.reason,
      created_at: r.at,
      status: 'paid',
      paid_at: new Date(r.at.getTime() + 300_000),
      paid_by: r.staff,
      cancelled_by: r.staff,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await post(db, {
    kind: 'desk_refund',
    occurredAt: r.at,
    description: `${r.reason} (cash-back ${cashBack.id} due at the desk)`,
    paymentId: r.payment,
    booking: r.target,
    venueId: r.venueId,
    lines: transfer(account.venueDeskSales(r.venueId), account.cashBackDue(r.venueId), r.amount),
  })
  await post(db, {
    kind: 'cash_back',
    occurredAt: new Date(r.at.getTime() + 300_000),
    description: `Cash-back ${cashBack.id} paid at the desk`,
    paymentId: r.payment,
    booking: r.target,
    venueId: r.venueId,
    createdBy: r.staff,
    lines: transfer(account.cashBackDue(r.venueId), account.venueDesk(r.venueId), r.amount),
  })
}
