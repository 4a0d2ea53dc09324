import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { Conflict, Forbidden, Invalid, NotFound, Unprocessable } from '../../lib/errors.ts'
import { toTimeWithSeconds } from '../../lib/time.ts'
import { loadDay, quoteDay } from '../availability/index.ts'
import * as repo from './repository.ts'
import { entryResource, type WaitlistEntry } from './resource.ts'
import type { JoinBody } from './schemas.ts'

// The customer's side of the waitlist: join a taken slot, list, leave. Offers are made by the
// bookings module when a slot frees (src/modules/bookings/create.ts, offerFreedSlot), in the
// transaction that freed it, through the functions index.ts offers.

export const SLOT_FREE = 'This slot is free: book it instead.'
export const ALREADY_WAITING = 'You are already on the waitlist for this slot.'
const INVALID_COURT = 'The selected court id is invalid.'
export const tooManyEntries = (max: number) =>
  `You may wait for at most ${max} slot${max === 1 ? '' : 's'} at a time. Leave a waitlist to join another.`

/**
 * POST /waitlist: the slot must be one the customer could book (a visible, active court; today or
 * later; inside opening hours and on the slot grid: the booking quote's 422/409) and must be taken
 * right now (else 422 SLOT_FREE). One live entry per user and slot (else 409); at most
 * MAX_WAITLIST_ENTRIES waiting or offered entries per customer (else 422), counted under the
 * customer's lock.
 */
export async function joinWaitlist(
  ctx: AppContext,
  user: AuthUser,
  input: Static<typeof JoinBody>,
): Promise<WaitlistEntry> {
  const now = ctx.clock.now()
  const day = await loadDay(ctx.db, 'court', input.court_id, input.date, { withBookings: false, now })
  if (!day?.is_active || !day.venue_active || day.verification_status !== 'verified') {
    throw new Invalid({ court_id: [INVALID_COURT] })
  }
  quoteDay('court', day, input.date, input.start_time, input.end_time, { zone: ctx.zone, now })
  const slot = {
    courtId: day.id,
    date: input.date,
    start: toTimeWithSeconds(input.start_time),
    end: toTimeWithSeconds(input.end_time),
  }
  let id: number
  try {
    id = await ctx.db.transaction().execute(async (trx) => {
      const max = ctx.config.maxWaitlistEntries
      if ((await repo.lockedActiveEntries(trx, user.id, ctx.zone.today(now))) >= max) {
        throw new Unprocessable(tooManyEntries(max))
      }
      await repo.lockCourt(trx, slot.courtId)
      if (!(await repo.slotTaken(trx, slot))) throw new Unprocessable(SLOT_FREE)
      return repo.insertEntry(trx, { ...slot, userId: user.id, venueId: day.venue_id, now })
    })
  } catch (err) {
    if (repo.isDuplicateEntry(err)) throw new Conflict(ALREADY_WAITING)
    throw err
  }
  return entryResource((await repo.entryById(ctx.db, id))!, ctx.zone)
}

/** GET /waitlist: the caller's entries (every status), soonest slot first. */
export async function listMyEntries(ctx: AppContext, user: AuthUser): Promise<WaitlistEntry[]> {
  return (await repo.entriesOf(ctx.db, user.id)).map((row) => entryResource(row, ctx.zone))
}

/**
 * DELETE /waitlist/{entry}: the owner leaves (404 unknown, 403 someone else's). An offer already
 * made stays a pending booking of theirs until it is paid, cancelled or expires.
 */
export async function leaveWaitlist(ctx: AppContext, user: AuthUser, rawId: string): Promise<void> {
  const id = repo.parseId(rawId)
  if (id === undefined) throw new NotFound()
  const row = await repo.entryById(ctx.db, id)
  if (!row) throw new NotFound()
  if (row.user_id !== user.id) throw new Forbidden()
  await repo.deleteEntry(ctx.db, id)
}
