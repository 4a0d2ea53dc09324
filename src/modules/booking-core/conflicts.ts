// The one test both booking kinds map to their 409: a row refused for overlapping a live booking.

/**
 * PostgreSQL refused a row because it overlaps a live booking of the same court or indoor game
 * (the exclusion constraints bookings_no_overlap, indoor_bookings_no_overlap): the one test both
 * kinds map to their 409.
 */
export function isOverlapViolation(err: unknown): boolean {
  const e = err as { code?: string } | null
  return !!e && e.code === '23P01'
}
