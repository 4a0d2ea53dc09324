import type { App } from '../../src/app.ts'
import { createCourt, createUser, createVenue, daysAfter, type TestUser } from '../helpers/factories.ts'

// Shared fixtures of the review tests: direct inserts, independent of the routes under test.

let seq = 0

/**
 * A booking row inserted directly (completed, so it never conflicts with another slot), `daysAgo`
 * days before the app's own today (its clock: a ManualClock or the system's).
 */
export async function insertBooking(
  app: App,
  userId: number,
  venueId: number,
  opts: { daysAgo?: number; status?: 'completed' | 'cancelled' | 'confirmed'; hour?: number } = {},
) {
  const court = await createCourt(app, venueId)
  const hour = opts.hour ?? 10
  return app.ctx.db
    .insertInto('bookings')
    .values({
      // Date.now() only makes the number unique across runs; it is not the booking's date.
      booking_number: `RV-${process.pid}-${++seq}-${Date.now()}`,
      user_id: userId,
      court_id: court.id,
      venue_id: venueId,
      status: opts.status ?? 'completed',
      date: daysAfter(app.ctx.clock.now(), -(opts.daysAgo ?? 1)),
      start_time: `${String(hour).padStart(2, '0')}:00:00`,
      end_time: `${String(hour + 1).padStart(2, '0')}:00:00`,
      base_amount: 150000,
      total_amount: 150000,
      customer_name: 'Test Customer',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

/** An owner with a verified venue, and a customer. */
export async function venueWithCustomer(app: App, venueFields: Parameters<typeof createVenue>[2] = {}) {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, venueFields)
  const customer = await createUser(app)
  return { owner, venue, customer }
}

/** Inserts a review directly (e.g. a pending one that only moderation can approve). */
export async function insertReview(
  app: App,
  venueId: number,
  user: TestUser,
  fields: { rating?: number; is_approved?: boolean; comment?: string } = {},
) {
  return app.ctx.db
    .insertInto('reviews')
    .values({
      venue_id: venueId,
      user_id: user.id,
      rating: fields.rating ?? 4,
      comment: fields.comment ?? null,
      is_approved: fields.is_approved ?? true,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

/** 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

/** A multipart body for app.inject from plain fields and files. */
export async function multipart(
  fields: Record<string, string>,
  files: { name: string; data: Buffer; filename: string }[],
) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  for (const f of files) form.append(f.name, new Blob([new Uint8Array(f.data)]), f.filename)
  const res = new Response(form)
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  }
}
