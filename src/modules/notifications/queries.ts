import type { Executor } from '../../lib/db.ts'
import type { BookingFacts } from './messages/index.ts'

// Read models of the booking messages (send-messages.ts): the booking a message is about, with its venue
// and court (or indoor game), and where and whether its recipient takes messages.

/** A court or indoor booking as a message tells it; undefined when it is gone. */
export async function bookingFacts(
  db: Executor,
  kind: 'court' | 'indoor',
  id: number,
): Promise<BookingFacts | undefined> {
  const row =
    kind === 'court'
      ? await db
          .selectFrom('bookings as b')
          .innerJoin('venues as v', 'v.id', 'b.venue_id')
          .innerJoin('courts as c', 'c.id', 'b.court_id')
          .select([
            'b.booking_number',
            'v.name as venue',
            'c.name as place',
            'b.date',
            'b.start_time',
            'b.end_time',
            'b.total_amount',
            'b.paid_amount',
          ])
          .where('b.id', '=', id)
          .executeTakeFirst()
      : await db
          .selectFrom('indoor_game_bookings as b')
          .innerJoin('venues as v', 'v.id', 'b.venue_id')
          .innerJoin('indoor_games as g', 'g.id', 'b.indoor_game_id')
          .select([
            'b.booking_number',
            'v.name as venue',
            'g.name as place',
            'b.date',
            'b.start_time',
            'b.end_time',
            'b.total_amount',
            'b.paid_amount',
          ])
          .where('b.id', '=', id)
          .executeTakeFirst()
  if (!row) return undefined
  return {
    kind,
    bookingNumber: row.booking_number,
    venue: row.venue,
    place: row.place,
    date: row.date,
    start: row.start_time,
    end: row.end_time,
    total: Number(row.total_amount),
    paid: Number(row.paid_amount),
  }
}

/** Where a user takes booking messages: the phone on file, the email when verified, each unless turned off. */
export async function messageRecipient(db: Executor, userId: number) {
  const u = await db
    .selectFrom('users')
    .select(['name', 'phone', 'email', 'email_verified_at', 'notify_sms', 'notify_email', 'locale'])
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!u) return undefined
  return {
    name: u.name,
    /** users.locale: the language of their messages (languageOf reads it). */
    language: u.locale,
    sms: u.notify_sms && u.phone ? u.phone : null,
    mail: u.notify_email && u.email_verified_at !== null ? u.email : null,
  }
}
