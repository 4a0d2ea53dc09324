import type { AppContext } from '../../lib/context.ts'
import { formatMoney } from '../../lib/money.ts'
import { fromMinutes } from '../../lib/time.ts'
import { type Day, daySlots, loadDays, loadLiveDaysOfVenues, priceRange } from '../availability/index.ts'
import type { FreeSlot, Venue } from '../venues/index.ts'
import type { FreeStart } from './repository.ts'

// What the catalogue's cards say about price: a venue's lowest hourly price today, and what each
// free slot costs, both by the same pricing as a booking (availability/slots.ts: the day's schedule,
// its rules, the venue's holiday).

/**
 * Each venue's min_price: the lowest hourly price of any slot of its live courts and indoor games
 * today (venue time). A venue with no slot today (closed) keeps its courts' lowest base price.
 */
export async function withTodayPrices(ctx: AppContext, venues: Venue[], now: Date): Promise<Venue[]> {
  if (venues.length === 0) return venues
  const today = ctx.zone.today(now)
  const ids = venues.map((v) => v.id)
  const [courts, games] = await Promise.all([
    loadLiveDaysOfVenues(ctx.db, 'court', ids, today, now),
    loadLiveDaysOfVenues(ctx.db, 'indoor', ids, today, now),
  ])
  const lowest = new Map<number, number>()
  for (const day of [...courts, ...games]) {
    for (const slot of daySlots(day.setup)) {
      const held = lowest.get(day.venue_id)
      if (held === undefined || slot.price_per_hour < held) lowest.set(day.venue_id, slot.price_per_hour)
    }
  }
  for (const v of venues) {
    const price = lowest.get(v.id)
    if (price !== undefined) v.min_price = formatMoney(price)
  }
  return venues
}

/** The free starts of a page's venues as FreeSlots, priced; by venue id. */
export async function pricedFreeSlots(
  ctx: AppContext,
  date: string,
  duration: number,
  startsOf: Map<number, FreeStart[]>,
  now: Date,
): Promise<Map<number, FreeSlot[]>> {
  const all = [...startsOf.values()].flat()
  const courtIds = [...new Set(all.flatMap(([, court]) => (court === null ? [] : [court])))]
  const gameIds = [...new Set(all.flatMap(([, , game]) => (game === null ? [] : [game])))]
  const [courts, games] = await Promise.all([
    loadDays(ctx.db, 'court', courtIds, date, now),
    loadDays(ctx.db, 'indoor', gameIds, date, now),
  ])
  const courtDays = new Map<number, Day>(courts.map((d) => [d.id, d]))
  const gameDays = new Map<number, Day>(games.map((d) => [d.id, d]))
  const out = new Map<number, FreeSlot[]>()
  for (const [venueId, starts] of startsOf) {
    const slots: FreeSlot[] = []
    for (const [start, court, game, name] of starts) {
      const day = court !== null ? courtDays.get(court) : game !== null ? gameDays.get(game) : undefined
      const start_time = fromMinutes(start)
      const end_time = fromMinutes(start + duration)
      const amount = day ? priceRange(day.setup, start_time, end_time) : null
      // A court changed between the search and its pricing (deleted, new hours): its start is left out.
      if (amount === null) continue
      slots.push({
        court_id: court,
        indoor_game_id: game,
        name,
        date,
        start_time,
        end_time,
        price: formatMoney(amount),
      })
    }
    out.set(venueId, slots)
  }
  return out
}
