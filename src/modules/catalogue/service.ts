import type { Static } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import { cacheTags } from '../../lib/cache-tags.ts'
import type { AppContext } from '../../lib/context.ts'
import { Invalid, NotFound } from '../../lib/errors.ts'
import type { PageParams } from '../../lib/pagination.ts'
import { addDays, dayOfWeek, toMinutes } from '../../lib/time.ts'
import {
  assertCanShowVenue,
  type CatalogueFilter,
  type CatalogueScope,
  catalogueScope,
  type Geo,
  loadVenueResource,
  loadVenueResources,
  resolveVenue,
  searchVenues,
  setDistance,
  type Venue,
} from '../venues/index.ts'
import { freeTimeIndex, type Result } from './free-index.ts'
import { addFreeStarts, type Found, foundOrder, ofSport, type Resource, venueHours, type Window } from './free-time.ts'
import { pricedFreeSlots, withTodayPrices } from './prices.ts'
import { type CandidateVenue, candidateVenues } from './repository.ts'
import { type NearbyQuery, SORTS, type VenueListQuery } from './schemas.ts'

// The public catalogue's reads: the venue list (with the free-time search), nearby venues and one
// venue. Pages without a date come through the read cache (one entry per query and page, until
// the catalogue changes or the day ends: min_price is today's); a free-time search is answered
// from the database each time, since every booking anywhere changes it (docs/catalogue.md).

const DEFAULT_LIST_RADIUS_KM = 50
const DEFAULT_NEARBY_RADIUS_KM = 10
const DEFAULT_DURATION = 60

type ListQuery = Static<typeof VenueListQuery>
type Page = { items: Venue[]; total: number }
type Filter = Omit<CatalogueFilter, 'limit' | 'offset'>

function geoOf(q: ListQuery): Geo | undefined {
  const lat = q.lat ?? q.latitude
  const lng = q.lng ?? q.longitude
  if (lat === undefined && lng === undefined) return undefined
  if (lat === undefined) throw new Invalid('latitude', 'The latitude field is required when longitude is present.')
  if (lng === undefined) throw new Invalid('longitude', 'The longitude field is required when latitude is present.')
  return { lat, lng, radiusKm: q.radius ?? DEFAULT_LIST_RADIUS_KM }
}

function sortOf(value: string | undefined): CatalogueFilter['sort'] {
  if (value === undefined || value === '') return 'recommended'
  const sort = value.trim().toLowerCase() as CatalogueFilter['sort']
  if (!SORTS.includes(sort)) throw new Invalid('sort', 'The selected sort is invalid.')
  return sort
}

type WindowQuery = Pick<ListQuery, 'date' | 'from' | 'to' | 'duration'>

/** A free-time search's day and window (minutes of the day). */
interface FreeTimeWindow extends Window {
  date: string
  /** Days from today (venue time) to `date`: the venue's booking window must reach it. */
  daysAhead: number
  now: Date
}

/** Starts kept per venue (free_slots). */
const FREE_SLOTS = 5

/** The free-time window of a query, or null when it names no date (the plain catalogue). */
function windowOf(ctx: AppContext, q: WindowQuery, now: Date): FreeTimeWindow | null {
  if (q.date === undefined) {
    if (q.from !== undefined || q.to !== undefined || q.duration !== undefined) {
      throw new Invalid('date', 'The date field is required when from, to or duration is present.')
    }
    return null
  }
  const today = ctx.zone.today(now)
  if (q.date < today) throw new Invalid('date', 'The date field must be a date after or equal to today.')
  const from = q.from === undefined ? 0 : toMinutes(q.from)
  const to = q.to === undefined ? 1440 : toMinutes(q.to)
  if (to <= from) throw new Invalid('to', 'The to field must be a time after from.')
  const midnight = ctx.zone.instant(q.date, '00:00').getTime()
  return {
    date: q.date,
    dow: dayOfWeek(q.date),
    daysAhead: Math.round((Date.parse(`${q.date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000),
    from,
    to,
    duration: q.duration ?? DEFAULT_DURATION,
    nowMinute: Math.ceil((now.getTime() - midnight) / 60_000),
    nowMs: now.getTime(),
    now,
  }
}

/** The end of today, venue time: a cached page's min_price is today's. */
function endOfToday(ctx: AppContext, now: Date): number {
  return ctx.zone.instant(addDays(ctx.zone.today(now), 1), '00:00').getTime()
}

async function page(ctx: AppContext, filter: Filter, params: PageParams, now: Date): Promise<Page> {
  const { rows, total } = await searchVenues(ctx.db, { ...filter, limit: params.perPage, offset: params.offset })
  const distances = new Map<number, number>()
  for (const r of rows) if (r.distance !== null) distances.set(r.id, r.distance)
  const items = await loadVenueResources(
    ctx,
    rows.map((r) => r.id),
    { distances },
  )
  return { items: await withTodayPrices(ctx, items, now), total }
}

/**
 * The venues of a search's filters (and booking window): the same for every guest and customer,
 * so the public's come through the read cache until the catalogue changes.
 */
function candidates(ctx: AppContext, f: Filter, daysAhead: number): CandidateVenue[] | Promise<CandidateVenue[]> {
  const load = () => candidateVenues(ctx.db, { ...f, limit: 0, offset: 0 }, daysAhead)
  if (f.scope.kind !== 'public') return load()
  const { sort: _sort, ...key } = f
  return ctx.cache.read(`catalogue:free-venues:${JSON.stringify([key, daysAhead])}`, load, () => ({
    tags: [cacheTags.catalogue],
  }))
}

/**
 * One venue as a card: the public venue (through the read cache, as GET /venues/{venue}) for the
 * public, else loaded; a copy, as the search adds its distance and free slots.
 */
async function cards(ctx: AppContext, scope: CatalogueScope, ids: number[], now: Date): Promise<Map<number, Venue>> {
  const load = async (list: number[]) => withTodayPrices(ctx, await loadVenueResources(ctx, list), now)
  if (scope.kind !== 'public') return new Map((await load(ids)).map((v) => [v.id, v]))
  const one = (id: number) =>
    ctx.cache.read(
      `catalogue:card:${id}`,
      async () => (await load([id]))[0] ?? null,
      () => ({ tags: [cacheTags.catalogue], expiresAt: endOfToday(ctx, now) }),
    )
  const venues = await Promise.all(ids.map(one))
  return new Map(venues.flatMap((v) => (v ? [[v.id, { ...v }] as const] : [])))
}

/**
 * The venues with a bookable start in the window, in the page order, each with its earliest five
 * (docs/catalogue.md, "Free-time search"). The venues of the filters come from the database (or the
 * read cache), their courts and what is taken from the index (free-index.ts); the grids, the starts
 * and the order are worked out here. The public's result is kept until the minute ends, a hold in
 * it runs out, or something it was read from changes.
 */
async function search(ctx: AppContext, filter: Filter, w: FreeTimeWindow): Promise<Result> {
  const index = freeTimeIndex(ctx)
  const key = filter.scope.kind === 'public' ? JSON.stringify([filter, w.date, w.from, w.to, w.duration]) : undefined
  if (key === undefined) return workOut(ctx, filter, w, undefined)
  const held = index.result(key, w.nowMs)
  if (held?.fresh) return held.result
  // One request works a search out at a time; the others of that moment answer with the result it
  // replaces, when there is one (free-index.ts, STALE_FOR), else wait for it.
  const working = index.once(key, () => workOut(ctx, filter, w, key))
  if (held) {
    working.catch(() => undefined)
    return held.result
  }
  return working
}

/** Works a search out; a public one (`key`) is kept for the requests after it. */
async function workOut(ctx: AppContext, filter: Filter, w: FreeTimeWindow, key: string | undefined): Promise<Result> {
  const index = freeTimeIndex(ctx)
  const mark = ctx.cache.mark()
  const sport = filter.sport?.toLowerCase()
  const venues = await candidates(ctx, filter, w.daysAhead)
  const resources = await index.resources(venues.map((v) => v.id))
  const asked: Resource[] = []
  for (const v of venues) for (const r of resources.get(v.id) ?? []) if (ofSport(r, sport)) asked.push(r)
  const taken = await index.taken(w.date, asked)
  const found: Found[] = []
  const tags = new Set<string>([cacheTags.catalogue])
  // The next minute (a start may pass it, or the notice reach it); a running hold's end, sooner.
  let validUntil = w.nowMs - (w.nowMs % 60_000) + 60_000
  let at = 0
  for (const venue of venues) {
    const hours = venueHours(venue)
    const starts: Found['starts'] = []
    // `asked` lists each venue's resources together, in the venues' order.
    while (at < asked.length && asked[at]!.venueId === venue.id) {
      const r = asked[at++]!
      const ranges = taken.get(r) ?? []
      for (const tag of r.tags) tags.add(tag)
      for (const t of ranges)
        if (t.holdUntil !== null && t.holdUntil > w.nowMs) validUntil = Math.min(validUntil, t.holdUntil)
      addFreeStarts(r, hours, venue.min_notice_minutes, ranges, w, starts, FREE_SLOTS)
    }
    if (starts.length > 0) found.push({ venue, starts })
  }
  found.sort(foundOrder(filter.sort, filter.geo !== undefined))
  const result: Result = { mark, validUntil, tags, found, prices: new Map() }
  if (key !== undefined) index.keep(key, result)
  return result
}

/** A page of the free-time search: the venues' cards with their distance and priced free slots. */
async function freePage(ctx: AppContext, filter: Filter, w: FreeTimeWindow, params: PageParams): Promise<Page> {
  const result = await search(ctx, filter, w)
  const shown = result.found.slice(params.offset, params.offset + params.perPage)
  const pageKey = `${params.offset}:${params.perPage}`
  const priced = result.prices.get(pageKey)
  const [byId, slots] = await Promise.all([
    cards(
      ctx,
      filter.scope,
      shown.map((x) => x.venue.id),
      w.now,
    ),
    priced ?? pricedFreeSlots(ctx, w.date, w.duration, new Map(shown.map((x) => [x.venue.id, x.starts])), w.now),
  ])
  if (!priced) result.prices.set(pageKey, slots)
  const items: Venue[] = []
  for (const { venue } of shown) {
    const card = byId.get(venue.id)
    if (!card) continue
    if (venue.distance !== null) setDistance(card, venue.distance)
    card.free_slots = slots.get(venue.id) ?? []
    items.push(card)
  }
  return { items, total: result.found.length }
}

/** A page of the catalogue: the free-time search with a date, otherwise through the read cache for the public. */
function answer(
  ctx: AppContext,
  scope: CatalogueScope,
  key: string,
  filter: Filter,
  q: WindowQuery,
  params: PageParams,
) {
  const now = ctx.clock.now()
  const w = windowOf(ctx, q, now)
  if (w) return freePage(ctx, filter, w, params)
  // Guests and customers all see the same public catalogue: one cached page per query (a held page
  // is answered without a promise).
  if (scope.kind !== 'public') return page(ctx, filter, params, now)
  return ctx.cache.read(
    key,
    () => page(ctx, filter, params, now),
    () => ({ tags: [cacheTags.catalogue], expiresAt: endOfToday(ctx, now) }),
  )
}

/** GET /venues: one page of the catalogue as the caller may see it, filtered and sorted, and the total. */
export function listVenues(ctx: AppContext, user: AuthUser | null, q: ListQuery, params: PageParams) {
  const scope = catalogueScope(user)
  const filter: Filter = {
    scope,
    search: q.search?.trim() || undefined,
    city: q.city?.trim() || undefined,
    sport: (q.sport ?? q.court_type)?.trim() || undefined,
    isVerified: q.is_verified === undefined ? undefined : q.is_verified === '1' || q.is_verified === 'true',
    // owner_id is honoured for super_admin only.
    ownerId: scope.kind === 'all' ? q.owner_id : undefined,
    geo: geoOf(q),
    sort: sortOf(q.sort),
  }
  return answer(ctx, scope, `catalogue:list:${JSON.stringify([q, params])}`, filter, q, params)
}

/** GET /venues/nearby: public venues within the radius (default 10 km), nearest first. */
export function nearbyVenues(ctx: AppContext, q: Static<typeof NearbyQuery>, params: PageParams) {
  const scope: CatalogueScope = { kind: 'public' }
  const filter: Filter = {
    scope,
    geo: { lat: q.latitude, lng: q.longitude, radiusKm: q.radius ?? DEFAULT_NEARBY_RADIUS_KM },
    sort: 'distance',
  }
  return answer(ctx, scope, `catalogue:nearby:${JSON.stringify([q, params])}`, filter, q, params)
}

/** GET /venues/{slug}: a venue by slug or id, with courts, images and amenities. */
export function showVenue(ctx: AppContext, user: AuthUser | null, key: string): Venue | Promise<Venue> {
  const now = ctx.clock.now()
  // Guests and customers see the same public venue (hidden ones are 404 for them, never cached); a
  // held one is answered without a promise.
  if (catalogueScope(user).kind === 'public') {
    return ctx.cache.read(
      `catalogue:show:${key}`,
      () => loadShown(ctx, user, key, now),
      () => ({ tags: [cacheTags.catalogue], expiresAt: endOfToday(ctx, now) }),
    )
  }
  return loadShown(ctx, user, key, now)
}

async function loadShown(ctx: AppContext, user: AuthUser | null, key: string, now: Date): Promise<Venue> {
  const venue = await resolveVenue(ctx.db, key)
  if (!venue) throw new NotFound()
  await assertCanShowVenue(ctx.db, user, venue)
  const resource = await loadVenueResource(ctx, venue.id)
  if (!resource) throw new NotFound()
  const [shown] = await withTodayPrices(ctx, [resource], now)
  return shown!
}
