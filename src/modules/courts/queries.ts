import { sql } from 'kysely'
import { jsonArrayFrom } from 'kysely/helpers/postgres'
import type { Executor } from '../../lib/db.ts'
import { formatMoney, moneyNumber } from '../../lib/money.ts'
import type { Storage } from '../../lib/storage.ts'
import type { Zone } from '../../lib/zone.ts'
import { type Court, pricingRule, scheduleEntry } from './resource.ts'

// Read models of courts: the batch loader that builds the contract's CourtResource.

/**
 * Courts by id with sport, images, schedules and pricing rules. Deleted courts are included (a
 * booking keeps showing its court); ids that do not exist are absent. Image URLs come from `storage`, times from `zone`.
 */
export async function loadCourtResources(
  db: Executor,
  ids: number[],
  opts: { storage: Storage; zone: Zone },
): Promise<Map<number, Court>> {
  const out = new Map<number, Court>()
  if (ids.length === 0) return out
  const unique = [...new Set(ids)]
  // One round trip: the courts with their schedules, rules and images as JSON sub-selects.
  const rows = await db
    .selectFrom('courts as c')
    .leftJoin('sports as s', 's.id', 'c.sport_id')
    .select([
      'c.id',
      'c.venue_id',
      'c.name',
      'c.type',
      'c.description',
      'c.capacity',
      'c.slot_minutes',
      'c.price_per_hour',
      'c.is_active',
      'c.created_at',
      's.id as sport_id',
      's.name as sport_name',
      's.name_ne as sport_name_ne',
      's.slug as sport_slug',
      's.key as sport_key',
      's.label as sport_label',
    ])
    .select((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom('court_schedules as cs')
          .select(['cs.id', 'cs.day_of_week', 'cs.open_time', 'cs.close_time', 'cs.is_closed'])
          .whereRef('cs.court_id', '=', 'c.id')
          .orderBy('cs.day_of_week'),
      ).as('schedules'),
      jsonArrayFrom(
        eb
          .selectFrom('pricing_rules as r')
          .select(['r.id', 'r.type', 'r.day_of_week', 'r.start_time', 'r.end_time', 'r.price_per_hour', 'r.is_active'])
          .whereRef('r.court_id', '=', 'c.id')
          .orderBy('r.day_of_week', (ob) => ob.nullsFirst())
          .orderBy('r.start_time')
          .orderBy('r.id'),
      ).as('rules'),
      opts.storage
        ? jsonArrayFrom(
            eb
              .selectFrom('media as m')
              .select(['m.id', 'm.path'])
              .where('m.model_type', '=', 'court')
              .whereRef('m.model_id', '=', 'c.id')
              .orderBy('m.sort_order')
              .orderBy('m.id'),
          ).as('images')
        : sql<{ id: number; path: string }[]>`'[]'::json`.as('images'),
    ])
    .where('c.id', 'in', unique)
    .execute()
  for (const c of rows) {
    let lowest = c.price_per_hour
    for (const r of c.rules) {
      if (r.is_active && r.type !== 'holiday' && r.price_per_hour < lowest) lowest = r.price_per_hour
    }
    out.set(c.id, {
      id: c.id,
      venue_id: c.venue_id,
      name: c.name,
      type: c.type,
      sport:
        c.sport_id === null
          ? null
          : {
              id: c.sport_id,
              name: c.sport_name!,
              name_ne: c.sport_name_ne,
              slug: c.sport_slug!,
              key: c.sport_key!,
              label: c.sport_label!,
            },
      price_per_hour: formatMoney(c.price_per_hour),
      starting_price: moneyNumber(lowest),
      description: c.description,
      capacity: c.capacity,
      slot_minutes: c.slot_minutes,
      is_active: c.is_active,
      images: c.images.map((m) => ({ id: m.id, url: opts.storage.url(m.path)! })),
      schedules: c.schedules.map(scheduleEntry),
      pricing: c.rules.map((r) => pricingRule({ ...r, price_per_hour: Number(r.price_per_hour) })),
      created_at: opts.zone.format(c.created_at),
    })
  }
  return out
}
