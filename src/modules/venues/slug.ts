import type { Executor } from '../../lib/db.ts'
import { slugsLike } from './repository/manage.ts'

// Venue slugs: made from the name, unique, and never shadowing another /venues/… path.

/** Slug from a name: lower-case ASCII words joined by hyphens ("venue" when nothing is left). */
export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '')
  return s || 'venue'
}

/** Path words under /venues/ that a slug must not shadow (GET /venues/nearby, /venues/my-venues). */
const RESERVED_SLUGS = new Set(['nearby', 'my-venues'])

/**
 * The first free slug of `base`, `base-2`, `base-3`, … (deleted venues keep theirs; reserved
 * words are never handed out, so every venue stays reachable by its slug).
 */
export async function freeSlug(db: Executor, name: string): Promise<string> {
  // A purely numeric slug would shadow the venue with that id in {venue} paths.
  const base = /^\d+$/.test(name) ? `venue-${name}` : name
  const set = new Set([...(await slugsLike(db, base)), ...RESERVED_SLUGS])
  if (!set.has(base)) return base
  for (let i = 2; ; i++) if (!set.has(`${base}-${i}`)) return `${base}-${i}`
}
