import { type Static, Type } from 'typebox'
import { formatMoney } from '../../lib/money.ts'
import { DateTime, Enum, Money, Nullable, named, namedEnum } from '../../lib/schemas.ts'
import type { Storage } from '../../lib/storage.ts'
import type { Zone } from '../../lib/zone.ts'

// The contract's VenueResource (and the {id, name, slug} summary other resources embed), with the
// pure mapping that builds it (the loader is queries.ts). Other features embed venues through index.ts.

export const VenueSummarySchema = named(
  'VenueSummary',
  Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() }),
)
export type VenueSummary = Static<typeof VenueSummarySchema>

export function venueSummary(v: { id: number; name: string; slug: string }): VenueSummary {
  return { id: v.id, name: v.name, slug: v.slug }
}

/** A venue photo's place: the one thumbnail (the cover) or the ordered gallery. */
export const ImageCollectionEnum = namedEnum('ImageCollection', ['thumbnail', 'gallery'])

export const VenueImageSchema = named(
  'VenueImage',
  Type.Object({
    id: Type.Integer({ description: 'Media id, used to delete' }),
    url: Type.String(),
    thumb_url: Type.String(),
    is_primary: Type.Boolean({ description: 'true for the thumbnail collection' }),
    collection: ImageCollectionEnum.response,
    sort_order: Nullable(Type.Integer()),
  }),
)
export type VenueImage = Static<typeof VenueImageSchema>

export const AmenitySchema = named(
  'Amenity',
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    name_ne: Nullable(Type.String({ description: 'The name in Nepali (Devanagari); null when none is set' })),
    icon: Nullable(Type.String()),
  }),
)

export const VenueCourtSummarySchema = named(
  'VenueCourtSummary',
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    type: Type.String(),
    description: Nullable(Type.String()),
    capacity: Type.Integer(),
    is_active: Type.Boolean(),
  }),
)

/**
 * A bookable start found by the free-time search (docs/catalogue.md, "Free-time search"): a court
 * slot or an indoor-game session of the searched duration, at the price a customer pays for it.
 */
export const FreeSlotSchema = named(
  'FreeSlot',
  Type.Object({
    court_id: Nullable(Type.Integer({ description: 'The court; null for an indoor game' })),
    indoor_game_id: Nullable(Type.Integer({ description: 'The indoor game; null for a court' })),
    name: Type.String({ description: "The court's or the game's name" }),
    date: Type.String({ description: 'YYYY-MM-DD, venue time' }),
    start_time: Type.String({ description: 'HH:mm, venue time' }),
    end_time: Type.String({ description: 'HH:mm, venue time' }),
    price: Money,
  }),
)
export type FreeSlot = Static<typeof FreeSlotSchema>

/** Where a venue stands in verification by a super_admin (docs/venues.md). */
export const VerificationStatusEnum = namedEnum('VerificationStatus', ['unverified', 'pending', 'verified', 'rejected'])

export const VenueSchema = named(
  'Venue',
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    name_ne: Nullable(
      Type.String({ description: "The venue's name in Nepali (Devanagari); null when the owner set none" }),
    ),
    slug: Type.String(),
    description: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    email: Nullable(Type.String()),
    address: Type.String(),
    address_ne: Nullable(
      Type.String({ description: 'The address in Nepali (Devanagari); null when the owner set none' }),
    ),
    city: Type.String(),
    state: Type.String(),
    latitude: Type.String({ description: 'Decimal string' }),
    longitude: Type.String({ description: 'Decimal string' }),
    opening_time: Type.String({ description: 'HH:mm:ss' }),
    closing_time: Type.String({ description: 'HH:mm:ss' }),
    is_active: Type.Boolean(),
    free_cancellation_hours: Type.Integer({
      description: 'A customer who cancels at least this many hours before the start is refunded (0–720)',
    }),
    booking_window_days: Type.Integer({ description: 'How many days ahead a customer may book' }),
    min_notice_minutes: Type.Integer({ description: "Minutes before a booking's start a customer must book it" }),
    max_hours_per_day: Nullable(
      Type.Integer({ description: 'Hours one customer may book here on one date (court and indoor); null: no limit' }),
    ),
    no_show_limit: Nullable(
      Type.Integer({
        description: 'No-shows in the last 90 days after which a customer must pay online at once; null: never',
      }),
    ),
    allows_pay_at_venue: Type.Boolean({
      description: 'Whether customers may choose to pay at the venue (payment_method cash); false: online only',
    }),
    is_verified: Type.Boolean(),
    verification_status: VerificationStatusEnum.response,
    verification_requested_at: Nullable(DateTime),
    verification_reviewed_at: Nullable(DateTime),
    verification_note: Nullable(Type.String()),
    distance: Nullable(Type.String({ description: 'e.g. "2.35 km"; null unless coordinates were sent' })),
    distance_km: Type.Optional(Type.Number({ description: 'Present when coordinates were sent' })),
    currency: Type.String(),
    currency_symbol: Type.String(),
    thumbnail: Nullable(VenueImageSchema),
    gallery: Type.Array(VenueImageSchema),
    images: Type.Array(VenueImageSchema, { description: 'Thumbnail plus gallery (legacy)' }),
    amenities: Type.Array(AmenitySchema),
    courts: Type.Array(VenueCourtSummarySchema),
    courts_count: Nullable(Type.Integer()),
    reviews_avg_rating: Nullable(Type.Number({ description: 'Rounded to 1 decimal' })),
    reviews_count: Nullable(Type.Integer()),
    rating: Nullable(Type.Number({ description: 'The average review rating, 1 decimal (same as reviews_avg_rating)' })),
    min_price: Nullable(
      Type.String({
        description:
          'The lowest hourly price a customer pays today (venue time) at any live court or indoor game, pricing rules and holidays counted, e.g. "1200.00"; null when none',
      }),
    ),
    free_slots: Type.Optional(
      Type.Array(FreeSlotSchema, {
        description:
          'Only when the list was searched by date: up to 5 bookable starts in the window, earliest first (docs/catalogue.md)',
      }),
    ),
    created_at: DateTime,
    // The tax identity: only in answers to the venue's owner, managers and super_admin (PATCH/PUT, my-venues).
    pan_number: Type.Optional(
      Nullable(Type.String({ description: 'PAN, 9 digits (owner, managers, super_admin only)' })),
    ),
    vat_registered: Type.Optional(Type.Boolean({ description: 'VAT registered (owner, managers, super_admin only)' })),
    legal_name: Type.Optional(
      Nullable(Type.String({ description: 'Legal name on receipts (owner, managers, super_admin only)' })),
    ),
  }),
)
export type Venue = Static<typeof VenueSchema>

/** An item of GET /venues/my-venues: the Venue plus the caller's role at it. */
export const MyVenueSchema = named(
  'MyVenue',
  Type.Object({
    ...VenueSchema.properties,
    my_role: Enum(['owner', 'manager', 'staff', 'super_admin'], {
      description:
        "The caller's role at this venue: owner, or manager / staff as assigned; super_admin for a super_admin who " +
        'neither owns nor is assigned to the venue (an owner or assignment wins over super_admin)',
    }),
  }),
)
export type MyVenue = Static<typeof MyVenueSchema>

export interface VenueRow {
  id: number
  name: string
  name_ne: string | null
  slug: string
  description: string | null
  phone: string | null
  email: string | null
  address: string
  address_ne: string | null
  city: string
  state: string
  latitude: string
  longitude: string
  opening_time: string
  closing_time: string
  is_active: boolean
  free_cancellation_hours: number
  booking_window_days: number
  min_notice_minutes: number
  max_hours_per_day: number | null
  no_show_limit: number | null
  allows_pay_at_venue: boolean
  verification_status: string
  verification_requested_at: Date | null
  verification_reviewed_at: Date | null
  verification_note: string | null
  reviews_avg_rating: string | null
  reviews_count: number
  /** The lowest base price of the venue's live courts (paisa per hour), kept by the service. */
  min_price: number | null
  created_at: Date
}

/** A venue row without relations (empty images, amenities and courts). */
export function venueResource(v: VenueRow, zone: Zone, distanceKm?: number | null): Venue {
  const out: Venue = {
    id: v.id,
    name: v.name,
    name_ne: v.name_ne,
    slug: v.slug,
    description: v.description,
    phone: v.phone,
    email: v.email,
    address: v.address,
    address_ne: v.address_ne,
    city: v.city,
    state: v.state,
    latitude: String(v.latitude),
    longitude: String(v.longitude),
    opening_time: v.opening_time,
    closing_time: v.closing_time,
    is_active: v.is_active,
    free_cancellation_hours: v.free_cancellation_hours,
    booking_window_days: v.booking_window_days,
    min_notice_minutes: v.min_notice_minutes,
    max_hours_per_day: v.max_hours_per_day,
    no_show_limit: v.no_show_limit,
    allows_pay_at_venue: v.allows_pay_at_venue,
    is_verified: v.verification_status === 'verified',
    verification_status: v.verification_status,
    verification_requested_at: zone.format(v.verification_requested_at),
    verification_reviewed_at: zone.format(v.verification_reviewed_at),
    verification_note: v.verification_note,
    distance: null,
    currency: 'NPR',
    currency_symbol: 'Rs',
    thumbnail: null,
    gallery: [],
    images: [],
    amenities: [],
    courts: [],
    courts_count: 0,
    reviews_avg_rating: v.reviews_avg_rating === null ? null : Math.round(Number(v.reviews_avg_rating) * 10) / 10,
    reviews_count: v.reviews_count,
    rating: null,
    min_price: v.min_price === null ? null : formatMoney(Number(v.min_price)),
    created_at: zone.format(v.created_at)!,
  }
  out.rating = out.reviews_avg_rating
  if (distanceKm !== undefined && distanceKm !== null) setDistance(out, distanceKm)
  return out
}

/** Sets a venue's distance and distance_km (km, from the caller's coordinates). */
export function setDistance(v: Venue, distanceKm: number): Venue {
  const km = Math.round(distanceKm * 100) / 100
  v.distance = `${km.toFixed(2)} km`
  v.distance_km = km
  return v
}

export function venueImage(
  storage: Storage,
  m: { id: number; path: string; collection: string; sort_order: number | null },
): VenueImage {
  const url = storage.url(m.path)!
  return {
    id: m.id,
    url,
    thumb_url: url,
    is_primary: m.collection === 'thumbnail',
    collection: m.collection,
    sort_order: m.sort_order,
  }
}
