import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { bsDate, cell, header, line } from '../../lib/csv.ts'
import type { Executor } from '../../lib/db.ts'
import { Conflict, Invalid } from '../../lib/errors.ts'
import { type Locale, t } from '../../lib/i18n/index.ts'
import { formatMoney, toPaisa } from '../../lib/money.ts'
import { withMethodNames } from '../../lib/payment-methods.ts'
import { addDays } from '../../lib/time.ts'
import { account, accountSum, lockVenueBalance, normalBalance, post, statementBucket } from '../ledger/index.ts'
import { commissionInvoicesOf } from './commission-invoices.ts'
import * as repo from './repository.ts'

// What a venue is owed and how it was paid (docs/payments.md, "What a venue sees"): commission
// rates, payouts recorded against the venue's balance with the platform, and its statement.

/** "10.50" from hundredths of a percent. */
export const percentText = (bp: number) => (bp / 100).toFixed(2)

function assertPercent(field: string, value: number | null | undefined) {
  if (value === null || value === undefined) return
  if (Number(value.toFixed(2)) !== value)
    throw new Invalid(field, `The ${field} field must have at most 2 decimal places.`)
}

export async function setVenueCommission(
  ctx: AppContext,
  venueId: number,
  input: { percent: number | null; desk_percent?: number | null },
) {
  assertPercent('percent', input.percent)
  assertPercent('desk_percent', input.desk_percent)
  const current = await repo.commissionOf(ctx.db, venueId)
  const desk =
    input.desk_percent === undefined
      ? current.desk_commission_percent === null
        ? null
        : Number(current.desk_commission_percent)
      : input.desk_percent
  const row = await repo.setCommission(ctx.db, venueId, input.percent, desk)
  return commissionResource(ctx, row)
}

export async function venueCommission(ctx: AppContext, venueId: number) {
  return commissionResource(ctx, await repo.commissionOf(ctx.db, venueId))
}

function commissionResource(
  ctx: AppContext,
  row: { id: number; commission_percent: string | null; desk_commission_percent: string | null },
) {
  const platform = percentText(ctx.config.platformCommissionBasisPoints)
  const own = row.commission_percent === null ? null : Number(row.commission_percent).toFixed(2)
  return {
    venue_id: row.id,
    percent: own,
    desk_percent: row.desk_commission_percent === null ? null : Number(row.desk_commission_percent).toFixed(2),
    effective_percent: own ?? platform,
    platform_default_percent: platform,
  }
}

/** The venue's balance with the platform (what it is owed), paisa. */
export async function venueBalance(db: Executor, venueId: number): Promise<number> {
  const code = account.venueBalance(venueId)
  return normalBalance(code, await accountSum(db, code))
}

/**
 * Records a payout (money sent to the venue outside the service): at most the venue's balance,
 * checked under the venue's balance lock so two payouts cannot both spend it. The ledger moves the
 * amount from the venue's balance to `platform:payouts`.
 */
export async function recordPayout(
  ctx: AppContext,
  admin: AuthUser,
  venueId: number,
  input: { amount: number | string; reference: string; paid_on: string },
) {
  const amount = toPaisa(input.amount)
  if (amount <= 0) throw new Invalid('amount', 'The amount field must be at least 0.01.')
  const reference = input.reference.trim()
  if (!reference) throw new Invalid('reference', 'The reference field is required.')
  if (input.paid_on > ctx.zone.today(ctx.clock.now())) {
    throw new Invalid('paid_on', 'The paid on field must be a date before or equal to today.')
  }
  return ctx.db
    .transaction()
    .execute(async (trx) => {
      await lockVenueBalance(trx, venueId)
      const earlier = await repo.payoutWithReference(trx, venueId, reference)
      if (earlier) throw new Conflict(payoutRecordedTwice(earlier.reference))
      const { balance, reserve, available } = await venueAvailable(ctx, trx, venueId)
      if (amount > available) {
        throw new Invalid(
          'amount',
          reserve > 0
            ? `The amount must not be greater than the ${formatMoney(Math.max(available, 0))} available: the venue's balance of ${formatMoney(balance)} less ${formatMoney(reserve)} still refundable for upcoming bookings.`
            : `The amount must not be greater than the venue's balance of ${formatMoney(balance)}.`,
        )
      }
      const payout = await repo.insertPayout(trx, {
        venueId,
        amount,
        reference,
        paidOn: input.paid_on,
        createdBy: admin.id,
      })
      await post(trx, {
        kind: 'payout',
        occurredAt: ctx.clock.now(),
        description: `Payout ${payout.id}: ${reference} (paid on ${input.paid_on})`,
        venueId,
        createdBy: admin.id,
        lines: [
          [account.venueBalance(venueId), amount],
          [account.payouts(), -amount],
        ],
      })
      return payout
    })
    .catch((err: unknown) => {
      // Two payouts with one reference at once: the unique index refuses the second.
      if ((err as { code?: string })?.code === '23505') throw new Conflict(payoutRecordedTwice(reference))
      throw err
    })
}

const payoutRecordedTwice = (reference: string) =>
  `A payout with reference ${reference} is already recorded for this venue.`

/**
 * What may be paid out to a venue now: its balance with the platform less the reserve (online money
 * of upcoming bookings that may still be refunded to customers, which refunds would take back).
 */
async function venueAvailable(ctx: AppContext, db: Executor, venueId: number) {
  const balance = await venueBalance(db, venueId)
  const reserve = (await repo.refundableReserve(db, venueNow(ctx), venueId)).get(venueId) ?? 0
  return { balance, reserve, available: balance - reserve }
}

function venueNow(ctx: AppContext) {
  const { date, time } = ctx.zone.wallClock(ctx.clock.now())
  return { today: date, time }
}

export function payoutResource(ctx: AppContext, p: repo.PayoutRow) {
  return {
    id: p.id,
    venue_id: p.venue_id,
    amount: formatMoney(p.amount),
    reference: p.reference,
    paid_on: typeof p.paid_on === 'string' ? p.paid_on.slice(0, 10) : ctx.zone.today(new Date(p.paid_on)),
    created_by: p.created_by,
    created_at: ctx.zone.format(p.created_at),
  }
}

/** The most days one statement covers. */
export const STATEMENT_MAX_DAYS = 366

/**
 * A venue's statement for venue-local days [from, to]: the opening balance at the start of `from`,
 * each line on its balance with the platform with the balance after it, the totals by kind, and the
 * closing balance (= opening + online_gross − refunds − commission − payouts = the ledger's balance
 * at the end of `to`). Desk money, the venue's own, is summed beside it.
 */
export async function statement(
  ctx: AppContext,
  venue: { id: number; name: string; slug: string },
  from: string,
  to: string,
) {
  if (to < from) throw new Invalid('to', 'The to field must be a date after or equal to from.')
  if (addDays(from, STATEMENT_MAX_DAYS - 1) < to) {
    throw new Invalid('to', `A statement covers at most ${STATEMENT_MAX_DAYS} days.`)
  }
  const start = ctx.zone.instant(from, '00:00')
  const end = ctx.zone.instant(addDays(to, 1), '00:00')
  const code = account.venueBalance(venue.id)
  const [opening, rows, desk] = await Promise.all([
    repo.creditBalanceBefore(ctx.db, code, start),
    repo.accountLines(ctx.db, code, start, end),
    repo.accountLines(ctx.db, account.venueDeskSales(venue.id), start, end),
  ])
  const totals = { online_gross: 0, refunds: 0, commission: 0, payouts: 0 }
  let balance = opening
  const lines = rows.map((r) => {
    balance += r.amount
    const bucket = statementBucket(r.kind)
    totals[bucket] += bucket === 'online_gross' ? r.amount : -r.amount
    return {
      date: ctx.zone.today(r.occurred_at),
      booking_number: r.booking_number,
      kind: r.kind,
      // Descriptions name gateways by code ("through gateway_1"); owners read eSewa, Khalti, Fonepay.
      description: withMethodNames(r.description),
      amount: formatMoney(r.amount),
      balance_after: formatMoney(balance),
    }
  })
  let deskGross = 0
  let deskRefunds = 0
  for (const d of desk) {
    if (d.amount >= 0) deskGross += d.amount
    else deskRefunds -= d.amount
  }
  return {
    venue: { id: venue.id, name: venue.name, slug: venue.slug },
    from,
    to,
    currency: 'NPR' as const,
    opening_balance: formatMoney(opening),
    online_gross: formatMoney(totals.online_gross),
    refunds: formatMoney(totals.refunds),
    commission: formatMoney(totals.commission),
    payouts: formatMoney(totals.payouts),
    closing_balance: formatMoney(balance),
    desk_gross: formatMoney(deskGross),
    desk_refunds: formatMoney(deskRefunds),
    lines,
    commission_invoices: await commissionInvoicesOf(ctx, venue.id, { from, to }),
  }
}

export const STATEMENT_COLUMNS = [
  'date',
  'date_bs',
  'booking_number',
  'kind',
  'description',
  'amount',
  'balance_after',
] as const

/**
 * One CSV row per statement line, after a header row and an opening-balance row (the balance at
 * the start of `from`: its amount is empty, its balance_after the opening balance), through
 * src/lib/csv.ts (BOM, BS dates, formula escaping of descriptions). A Nepali reader's header row and
 * opening-balance words are Nepali; the ledger's descriptions stay as they were written.
 */
export function statementCsv(s: Awaited<ReturnType<typeof statement>>, locale: Locale = 'en'): string {
  let out = header(STATEMENT_COLUMNS, locale)
  const opening = locale === 'en' ? 'Opening balance' : t(locale, 'csv.opening_balance')
  out += line([s.from, bsDate(s.from), '', 'opening_balance', opening, '', s.opening_balance])
  for (const l of s.lines) {
    out += line([
      l.date,
      bsDate(l.date),
      cell(l.booking_number),
      l.kind,
      cell(l.description, true),
      l.amount,
      l.balance_after,
    ])
  }
  return out
}

/**
 * Venues with a balance with the platform: those owed money (largest first), each with its reserve
 * and what is available to pay out now, then those that owe the platform (refunds after a payout;
 * `owing`), which their next online money settles.
 */
export async function dueVenues(ctx: AppContext) {
  const [venues, reserves] = await Promise.all([
    repo.venuesWithBalance(ctx.db),
    repo.refundableReserve(ctx.db, venueNow(ctx)),
  ])
  return venues.map((v) => {
    const reserve = v.balance > 0 ? Math.min(reserves.get(v.id) ?? 0, v.balance) : 0
    return {
      venue: { id: v.id, name: v.name, slug: v.slug },
      balance: formatMoney(v.balance),
      reserve: formatMoney(reserve),
      available: formatMoney(Math.max(v.balance - reserve, 0)),
      owing: v.balance < 0,
      payout_account: v.payout_account,
    }
  })
}

/** Payout details: a bank needs its name and the account number; eSewa and Khalti a merchant id. */
export function checkPayoutAccount(a: {
  type: 'bank' | 'esewa' | 'khalti'
  bank_name?: string | null
  account_number?: string | null
  merchant_id?: string | null
}) {
  if (a.type === 'bank') {
    if (!a.bank_name?.trim()) throw new Invalid('bank_name', 'The bank name field is required for a bank account.')
    if (!a.account_number?.trim()) {
      throw new Invalid('account_number', 'The account number field is required for a bank account.')
    }
  } else if (!a.merchant_id?.trim()) {
    throw new Invalid(
      'merchant_id',
      `The merchant id field is required for ${a.type === 'esewa' ? 'eSewa' : 'Khalti'}.`,
    )
  }
}
