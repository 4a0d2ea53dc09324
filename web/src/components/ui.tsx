import type { ComponentChildren } from 'preact'
import { messageOf } from '../api.ts'
import { formatDigits, t } from '../i18n/index.ts'

/** A region that is loading (announced politely). */
export function Loading() {
  return (
    <p class="muted" aria-busy="true" aria-live="polite">
      {t('app.loading')}
    </p>
  )
}

/** A failure, announced at once. */
export function Failure({ error }: { error: unknown }) {
  return (
    <p role="alert" class="error">
      {messageOf(error)}
    </p>
  )
}

/** A notice of success or information, announced politely. */
export function Notice({ children, kind = 'info' }: { children: ComponentChildren; kind?: 'info' | 'ok' }) {
  return (
    <p role="status" class={`notice ${kind}`}>
      {children}
    </p>
  )
}

/** A rating out of 5 as stars, with the number for screen readers. */
export function Stars({ rating, count }: { rating: number; count?: number | null }) {
  const rounded = Math.round(rating)
  const label = t('venue.rating', { rating: formatDigits(rating.toFixed(1)) })
  return (
    <span class="stars">
      <span aria-hidden="true">{'★'.repeat(rounded) + '☆'.repeat(5 - rounded)}</span>
      <span class="sr-only">{label}</span> <span aria-hidden="true">{formatDigits(rating.toFixed(1))}</span>
      {count != null && <span class="muted"> ({t('venue.reviewsCount', { count })})</span>}
    </span>
  )
}
