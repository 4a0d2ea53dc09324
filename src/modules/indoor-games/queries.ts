import type { Executor } from '../../lib/db.ts'
import type { Zone } from '../../lib/zone.ts'
import { type IndoorGame, indoorGameResource } from './resource.ts'

// Read models of indoor games: the IndoorGame resources of a booking list or a venue.

const columns = [
  'g.id',
  'g.tenant_id',
  'g.venue_id',
  'g.name',
  'g.game_type',
  'g.description',
  'g.capacity',
  'g.slot_minutes',
  'g.price_per_hour',
  'g.is_active',
  'g.sort_order',
  'g.created_at',
  'g.updated_at',
  'v.name as venue_name',
  'v.slug as venue_slug',
  'v.allows_pay_at_venue',
  'v.free_cancellation_hours',
] as const

/** Indoor games by id with their venue; deleted games are included (bookings keep showing them). */
export async function loadIndoorGameResources(
  db: Executor,
  ids: number[],
  zone: Zone,
): Promise<Map<number, IndoorGame>> {
  const out = new Map<number, IndoorGame>()
  if (ids.length === 0) return out
  const rows = await db
    .selectFrom('indoor_games as g')
    .innerJoin('venues as v', 'v.id', 'g.venue_id')
    .select([...columns])
    .where('g.id', 'in', [...new Set(ids)])
    .execute()
  for (const r of rows) out.set(r.id, indoorGameResource(r, zone))
  return out
}

/** The not deleted games of a venue in display order: active ones (all with includeInactive), optionally one game_type. */
export async function listVenueIndoorGames(
  db: Executor,
  zone: Zone,
  venueId: number,
  opts: { gameType?: string; includeInactive?: boolean } = {},
): Promise<IndoorGame[]> {
  let q = db
    .selectFrom('indoor_games as g')
    .innerJoin('venues as v', 'v.id', 'g.venue_id')
    .select([...columns])
    .where('g.venue_id', '=', venueId)
    .where('g.deleted_at', 'is', null)
  if (!opts.includeInactive) q = q.where('g.is_active', '=', true)
  if (opts.gameType) q = q.where('g.game_type', '=', opts.gameType)
  const rows = await q.orderBy('g.sort_order').orderBy('g.id').execute()
  return rows.map((r) => indoorGameResource(r, zone))
}
