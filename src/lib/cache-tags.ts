// The read cache's tags (lib/cache.ts), built in one place. The database announces the same
// strings from its triggers (migrations/003 and 005: `<kind>:<id>` or a bare kind);
// test/foundation/cache-tags.test.ts changes each announcing table and checks that what arrives on
// the channel is what these builders produce, so a renamed tag fails a test instead of silently
// leaving stale entries.

export type CacheTag =
  | `court:${number}`
  | `slots:${number}`
  | `game:${number}`
  | `venue:${number}`
  | `user:${number}`
  | `token:${number}`
  | 'catalogue'

export const cacheTags = {
  /** A court row, its weekly schedule, pricing rules and maintenance blocks. */
  court: (id: number): CacheTag => `court:${id}`,
  /** A court's bookings (its availability, not the court itself). */
  slots: (courtId: number): CacheTag => `slots:${courtId}`,
  /** An indoor game and its bookings. */
  game: (id: number): CacheTag => `game:${id}`,
  /** A venue row and its holidays. */
  venue: (id: number): CacheTag => `venue:${id}`,
  /** A user's profile, verification, suspension and roles. */
  user: (id: number): CacheTag => `user:${id}`,
  /** One device token (deleted or re-issued). */
  token: (id: number): CacheTag => `token:${id}`,
  /** Anything the venue list shows: venues, courts, games, amenities, sports, media, reviews. */
  catalogue: 'catalogue' as CacheTag,
} as const
