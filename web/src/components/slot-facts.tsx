import '../pay.css'
import { formatDate, formatDigits, formatMoney, t } from '../i18n/index.ts'
import { Link } from '../router.ts'

// What a booking is, said the same way wherever a player decides or looks back: before signing in,
// before paying, on a held booking's page, on the payment's result and on a new weekly series. And
// the warning that a booking starting inside the venue's free-cancellation window is not refunded.

export interface SlotFactsProps {
  kind: 'court' | 'game'
  /** The court's or the game's name. */
  place: string
  venue: { name: string; slug: string } | null
  /** YYYY-MM-DD, venue time. */
  date: string
  /** HH:mm. */
  start: string
  end: string
  /** The API's decimal string; omitted while unknown. */
  price?: string | null
  /** What the price is called ("Price", "To pay", "Price of the first week"). */
  priceLabel?: string
}

/** Venue, court (or game), date, time and price as a list of terms. */
export function SlotFacts(props: SlotFactsProps) {
  return (
    <dl class="slot-facts" data-testid="slot-facts">
      <dt>{t('slot.venue')}</dt>
      <dd>{props.venue ? <Link href={`/v/${props.venue.slug}`}>{props.venue.name}</Link> : '—'}</dd>
      <dt>{t(props.kind === 'court' ? 'slot.court' : 'slot.game')}</dt>
      <dd>{props.place}</dd>
      <dt>{t('slot.date')}</dt>
      <dd>{formatDate(props.date, { weekday: true })}</dd>
      <dt>{t('slot.time')}</dt>
      <dd>{formatDigits(`${props.start.slice(0, 5)}–${props.end.slice(0, 5)}`)}</dd>
      {props.price != null && (
        <>
          <dt>{props.priceLabel ?? t('slot.price')}</dt>
          <dd>{formatMoney(props.price)}</dd>
        </>
      )}
    </dl>
  )
}

/** Nepal's offset from UTC (Asia/Kathmandu has no daylight saving): +05:45. */
const NEPAL_OFFSET_MS = (5 * 60 + 45) * 60 * 1000

/** The instant a venue-local wall-clock time happens (venues are in Nepal, like dates.ts assumes). */
export function venueInstant(date: string, time: string): number {
  const [y, m, d] = date.split('-').map(Number)
  const [h, min] = time.split(':').map(Number)
  return Date.UTC(y, m - 1, d, h, min) - NEPAL_OFFSET_MS
}

/**
 * Whether cancelling a booking that starts at `date` `start` would refund nothing if it were
 * cancelled now: the service refunds a customer's cancel made at least `hours` before the start
 * (docs/bookings.md), so a start less than `hours` away is inside the window. 0 hours: always refunded.
 */
export function insideFreeCancellation(date: string, start: string, hours: number, now = Date.now()): boolean {
  return hours > 0 && venueInstant(date, start) - now < hours * 3600 * 1000
}

/** Said before paying when the booking starts inside the venue's free-cancellation window. */
export function RefundWarning({ date, start, hours }: { date: string; start: string; hours: number | null }) {
  if (hours === null || !insideFreeCancellation(date, start, hours)) return null
  return (
    <p class="notice warn" data-testid="refund-warning">
      <strong>{t('slot.noRefundTitle')}</strong> {t('slot.noRefund', { hours })}
    </p>
  )
}

/** "Pay by 07:44, 29 Nov 2026 · 14 Mangsir 2083" from a hold_expires_at (YYYY-MM-DD HH:mm:ss, venue time). */
export function payBy(holdExpiresAt: string): string {
  return t('slot.payBy', {
    time: formatDigits(holdExpiresAt.slice(11, 16)),
    date: formatDate(holdExpiresAt.slice(0, 10)),
  })
}
