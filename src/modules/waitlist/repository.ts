import { sql } from 'kysely'
import { type Executor, LOCK_CLASS, xactLock } from '../../lib/db.ts'
import { bookedResourceLock } from '../booking-core/index.ts'

// Queries on waitlist entries (the `waitlist_entries` table), and the one read of `bookings` the
// waitlist needs: whether a slot is taken right now.

export { parseId } from '../../lib/ids.ts'

export interface Slot {
  courtId: number
  date: string
  /** HH:mm:ss */
  start: string
  /** HH:mm:ss */
  end: string
}

/** Whether a live booking (pending, confirmed, playing) of the court overlaps the range. */
/**
 * Takes the court's booking lock (the one every INSERT and cancel on the court takes first), so a
 * join's "is it taken?" and its INSERT see no cancel in between: a slot freed right then either
 * finds the new entry (and offers it) or the join sees the slot free (422).
 */
export async function lockCourt(trx: Executor, courtId: number): Promise<void> {
  await sql`SELECT ${bookedResourceLock('BK', courtId)}`.execute(trx)
}

export async function slotTaken(db: Executor, slot: Slot): Promise<boolean> {
  const row = await db
    .selectFrom('bookings')
    .select('id')
    .where('court_id', '=', slot.courtId)
    .where('date', '=', slot.date)
    .where('status', 'in', ['pending', 'confirmed', 'playing'])
    .where('start_time', '<', slot.end)
    .where('end_time', '>', slot.start)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** Postgres refused the entry: the user already has a live entry for this slot. */
export function isDuplicateEntry(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '23505'
}

/**
 * The customer's waiting (or offered) entries for slots from `today` on, counted under a per-customer
 * lock held to the end of the transaction, so two joins at once cannot both pass the cap.
 */
export async function lockedActiveEntries(trx: Executor, userId: number, today: string): Promise<number> {
  await xactLock(trx, LOCK_CLASS.waiter, userId)
  const row = await trx
    .selectFrom('waitlist_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('status', 'in', ['waiting', 'offered'])
    .where('date', '>=', today)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function insertEntry(
  db: Executor,
  values: { userId: number; venueId: number; now: Date } & Slot,
): Promise<number> {
  const row = await db
    .insertInto('waitlist_entries')
    .values({
      user_id: values.userId,
      court_id: values.courtId,
      venue_id: values.venueId,
      date: values.date,
      start_time: values.start,
      end_time: values.end,
      created_at: values.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/**
 * Entries with what their answer shows: the offer's booking and, for a waiting entry, its place in
 * line (waiting entries of the same court and date whose range overlaps, by age).
 */
function entryRows(db: Executor) {
  return db
    .selectFrom('waitlist_entries as w')
    .leftJoin('bookings as b', 'b.id', 'w.offer_booking_id')
    .select([
      'w.id',
      'w.user_id',
      'w.court_id',
      'w.date',
      'w.start_time',
      'w.end_time',
      'w.status',
      'w.offer_booking_id',
      'w.created_at',
      'b.booking_number',
      'b.status as booking_status',
      'b.hold_expires_at',
    ])
    .select(
      sql<number>`CASE WHEN w.status = 'waiting' THEN (
        SELECT count(*) FROM waitlist_entries o
        WHERE o.court_id = w.court_id AND o.date = w.date AND o.status = 'waiting' AND o.id <= w.id
          AND o.start_time < w.end_time AND o.end_time > w.start_time) END`.as('position'),
    )
}

export type EntryRow = Awaited<ReturnType<ReturnType<typeof entryRows>['executeTakeFirstOrThrow']>>

export async function entryById(db: Executor, id: number): Promise<EntryRow | undefined> {
  return entryRows(db).where('w.id', '=', id).executeTakeFirst()
}

/** The user's entries, soonest slot first. */
export async function entriesOf(db: Executor, userId: number): Promise<EntryRow[]> {
  return entryRows(db)
    .where('w.user_id', '=', userId)
    .orderBy('w.date')
    .orderBy('w.start_time')
    .orderBy('w.id')
    .execute()
}

export async function deleteEntry(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('waitlist_entries').where('id', '=', id).execute()
}

/** Waiting entries whose range overlaps the slot, first in line first, with who is waiting. */
export async function waitingFor(trx: Executor, slot: Slot) {
  return trx
    .selectFrom('waitlist_entries as w')
    .innerJoin('users as u', 'u.id', 'w.user_id')
    .select(['w.id', 'w.user_id', 'w.date', 'w.start_time', 'w.end_time', 'u.name', 'u.phone'])
    .where('w.court_id', '=', slot.courtId)
    .where('w.date', '=', slot.date)
    .where('w.status', '=', 'waiting')
    .where('w.start_time', '<', slot.end)
    .where('w.end_time', '>', slot.start)
    .orderBy('w.id')
    .execute()
}

/** Marks a waiting entry offered (row-locked until commit); false when it is no longer waiting. */
export async function claimEntry(trx: Executor, id: number, now: Date): Promise<boolean> {
  const row = await trx
    .updateTable('waitlist_entries')
    .set({ status: 'offered', offered_at: now })
    .where('id', '=', id)
    .where('status', '=', 'waiting')
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

export async function setOfferBooking(trx: Executor, id: number, bookingId: number): Promise<void> {
  await trx.updateTable('waitlist_entries').set({ offer_booking_id: bookingId }).where('id', '=', id).execute()
}

/** Closes the entry whose offer was `bookingId` (expired or declined). */
export async function closeOffer(trx: Executor, bookingId: number, status: 'expired' | 'declined'): Promise<void> {
  await trx
    .updateTable('waitlist_entries')
    .set({ status })
    .where('offer_booking_id', '=', bookingId)
    .where('status', '=', 'offered')
    .execute()
}

/** The court slot a booking held, with its status and cancel reason (the slot a cancel freed). */
export async function freedSlot(db: Executor, bookingId: number) {
  return db
    .selectFrom('bookings')
    .select(['id', 'court_id', 'date', 'start_time', 'end_time', 'status', 'cancel_reason'])
    .where('id', '=', bookingId)
    .executeTakeFirst()
}

/** The offered booking's number and hold, for the WaitlistOffer message. */
export async function offeredBooking(db: Executor, bookingId: number) {
  return db
    .selectFrom('bookings')
    .select(['booking_number', 'hold_expires_at'])
    .where('id', '=', bookingId)
    .executeTakeFirstOrThrow()
}
