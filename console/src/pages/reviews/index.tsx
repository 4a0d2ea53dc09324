import { useState } from 'preact/hooks'
import { api, ok, type Schemas, type User } from '../../api.ts'
import { Outcome, PagedList, TextAreaField, useForm, useLoad } from '../../components/forms.tsx'
import { Notice, RowAction, SelectField } from '../../components/ui.tsx'
import { digits, localName, t } from '../../i18n/index.ts'
import { momentText } from '../../i18n/moments.ts'
import { href } from '../../router.ts'
import { managesVenue, type Venue } from '../../session.ts'

// The venue's reviews for its owner and managers (issue 35): every review, hidden ones included,
// unanswered first (GET /api/venues/{venue}/reviews/moderation), filtered by rating and by
// visibility; a reply under each (POST /api/reviews/{review}/replies), hide and show again
// (PATCH /api/admin/reviews/{review}/hide, /approve), and the review's photos.

type Review = Schemas['Review']

const ratings = () => [
  { value: '', label: t('reviews.anyRating') },
  ...[5, 4, 3, 2, 1].map((n) => ({ value: String(n), label: t(n === 1 ? 'reviews.star' : 'reviews.stars', { n }) })),
]
const statuses = () => [
  { value: '', label: t('reviews.shownAndHidden') },
  { value: 'approved', label: t('reviews.shownPublicly') },
  { value: 'hidden', label: t('reviews.hidden') },
]

export function ReviewsPage({ user, venue }: { user: User; venue: Venue }) {
  const venueId = String(venue.id)
  const [rating, setRating] = useState('')
  const [status, setStatus] = useState('')
  const [page, setPage] = useState(1)
  const list = useLoad(
    () =>
      managesVenue(user, venue)
        ? ok(
            api().GET('/api/venues/{venue}/reviews/moderation', {
              params: {
                path: { venue: venueId },
                query: {
                  page,
                  per_page: 10,
                  ...(rating ? { rating: Number(rating) } : {}),
                  ...(status ? { status: status as 'approved' | 'hidden' } : {}),
                },
              },
            }),
          )
        : Promise.resolve(null),
    [venueId, rating, status, page],
  )
  if (!managesVenue(user, venue)) {
    return (
      <section>
        <h1>{t('reviews.title', { venue: localName(venue) })}</h1>
        <Notice kind="error">{t('reviews.staffRefused')}</Notice>
        <p>
          <a href={href(`/venues/${venue.id}/board`)}>{t('common.backToBoard')}</a>
        </p>
      </section>
    )
  }
  return (
    <section>
      <h1>{t('reviews.title', { venue: localName(venue) })}</h1>
      <p class="muted">{t('reviews.order')}</p>
      <div class="row">
        <SelectField
          label={t('reviews.rating')}
          options={ratings()}
          value={rating}
          onChange={(e) => {
            setRating(e.currentTarget.value)
            setPage(1)
          }}
        />
        <SelectField
          label={t('reviews.visibility')}
          options={statuses()}
          value={status}
          onChange={(e) => {
            setStatus(e.currentTarget.value)
            setPage(1)
          }}
        />
      </div>
      <PagedList
        state={list}
        loading={t('reviews.loading')}
        empty={t('reviews.none')}
        label={t('reviews.pages')}
        onPage={setPage}
      >
        {(rows) => (
          <ul class="review-list">
            {rows.map((r) => (
              <li key={r.id}>
                <ReviewCard review={r} onChanged={list.reload} />
              </li>
            ))}
          </ul>
        )}
      </PagedList>
    </section>
  )
}

/** "Sita Sharma, 2026-11-20 18:02": names one review in its buttons' and fields' accessible names. */
const whose = (r: Review) => `${r.user.name}, ${digits(r.created_at.slice(0, 16))}`
/** When a review or reply was written: as the API wrote it in English, with the BS date in Nepali. */
const written = (instant: string) => momentText(instant, instant.slice(0, 16))

function ReviewCard({ review: r, onChanged }: { review: Review; onChanged: () => void }) {
  const f = useForm({ reply: '' })
  const moderate = useForm({})
  const answered = r.replies.length > 0

  async function sendReply(e: Event) {
    e.preventDefault()
    const done = await f.submit(async () => {
      await ok(
        api().POST('/api/reviews/{review}/replies', {
          params: { path: { review: String(r.id) } },
          body: { reply: f.values.reply },
        }),
      )
      return undefined
    })
    if (done) {
      f.setValues({ reply: '' })
      onChanged()
    }
  }

  async function toggle() {
    const path = { params: { path: { review: String(r.id) } } }
    const done = await moderate.submit(async () => {
      await ok(
        r.is_approved
          ? api().PATCH('/api/admin/reviews/{review}/hide', path)
          : api().PATCH('/api/admin/reviews/{review}/approve', path),
      )
      return undefined
    })
    if (done) onChanged()
  }

  return (
    <article class="card review" aria-label={t('reviews.reviewBy', { who: whose(r) })}>
      <header class="row">
        <p class="strong">
          <span aria-hidden="true">{'★'.repeat(r.rating) + '☆'.repeat(5 - r.rating)}</span>
          <span class="sr-only">{t('reviews.ofFive', { n: r.rating })}</span> · {r.user.name}
        </p>
        <p class="muted">{written(r.created_at)}</p>
        <p class={r.is_approved ? 'status-verified' : 'status-suspended'}>
          {r.is_approved ? t('reviews.shown') : t('reviews.hidden')}
        </p>
        {!answered && <p class="status-pending">{t('reviews.unanswered')}</p>}
      </header>
      {r.comment ? <p>{r.comment}</p> : <p class="muted">{t('reviews.noComment')}</p>}
      {r.images.length > 0 && (
        <ul class="review-photos" aria-label={t('reviews.photosOf', { who: whose(r) })}>
          {r.images.map((img, i) => (
            <li key={img.id}>
              <a href={img.url} target="_blank" rel="noreferrer">
                <img
                  src={img.url}
                  alt={t('reviews.photoAlt', { n: i + 1, total: r.images.length, name: r.user.name })}
                  loading="lazy"
                />
              </a>
            </li>
          ))}
        </ul>
      )}
      {answered && (
        <ul class="replies" aria-label={t('reviews.repliesTo', { who: whose(r) })}>
          {r.replies.map((rep) => (
            <li key={rep.id}>
              <span class="strong">{rep.user.name}</span> <span class="muted">{written(rep.created_at)}</span>
              <p>{rep.reply}</p>
            </li>
          ))}
        </ul>
      )}
      <Outcome error={moderate.error} notice={null} />
      <form class="subform" onSubmit={sendReply}>
        <Outcome error={f.error && !f.fieldError('reply') ? f.error : null} notice={f.notice} />
        <TextAreaField label={t('reviews.replyTo', { who: whose(r) })} rows={2} {...f.bind('reply')} />
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy || f.values.reply.trim() === ''}>
            {t('reviews.send')} <span class="sr-only">{t('reviews.sendTo', { who: whose(r) })}</span>
          </button>
          <RowAction
            label={r.is_approved ? t('reviews.hide') : t('reviews.showAgain')}
            of={t('reviews.theReviewBy', { who: whose(r) })}
            onClick={toggle}
            disabled={moderate.busy}
          />
        </div>
      </form>
    </article>
  )
}
