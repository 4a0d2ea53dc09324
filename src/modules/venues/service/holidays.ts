import type { Static } from 'typebox'
import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import { Invalid, NotFound } from '../../../lib/errors.ts'
import { pathId } from '../../../lib/ids.ts'
import { isValidDate } from '../../../lib/time.ts'
import type { Zone } from '../../../lib/zone.ts'
import { MANAGER_ROLES } from '../access.ts'
import { deleteHolidayRow, insertHoliday, listHolidayRows } from '../repository/holidays.ts'
import type { HolidayBody } from '../schemas.ts'
import { venueForStaff } from './manage.ts'

// Venue holidays: dates on which the courts' holiday pricing rules apply.

function holiday(h: { id: number; venue_id: number; date: string; name: string; created_at: Date }, zone: Zone) {
  return { id: h.id, venue_id: h.venue_id, date: h.date, name: h.name, created_at: zone.format(h.created_at)! }
}

export async function listHolidays(ctx: AppContext, user: AuthUser, key: string) {
  const venue = await venueForStaff(ctx, user, key, MANAGER_ROLES)
  const rows = await listHolidayRows(ctx.db, venue.id)
  return rows.map((row) => holiday(row, ctx.zone))
}

export async function addHoliday(ctx: AppContext, user: AuthUser, key: string, body: Static<typeof HolidayBody>) {
  const venue = await venueForStaff(ctx, user, key, MANAGER_ROLES)
  if (!isValidDate(body.date)) throw new Invalid('date', 'The date field must be a valid date.')
  if (body.date < ctx.zone.today(ctx.clock.now()))
    throw new Invalid('date', 'The date field must be a date after or equal to today.')
  const row = await insertHoliday(ctx.db, { venue_id: venue.id, date: body.date, name: body.name.trim() })
  if (!row) throw new Invalid('date', 'The venue already has a holiday on this date.')
  return holiday(row, ctx.zone)
}

export async function deleteHoliday(ctx: AppContext, user: AuthUser, key: string, holidayKey: string) {
  const venue = await venueForStaff(ctx, user, key, MANAGER_ROLES)
  if (!(await deleteHolidayRow(ctx.db, venue.id, pathId(holidayKey)))) throw new NotFound()
}
