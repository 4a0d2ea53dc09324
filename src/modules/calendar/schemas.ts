import { Type } from 'typebox'

export const VenueParams = Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) })

/** The secret of a feed URL; a malformed one names no feed (404), never a 422. */
export const SecretParams = Type.Object({
  secret: Type.String({ description: 'The secret part of a feed URL (…/api/calendar/{secret}.ics)' }),
})
