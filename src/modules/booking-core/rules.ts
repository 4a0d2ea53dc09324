import { cacheTags } from '../../lib/cache-tags.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { NotFound, Unprocessable } from '../../lib/errors.ts'
import { addDays, toMinutes } from '../../lib/time.ts'
import {
  customerStanding,
  insertNoShowClearance,
  noShowStrikes,
  userExists,
  type VenueRules,
  venueRules,
} from './repository/rules.ts'

// A venue's booking rules for customers (docs/bookings.md, "Booking rules" and "No-shows"), court
// and indoor alike, each week of a series included. Staff booking at the desk are exempt: callers
// run these only for a customer's own booking. Each refusal is a 422 whose message says which rule
// and why, under errors.<the rule's setting> (the first: under the payment method's field):
// - allows_pay_at_venue: false refuses paying at the venue (cash); the customer pays online;
// - booking_window_days: the date at most today + this many days (venue time);
// - min_notice_minutes: the start at least this many minutes from now;
// - max_hours_per_day: the customer's live bookings at the venue on that date (court and indoor),
//   this one included, at most this many hours;
// - no_show_limit: with this many no-shows at the venue in the last NO_SHOW_DAYS days (since staff
//   last cleared them) a customer may book there only by paying online at once: paying at the
//   venue (cash), or any hold longer than the online payment window (a series' later weeks), is refused.

/** How far back no-shows count as strikes. */
export const NO_SHOW_DAYS = 90

/** The first date whose no-shows count, for a customer booking at `now`. */
export function strikesSince(ctx: AppContext, now: Date): string {
  return addDays(ctx.zone.today(now), -NO_SHOW_DAYS)
}

export interface RuleCheck {
  venueId: number
  userId: number
  date: string
  /** HH:mm or HH:mm:ss, venue-local. */
  start: string
  end: string
  now: Date
  /** How the customer means to pay: a payment method, or null (online, chosen later). */
  method: string | null
  /** When the new booking's hold would end (null: not held). */
  holdUntil: Date | null
}

/** The refusal of paying at a venue that does not take it (allows_pay_at_venue false). */
export const PAY_AT_VENUE_OFF =
  'This venue does not take payment at the venue: pay online (eSewa, Khalti, Fonepay or your wallet).'

function refuse(rule: string, message: string): never {
  throw new Unprocessable(message, { [rule]: [message] })
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** "90 minutes", "2 hours", "1 day". */
function duration(minutes: number): string {
  if (minutes % 1440 === 0) return plural(minutes / 1440, 'day')
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour')
  return plural(minutes, 'minute')
}

function hours(minutes: number): string {
  const h = minutes / 60
  return `${Number.isInteger(h) ? h : h.toFixed(1)} hour${h === 1 ? '' : 's'}`
}

/** Whether a new booking would leave its slot held longer than the online payment window. */
function paysLater(ctx: AppContext, c: RuleCheck): boolean {
  if (c.method === 'cash' || c.holdUntil === null) return true
  const window = Math.max(ctx.config.bookingHoldMinutes, ctx.config.waitlistOfferMinutes) * 60_000
  return c.holdUntil.getTime() > c.now.getTime() + window
}

/** The no-show refusal's words. */
function strikesMessage(noShows: number, limit: number): string {
  return (
    `You have ${plural(noShows, 'no-show')} at this venue in the last ${NO_SHOW_DAYS} days (its limit is ${limit}): ` +
    'you can book here only by paying online at once; paying at the venue is not available.'
  )
}

/**
 * Checks a customer's new booking against the venue's rules; throws the 422 of the first rule it
 * breaks. The venue's settings come through the read cache (tagged with the venue, which every
 * change of them announces) unless `db` is a transaction; the customer's standing there (hours
 * booked that day, no-show strikes) is read, in one query, only when a limit of the venue could
 * refuse this booking: a daily limit, or a no-show limit and a booking paid later.
 */
export async function checkBookingRules(ctx: AppContext, db: Executor, c: RuleCheck): Promise<void> {
  const rules = db === ctx.db ? await cachedVenueRules(ctx, c.venueId) : await venueRules(db, c.venueId)
  if (!rules) return
  const today = ctx.zone.today(c.now)
  if (c.method === 'cash' && !rules.allows_pay_at_venue) refuse('payment_method', PAY_AT_VENUE_OFF)
  const last = addDays(today, rules.booking_window_days)
  if (c.date > last) {
    refuse(
      'booking_window_days',
      `This venue takes bookings at most ${plural(rules.booking_window_days, 'day')} ahead (booking window): ` +
        `the last date you can book is ${last}.`,
    )
  }
  if (rules.min_notice_minutes > 0) {
    const start = ctx.zone.instant(c.date, c.start.slice(0, 5))
    if (start.getTime() - c.now.getTime() < rules.min_notice_minutes * 60_000) {
      refuse(
        'min_notice_minutes',
        `This venue takes bookings at least ${duration(rules.min_notice_minutes)} before the start (minimum notice).`,
      )
    }
  }
  // Strikes refuse only a booking paid later (paysLater): one paid online at once needs no count.
  if (rules.max_hours_per_day === null && (rules.no_show_limit === null || !paysLater(ctx, c))) return
  const s = await customerStanding(db, {
    venueId: c.venueId,
    userId: c.userId,
    date: c.date,
    since: addDays(today, -NO_SHOW_DAYS),
    now: c.now,
    zone: ctx.zone.name,
  })
  if (!s) return
  if (s.max_hours_per_day !== null) {
    const minutes = toMinutes(c.end) - toMinutes(c.start)
    if (s.booked_minutes + minutes > s.max_hours_per_day * 60) {
      refuse(
        'max_hours_per_day',
        `You can book at most ${plural(s.max_hours_per_day, 'hour')} a day at this venue (daily limit): ` +
          `you already have ${hours(s.booked_minutes)} on ${c.date}.`,
      )
    }
  }
  if (s.no_show_limit !== null && s.no_shows >= s.no_show_limit && paysLater(ctx, c)) {
    refuse('no_show_limit', strikesMessage(s.no_shows, s.no_show_limit))
  }
}

/** A venue's booking rules through the read cache, dropped when the venue changes. */
function cachedVenueRules(ctx: AppContext, venueId: number): Promise<VenueRules | undefined> {
  return ctx.cache.through(
    `venue-rules:${venueId}`,
    () => venueRules(ctx.db, venueId),
    (rules) => (rules ? { tags: [cacheTags.venue(venueId)] } : null),
  )
}

/**
 * A customer choosing to pay at the venue (cash) for an existing booking: refused (422) when the
 * venue does not take it (under `field`, the request's payment method field), or, for a pending
 * booking, (errors.no_show_limit) when they have reached the venue's no-show limit.
 */
export async function checkPayAtVenue(
  ctx: AppContext,
  db: Executor,
  b: { venue_id: number; user_id: number | null; status: string },
  field: string,
): Promise<void> {
  if (b.user_id === null) return
  const rules = await venueRules(db, b.venue_id)
  if (!rules) return
  if (!rules.allows_pay_at_venue) refuse(field, PAY_AT_VENUE_OFF)
  if (b.status !== 'pending' || rules.no_show_limit === null) return
  const { no_shows } = await noShowStrikes(db, {
    venueId: b.venue_id,
    userId: b.user_id,
    since: strikesSince(ctx, ctx.clock.now()),
    zone: ctx.zone.name,
  })
  if (no_shows >= rules.no_show_limit) refuse('no_show_limit', strikesMessage(no_shows, rules.no_show_limit))
}

/** A customer's no-show standing at a venue, as staff see it (GET/DELETE …/customers/{user}/no-shows). */
export interface NoShowStanding {
  venue_id: number
  user_id: number
  /** No-shows in the last NO_SHOW_DAYS days since the latest clearing. */
  no_shows: number
  no_show_limit: number | null
  /** Whether the customer may book here only by paying online at once. */
  restricted: boolean
  /** When staff last cleared the strikes (venue time), or null. */
  cleared_at: string | null
}

/** The standing of customer `userId` at venue `venueId` (the caller's access already checked). 404 for an unknown user. */
export async function noShowStanding(ctx: AppContext, db: Executor, venueId: number, userId: number) {
  if (!(await userExists(db, userId))) throw new NotFound()
  const rules = await venueRules(db, venueId)
  const strikes = await noShowStrikes(db, {
    venueId,
    userId,
    since: strikesSince(ctx, ctx.clock.now()),
    zone: ctx.zone.name,
  })
  const limit = rules?.no_show_limit ?? null
  return {
    venue_id: venueId,
    user_id: userId,
    no_shows: strikes.no_shows,
    no_show_limit: limit,
    restricted: limit !== null && strikes.no_shows >= limit,
    cleared_at: ctx.zone.format(strikes.cleared_at),
  } satisfies NoShowStanding
}

/**
 * Staff clear a customer's strikes at a venue: a clearing is recorded (who, when, how many were
 * cleared); the no-show bookings stay as they are, and only no-shows of bookings that start after
 * the clearing count again. Returns the standing after it.
 */
export async function clearNoShows(
  ctx: AppContext,
  venueId: number,
  userId: number,
  clearedBy: number,
): Promise<{ cleared: number; standing: NoShowStanding }> {
  return ctx.db.transaction().execute(async (trx) => {
    const before = await noShowStanding(ctx, trx, venueId, userId)
    await insertNoShowClearance(trx, {
      venue_id: venueId,
      user_id: userId,
      cleared_at: ctx.clock.now(),
      cleared_by: clearedBy,
      no_shows: before.no_shows,
    })
    return { cleared: before.no_shows, standing: await noShowStanding(ctx, trx, venueId, userId) }
  })
}
