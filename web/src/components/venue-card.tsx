import type { Schemas } from '../api.ts'
import type { FreeTimeSearch } from '../free-time.ts'
import { formatDigits, formatMoney, t } from '../i18n/index.ts'
import { localAddress, localName } from '../names.ts'
import { Link } from '../router.ts'
import { Stars } from './ui.tsx'

type Venue = Schemas['Venue']
type FreeSlot = Schemas['FreeSlot']

/** The booking page for one free slot: the court or game, the day and the times, preselected. */
export function bookingHref(slot: FreeSlot): string {
  const what = slot.court_id != null ? `court=${slot.court_id}` : `game=${slot.indoor_game_id}`
  return `/book?${what}&date=${slot.date}&start=${slot.start_time}&end=${slot.end_time}`
}

/**
 * A venue as the find page lists it: its photo (the thumbnail, else the first image, loaded lazily;
 * a drawn court when it has none), name, place, rating, distance, the lowest hourly price today,
 * and, when the customer searched for a time, the earliest free slots as links straight to booking
 * them.
 */
export function VenueCard({ venue: v, search }: { venue: Venue; search: FreeTimeSearch | null }) {
  const image = v.thumbnail ?? v.images[0]
  const page = search ? `/v/${v.slug}?date=${search.date}` : `/v/${v.slug}`
  const slots = search ? (v.free_slots ?? []) : []
  return (
    <li class="card venue-card">
      <div class="venue-top">
        {image ? (
          <img
            class="venue-photo"
            src={image.thumb_url}
            alt=""
            width={480}
            height={320}
            loading="lazy"
            decoding="async"
          />
        ) : (
          <NoPhoto />
        )}
        <div class="venue-body">
          <h2>
            <Link href={page}>{localName(v)}</Link>
          </h2>
          <p class="muted">
            {localAddress(v)}, {v.city}
          </p>
          <p class="venue-facts">
            {v.rating != null ? (
              <Stars rating={v.rating} count={v.reviews_count} />
            ) : (
              <span class="muted small">{t('card.noReviews')}</span>
            )}
            {v.distance_km != null && (
              <span class="distance"> · {t('find.km', { km: formatDigits(v.distance_km.toFixed(1)) })}</span>
            )}
          </p>
          {v.min_price != null && <p class="from-price">{t('card.fromPrice', { price: formatMoney(v.min_price) })}</p>}
          {!search && v.courts.length > 0 && <p class="muted small">{v.courts.map((c) => c.name).join(' · ')}</p>}
        </div>
      </div>
      {slots.length > 0 && (
        <>
          <ul class="free-times" aria-label={t('card.freeTimes')}>
            {slots.map((s) => (
              <li key={`${s.court_id ?? 'g'}-${s.indoor_game_id ?? 'c'}-${s.start_time}`}>
                <Link class="button secondary free-time" href={bookingHref(s)}>
                  <strong>
                    {formatDigits(s.start_time)}
                    <span class="sr-only">–{formatDigits(s.end_time)}</span>
                  </strong>{' '}
                  <span class="small what">{s.name}</span> <span class="small">{formatMoney(s.price)}</span>
                </Link>
              </li>
            ))}
          </ul>
          <p class="small more-times">
            <Link href={page}>{t('card.moreTimes')}</Link>
          </p>
        </>
      )}
    </li>
  )
}

/** The place of a missing photo: a court drawn in the app's colours, the same size as a photo. */
function NoPhoto() {
  return (
    <svg class="venue-photo none" viewBox="0 0 120 80" aria-hidden="true" focusable="false">
      <rect width="120" height="80" fill="#dfe7f5" />
      <g fill="none" stroke="#0b57d0" stroke-width="2.5">
        <rect x="20" y="16" width="80" height="48" rx="2" />
        <line x1="60" y1="16" x2="60" y2="64" />
        <circle cx="60" cy="40" r="9" />
      </g>
    </svg>
  )
}
