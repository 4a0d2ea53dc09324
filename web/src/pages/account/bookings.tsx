import { useState } from 'preact/hooks'
import { api, ok } from '../../api.ts'
import { Field, formValues, Loaded, Outcome, SignedIn, useAction, useLoad } from '../../components/account.tsx'
import { payBy } from '../../components/slot-facts.tsx'
import { formatDate, formatDigits, formatMoney, formatTime, t } from '../../i18n/index.ts'
import { Link } from '../../router.ts'
import { bookingPath, loadMyBookings, type MyBooking, payable, UPCOMING } from './bookings-data.ts'
import { CalendarLink } from './calendar.tsx'
import { ReviewForm } from './review.tsx'

/** My bookings: upcoming and past, court and indoor; cancel (refund quote first), review, repeat weekly. */
export function MyBookingsPage() {
  return (
    <SignedIn title={t('bookings.title')}>
      <MyBookings />
    </SignedIn>
  )
}

function MyBookings() {
  const [pages, setPages] = useState(1)
  const state = useLoad(() => loadMyBookings(pages), [pages])
  const [tab, setTab] = useState<'upcoming' | 'past'>('upcoming')
  // What the last change did, worded in the language shown now (a switch rewords it).
  const [done, setDone] = useState<(() => string) | null>(null)
  return (
    <section>
      <h1>{t('bookings.title')}</h1>
      {done && (
        <p role="status" class="notice">
          {done()}
        </p>
      )}
      <Loaded state={state}>
        {({ items, savedAt, more }) => {
          const upcoming = items.filter((b) => UPCOMING.has(b.status))
          const past = items.filter((b) => !UPCOMING.has(b.status))
          const shown = tab === 'upcoming' ? upcoming : past
          // One review per customer and venue: once one of its bookings has it, the venue is done.
          const reviewed = new Set(items.filter((b) => b.review).map((b) => b.venueId))
          return (
            <>
              {savedAt && (
                <p class="offline" role="status">
                  {t('bookings.savedCopy', { when: `${formatDate(savedAt)} ${formatTime(savedAt)}` })}
                </p>
              )}
              <fieldset class="tabs">
                <legend class="sr-only">{t('bookings.title')}</legend>
                <button
                  type="button"
                  class={tab === 'upcoming' ? undefined : 'secondary'}
                  aria-pressed={tab === 'upcoming'}
                  onClick={() => setTab('upcoming')}
                >
                  {t('bookings.upcoming')} ({formatDigits(String(upcoming.length))})
                </button>
                <button
                  type="button"
                  class={tab === 'past' ? undefined : 'secondary'}
                  aria-pressed={tab === 'past'}
                  onClick={() => setTab('past')}
                >
                  {t('bookings.past')} ({formatDigits(String(past.length))})
                </button>
              </fieldset>
              {shown.length === 0 && <p>{t(tab === 'upcoming' ? 'bookings.noneUpcoming' : 'bookings.nonePast')}</p>}
              <ul class="cards">
                {shown.map((b) => (
                  <BookingCard
                    key={`${b.kind}-${b.id}`}
                    booking={b}
                    offline={!!savedAt}
                    venueReviewed={reviewed.has(b.venueId)}
                    onChanged={(message) => {
                      setDone(() => message)
                      state.reload()
                    }}
                  />
                ))}
              </ul>
              {tab === 'past' && more && !savedAt && (
                <button type="button" class="secondary" onClick={() => setPages((n) => n + 1)}>
                  {t('common.more')}
                </button>
              )}
            </>
          )
        }}
      </Loaded>
      <h2>{t('series.title')}</h2>
      <p>
        <Link href="/bookings/series">{t('series.intro')}</Link>
      </p>
      <CalendarLink />
    </section>
  )
}

function BookingCard({
  booking: b,
  offline,
  venueReviewed,
  onChanged,
}: {
  booking: MyBooking
  offline: boolean
  venueReviewed: boolean
  onChanged: (message: () => string) => void
}) {
  const [open, setOpen] = useState<'cancel' | 'review' | null>(null)
  const headingId = `booking-${b.kind}-${b.id}`
  const cancellable = (b.status === 'pending' || b.status === 'confirmed') && !offline
  const reviewable = b.status === 'completed' && b.venueId !== null && !venueReviewed && !offline
  return (
    <li class="card booking" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {b.venueName ? `${b.venueName} · ` : ''}
        {b.place}
      </h3>
      <p>
        {t('bookings.when', {
          date: formatDate(b.date, { weekday: true }),
          from: formatDigits(b.start),
          to: formatDigits(b.end),
        })}
      </p>
      <p>
        <span class={`status status-${b.status}`}>{t(`status.${b.status}`)}</span>{' '}
        <span class="muted">{t('bookings.number', { number: b.number })}</span>
      </p>
      <p>{t('bookings.total', { amount: formatMoney(b.total) })}</p>
      {payable(b) && !offline && b.holdExpiresAt && (
        <p class="pay-due" data-testid="pay-by">
          {payBy(b.holdExpiresAt)}
        </p>
      )}
      {b.review && <p class="muted">{t('bookings.reviewed', { rating: b.review.rating })}</p>}
      <div class="actions">
        {payable(b) && !offline && (
          <Link class="button" href={bookingPath(b.kind, b.id)}>
            {t('held.payNow')}
          </Link>
        )}
        {cancellable && open !== 'cancel' && (
          <button type="button" class="secondary" onClick={() => setOpen('cancel')}>
            {t('bookings.cancel')}
          </button>
        )}
        {reviewable && open !== 'review' && (
          <button type="button" class="secondary" onClick={() => setOpen('review')}>
            {t('bookings.review')}
          </button>
        )}
        {b.kind === 'court' && b.courtId !== null && !offline && (
          <Link
            class="button secondary"
            href={`/bookings/series/new?court=${b.courtId}&date=${b.date}&from=${b.start}&to=${b.end}`}
          >
            {t('series.new')}
          </Link>
        )}
        {b.seriesId !== null && (
          <Link class="button secondary" href={`/bookings/series/${b.seriesId}`}>
            {t('bookings.series')}
          </Link>
        )}
      </div>
      {open === 'cancel' && <CancelPanel booking={b} onClose={() => setOpen(null)} onCancelled={onChanged} />}
      {open === 'review' && b.venueId !== null && (
        <ReviewForm
          venueId={b.venueId}
          venueName={b.venueName ?? b.place}
          bookingId={b.kind === 'court' ? b.id : undefined}
          onDone={onChanged}
        />
      )}
    </li>
  )
}

/** The refund quote first (GET …/cancellation), then the cancel itself (PATCH …/cancel). */
function CancelPanel({
  booking: b,
  onClose,
  onCancelled,
}: {
  booking: MyBooking
  onClose: () => void
  onCancelled: (message: () => string) => void
}) {
  const quote = useLoad(() => {
    const id = String(b.id)
    return b.kind === 'court'
      ? ok(api().GET('/api/bookings/{booking}/cancellation', { params: { path: { booking: id } } }))
      : ok(
          api().GET('/api/indoor-game-bookings/{indoorGameBooking}/cancellation', {
            params: { path: { indoorGameBooking: id } },
          }),
        )
  }, [b.kind, b.id])
  const action = useAction()
  const titleId = `cancel-${b.kind}-${b.id}`
  return (
    <section class="panel" aria-labelledby={titleId}>
      <h4 id={titleId}>{t('cancel.title')}</h4>
      {quote.data === null && !quote.error && <p aria-busy="true">{t('cancel.quoteLoading')}</p>}
      {quote.error && <p role="alert">{quote.error}</p>}
      {quote.data && (
        <form
          onSubmit={(e) => {
            const v = formValues(e)
            action.run(async () => {
              const id = String(b.id)
              const answer =
                b.kind === 'court'
                  ? await ok(
                      api().PATCH('/api/bookings/{booking}/cancel', {
                        params: { path: { booking: id } },
                        body: { reason: v.reason || null },
                      }),
                    )
                  : await ok(
                      api().PATCH('/api/indoor-game-bookings/{indoorGameBooking}/cancel', {
                        params: { path: { indoorGameBooking: id } },
                        body: { cancel_reason: v.reason || null },
                      }),
                    )
              onCancelled(() => t('cancel.done', { amount: formatMoney(answer.refund_amount) }))
            })
          }}
        >
          <dl class="quote">
            <div>
              <dt>{t('cancel.paid')}</dt>
              <dd>{formatMoney(b.paid)}</dd>
            </div>
            <div>
              <dt>{t('cancel.refund')}</dt>
              <dd data-testid="refund">{formatMoney(quote.data.data.refund_amount)}</dd>
            </div>
          </dl>
          <p class="muted">{quote.data.data.reason}</p>
          {quote.data.data.cancellable ? (
            <>
              <Field label={`${t('cancel.reason')} ${t('common.optional')}`} name="reason" maxLength={500} />
              <Outcome notice={action.notice} message={action.message} />
              <div class="actions">
                <button type="submit" class="danger" disabled={action.busy}>
                  {t('cancel.confirm')}
                </button>
                <button type="button" class="secondary" onClick={onClose}>
                  {t('cancel.keep')}
                </button>
              </div>
            </>
          ) : (
            <>
              <p role="alert">{t('cancel.notAllowed')}</p>
              <button type="button" class="secondary" onClick={onClose}>
                {t('common.close')}
              </button>
            </>
          )}
        </form>
      )}
    </section>
  )
}
