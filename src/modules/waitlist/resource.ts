import { type Static, Type } from 'typebox'
import { DateOnly, DateTime, Nullable, named } from '../../lib/schemas.ts'
import { toHHmm } from '../../lib/time.ts'
import type { Zone } from '../../lib/zone.ts'
import type { EntryRow } from './repository.ts'

// The waitlist entry resource and its mapping.

export const WAITLIST_STATUSES = ['waiting', 'offered', 'booked', 'expired', 'declined'] as const
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number]

export const WaitlistEntrySchema = named(
  'WaitlistEntry',
  Type.Object({
    id: Type.Integer(),
    court_id: Type.Integer(),
    date: DateOnly,
    start_time: Type.String({ description: 'HH:mm' }),
    end_time: Type.String({ description: 'HH:mm' }),
    status: Type.Union(
      [
        Type.Literal('waiting'),
        Type.Literal('offered'),
        Type.Literal('booked'),
        Type.Literal('expired'),
        Type.Literal('declined'),
      ],
      {
        description:
          'waiting; offered (a pending booking is held for you until offer.expires_at: pay it to keep it); ' +
          'booked (the offer was paid); expired (the offer ran out); declined (the offered booking was cancelled)',
      },
    ),
    position: Nullable(
      Type.Integer({ minimum: 1, description: 'Place in line among the waiting entries for an overlapping slot' }),
    ),
    offer: Nullable(
      Type.Object({
        booking_id: Type.Integer(),
        booking_number: Type.String(),
        expires_at: Nullable(DateTime),
      }),
    ),
    created_at: DateTime,
  }),
)
export type WaitlistEntry = Static<typeof WaitlistEntrySchema>

const BOOKED = new Set(['confirmed', 'playing', 'completed', 'no_show'])

/** What the customer sees: an offered entry whose booking has been paid shows as booked. */
export function entryStatus(row: Pick<EntryRow, 'status' | 'booking_status'>): WaitlistStatus {
  if (row.status === 'offered' && row.booking_status) {
    if (BOOKED.has(row.booking_status)) return 'booked'
    if (row.booking_status === 'cancelled') return 'expired'
  }
  return row.status as WaitlistStatus
}

export function entryResource(row: EntryRow, zone: Zone): WaitlistEntry {
  const status = entryStatus(row)
  return {
    id: row.id,
    court_id: row.court_id,
    date: row.date,
    start_time: toHHmm(row.start_time),
    end_time: toHHmm(row.end_time),
    status,
    position: status === 'waiting' && row.position !== null ? Number(row.position) : null,
    offer:
      row.offer_booking_id !== null && row.booking_number
        ? {
            booking_id: row.offer_booking_id,
            booking_number: row.booking_number,
            expires_at: row.booking_status === 'pending' ? zone.format(row.hold_expires_at) : null,
          }
        : null,
    created_at: zone.format(row.created_at),
  }
}
