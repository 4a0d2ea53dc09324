import { createHash } from 'node:crypto'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { addDays } from '../../lib/time.ts'
import { DESK_ROLES, MANAGER_ROLES, venueForStaff } from '../venues/index.ts'
import { type CalendarEvent, type EventStatus, renderCalendar } from './ical.ts'
import { type FeedRow, feedRows } from './queries.ts'
import { ensureFeedSecret, type FeedOwner, feedBySecret, rotateFeedSecret } from './repository.ts'

// Calendar feeds (docs/calendar.md): a secret .ics URL per user (their court and indoor bookings)
// and per venue and staff member (all the venue's bookings; it dies with the membership), from 30
// days back and every future booking.

/** Days of past bookings a feed keeps. */
export const FEED_PAST_DAYS = 30

/** 32 random bytes in base64url (repository.ts newSecret). */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/

const feedUrl = (ctx: AppContext, secret: string) => `${ctx.config.appUrl}/api/calendar/${secret}.ics`

export async function myFeedUrl(ctx: AppContext, user: AuthUser): Promise<string> {
  return feedUrl(ctx, await ensureFeedSecret(ctx.db, { userId: user.id }))
}

export async function rotateMyFeed(ctx: AppContext, user: AuthUser): Promise<string> {
  return feedUrl(ctx, await rotateFeedSecret(ctx.db, { userId: user.id }, ctx.clock.now()))
}

export async function venueFeedUrl(ctx: AppContext, user: AuthUser, venueKey: string): Promise<string> {
  const venue = await venueForStaff(ctx, user, venueKey, DESK_ROLES)
  return feedUrl(ctx, await ensureFeedSecret(ctx.db, { venueId: venue.id, memberId: user.id }))
}

export async function rotateVenueFeed(ctx: AppContext, user: AuthUser, venueKey: string): Promise<string> {
  const venue = await venueForStaff(ctx, user, venueKey, MANAGER_ROLES)
  return feedUrl(ctx, await rotateFeedSecret(ctx.db, { venueId: venue.id, memberId: user.id }, ctx.clock.now()))
}

const STATUS: Record<string, EventStatus> = { pending: 'TENTATIVE', cancelled: 'CANCELLED' }

function toEvent(row: FeedRow, host: string, forVenue: boolean): CalendarEvent {
  const kind = row.kind === 'court' ? 'Court' : 'Indoor game'
  const lines = [`${kind} booking ${row.booking_number}`, `Status: ${row.status.replace('_', ' ')}`]
  if (forVenue) lines.push(`Customer: ${row.customer_name}`)
  if (row.notes) lines.push(`Notes: ${row.notes}`)
  return {
    uid: `${row.kind}-booking-${row.id}@${host}`,
    date: row.date,
    startTime: row.start_time,
    endTime: row.end_time,
    summary: `${row.resource_name} at ${row.venue_name}`,
    location: [row.resource_name, row.venue_name, row.venue_address, row.venue_city].filter(Boolean).join(', '),
    description: lines.join('\n'),
    status: STATUS[row.status] ?? 'CONFIRMED',
    sequence: row.calendar_sequence,
    created: new Date(row.created_at),
    lastModified: new Date(row.updated_at),
  }
}

export interface RenderedFeed {
  body: string
  etag: string
}

/** The feed a secret names, rendered; null for an unknown (or rotated) secret. */
export async function renderFeed(ctx: AppContext, secret: string): Promise<RenderedFeed | null> {
  // Only our own shape is looked up: anything else (a NUL byte, a megabyte of text) names no feed.
  if (!SECRET_SHAPE.test(secret)) return null
  const feed = await feedBySecret(ctx.db, secret)
  if (!feed) return null
  let owner: FeedOwner
  let name: string
  if (feed.venue_id !== null) {
    // A venue's feed belongs to its member's place at the desk and dies with it (removed from the
    // staff, no longer the owner, suspended).
    if (feed.venue_name === null || feed.member_id === null) return null
    if (feed.member_active !== true || feed.member_holds !== true) return null
    owner = { venueId: feed.venue_id, memberId: feed.member_id }
    name = `${feed.venue_name} bookings`
  } else {
    if (feed.user_id === null || feed.user_active !== true) return null
    owner = { userId: feed.user_id }
    name = 'Courtside bookings'
  }
  const now = ctx.clock.now()
  const rows = await feedRows(ctx.db, owner, addDays(ctx.zone.today(now), -FEED_PAST_DAYS))
  const host = new URL(ctx.config.appUrl).hostname
  const body = renderCalendar({
    name,
    zone: ctx.zone,
    now,
    events: rows.map((r) => toEvent(r, host, 'venueId' in owner)),
  })
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`
  return { body, etag }
}

/** Whether an If-None-Match header names `etag` (a list, weak tags, or *). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((tag) => {
    const t = tag.trim()
    return t === '*' || t === etag || t === `W/${etag}`
  })
}
