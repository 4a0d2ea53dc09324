import type { Static } from 'typebox'
import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import { Invalid, NotFound } from '../../../lib/errors.ts'
import { pathId } from '../../../lib/ids.ts'
import { toPaisa } from '../../../lib/money.ts'
import { isValidDate, toHHmm, toMinutes, toTimeWithSeconds } from '../../../lib/time.ts'
import type { Zone } from '../../../lib/zone.ts'
import { DESK_ROLES, MANAGER_ROLES } from '../../venues/index.ts'
import {
  blockRows,
  deleteBlockRow,
  deletePricingRuleRow,
  findPricingRule,
  insertPricingRule,
  pricingRows,
  replaceSchedule,
  scheduleRows,
  updatePricingRuleRow,
} from '../repository/timetable.ts'
import { type PricingRule, pricingRule, type ScheduleEntry, scheduleEntry } from '../resource.ts'
import type { BlockBody, PricingBody, PricingUpdateBody, ScheduleBody } from '../schemas.ts'
import { addBlockOverBookings } from './blocks.ts'
import { courtForStaff, courtForViewer } from './courts.ts'

// A court's weekly schedule, pricing rules and maintenance blocks. Times are venue-local; a range
// must end after it starts on the same day (overnight ranges are refused at input).

const seconds = (t: string) => toMinutes(t) * 60 + Number(t.slice(6, 8) || 0)

function checkRange(start: string, end: string, field: string, message: string) {
  const s = toTimeWithSeconds(start)
  const e = toTimeWithSeconds(end)
  if (seconds(e) <= seconds(s)) throw new Invalid(field, message)
  return { start: s, end: e }
}

// --- Schedule ------------------------------------------------------------------------------

export async function getSchedule(ctx: AppContext, user: AuthUser | null, key: string): Promise<ScheduleEntry[]> {
  const court = await courtForViewer(ctx, user, key)
  const rows = await scheduleRows(ctx.db, court.id)
  return rows.map(scheduleEntry)
}

/** Replaces the weekly schedule; a day with no entry uses the venue's opening hours. */
export async function putSchedule(
  ctx: AppContext,
  user: AuthUser,
  key: string,
  body: Static<typeof ScheduleBody>,
): Promise<ScheduleEntry[]> {
  const court = await courtForStaff(ctx, user, key, MANAGER_ROLES)
  const seen = new Set<number>()
  const values = body.schedules.map((s, i) => {
    if (seen.has(s.day_of_week)) {
      throw new Invalid(`schedules.${i}.day_of_week`, 'The schedules day of week field has a duplicate value.')
    }
    seen.add(s.day_of_week)
    const isClosed = s.is_closed ?? false
    const open = s.open_time ?? court.venue.opening_time
    const close = s.close_time ?? court.venue.closing_time
    // Closed days keep hours too (shown in the schedule), so they follow the same rule.
    const range = checkRange(open, close, `schedules.${i}.close_time`, 'The close time must be a time after open time.')
    return {
      court_id: court.id,
      day_of_week: s.day_of_week,
      open_time: range.start,
      close_time: range.end,
      is_closed: isClosed,
    }
  })
  await ctx.db.transaction().execute(async (trx) => {
    await replaceSchedule(trx, court.id, values)
  })
  return getSchedule(ctx, user, key)
}

// --- Pricing rules -------------------------------------------------------------------------

export async function listPricing(ctx: AppContext, user: AuthUser | null, key: string): Promise<PricingRule[]> {
  const court = await courtForViewer(ctx, user, key)
  const rows = await pricingRows(ctx.db, court.id)
  return rows.map(pricingRule)
}

export async function addPricingRule(
  ctx: AppContext,
  user: AuthUser,
  key: string,
  body: Static<typeof PricingBody>,
): Promise<PricingRule> {
  const court = await courtForStaff(ctx, user, key, MANAGER_ROLES)
  const range = checkRange(body.start_time, body.end_time, 'end_time', 'The end time must be a time after start time.')
  const row = await insertPricingRule(ctx.db, {
    court_id: court.id,
    type: body.type,
    day_of_week: body.day_of_week ?? null,
    start_time: range.start,
    end_time: range.end,
    price_per_hour: toPaisa(body.price_per_hour),
    is_active: body.is_active ?? true,
  })
  return pricingRule(row)
}

export async function updatePricingRule(
  ctx: AppContext,
  user: AuthUser,
  key: string,
  ruleKey: string,
  body: Static<typeof PricingUpdateBody>,
): Promise<PricingRule> {
  const court = await courtForStaff(ctx, user, key, MANAGER_ROLES)
  const rule = await findPricingRule(ctx.db, court.id, pathId(ruleKey))
  if (!rule) throw new NotFound()
  const range = checkRange(
    body.start_time ?? rule.start_time,
    body.end_time ?? rule.end_time,
    'end_time',
    'The end time must be a time after start time.',
  )
  const row = await updatePricingRuleRow(ctx.db, rule.id, {
    ...(body.type !== undefined && { type: body.type }),
    ...(body.day_of_week !== undefined && { day_of_week: body.day_of_week }),
    start_time: range.start,
    end_time: range.end,
    ...(body.price_per_hour !== undefined && { price_per_hour: toPaisa(body.price_per_hour) }),
    ...(body.is_active !== undefined && { is_active: body.is_active }),
  })
  return pricingRule(row)
}

export async function deletePricingRule(ctx: AppContext, user: AuthUser, key: string, ruleKey: string) {
  const court = await courtForStaff(ctx, user, key, MANAGER_ROLES)
  if (!(await deletePricingRuleRow(ctx.db, court.id, pathId(ruleKey)))) throw new NotFound()
}

// --- Maintenance blocks --------------------------------------------------------------------

function block(
  b: {
    id: number
    court_id: number
    date: string
    start_time: string
    end_time: string
    reason: string | null
    created_at: Date
  },
  zone: Zone,
) {
  return {
    id: b.id,
    court_id: b.court_id,
    date: b.date,
    start_time: toHHmm(b.start_time),
    end_time: toHHmm(b.end_time),
    reason: b.reason,
    created_at: zone.format(b.created_at)!,
  }
}

/** Blocks on the given date, or every block from today on. */
export async function listBlocks(ctx: AppContext, user: AuthUser, key: string, date?: string) {
  const court = await courtForStaff(ctx, user, key, DESK_ROLES)
  if (date !== undefined && !isValidDate(date)) throw new Invalid('date', 'The date field must be a valid date.')
  const rows = await blockRows(ctx.db, court.id, date ? { date } : { from: ctx.zone.today(ctx.clock.now()) })
  return rows.map((row) => block(row, ctx.zone))
}

/** A new block, refused (409) over live bookings unless cancel_bookings cancels them (service/blocks.ts). */
export async function addBlock(ctx: AppContext, user: AuthUser, key: string, body: Static<typeof BlockBody>) {
  const { row, cancelled } = await addBlockOverBookings(ctx, user, key, body)
  return { block: block(row, ctx.zone), cancelled }
}

export async function deleteBlock(ctx: AppContext, user: AuthUser, key: string, blockKey: string) {
  const court = await courtForStaff(ctx, user, key, DESK_ROLES)
  if (!(await deleteBlockRow(ctx.db, court.id, pathId(blockKey)))) throw new NotFound()
}
