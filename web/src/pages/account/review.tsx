import { useId } from 'preact/hooks'
import { api, ok } from '../../api.ts'
import { formValues, Outcome, useAction } from '../../components/account.tsx'
import { formatDigits, t } from '../../i18n/index.ts'

/** A review of the venue after playing (POST /api/venues/{venue}/reviews, one per customer and venue). */
export function ReviewForm({
  venueId,
  venueName,
  bookingId,
  onDone,
}: {
  venueId: number
  venueName: string
  bookingId?: number
  onDone: (message: () => string) => void
}) {
  const action = useAction()
  const id = useId()
  return (
    <form
      class="panel"
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        const v = formValues(e)
        action.run(async () => {
          await ok(
            api().POST('/api/venues/{venue}/reviews', {
              params: { path: { venue: String(venueId) } },
              body: { rating: Number(v.rating), comment: v.comment || null, booking_id: bookingId ?? null },
            }),
          )
          onDone(() => t('review.thanks'))
        })
      }}
    >
      <h4 id={`${id}-title`}>{t('review.title', { venue: venueName })}</h4>
      <fieldset class="options rating">
        <legend>{t('review.rating')}</legend>
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n}>
            <input type="radio" name="rating" value={n} required defaultChecked={n === 5} />
            <span aria-hidden="true">{'★'.repeat(n)}</span>
            <span class="sr-only">{t('review.stars', { n })}</span>
            <span aria-hidden="true"> {formatDigits(String(n))}</span>
          </label>
        ))}
      </fieldset>
      <label for={`${id}-comment`}>
        {t('review.comment')} {t('common.optional')}
      </label>
      <textarea id={`${id}-comment`} name="comment" rows={3} maxLength={2000} />
      <Outcome notice={action.notice} message={action.message} />
      <button type="submit" disabled={action.busy}>
        {t('review.submit')}
      </button>
    </form>
  )
}
