import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { CourtWeek } from '../../components/court-week.tsx'
import {
  FormActions,
  Loaded,
  Outcome,
  PagedList,
  Section,
  Table,
  TextAreaField,
  useForm,
  useLoad,
} from '../../components/forms.tsx'
import { ScrollBox } from '../../components/scroll.tsx'
import { Dialog, RowAction } from '../../components/ui.tsx'
import { digits, localName, t } from '../../i18n/index.ts'
import { momentText } from '../../i18n/moments.ts'

// Venues waiting for verification, oldest request first: review (the venue's details, photos,
// courts with their weekly hours and prices) and approve after confirming, or reject with a reason
// the owner sees on their Verification page.

type Venue = Schemas['Venue']

export function VerificationQueue() {
  const [page, setPage] = useState(1)
  const queue = useLoad(
    () => ok(api().GET('/api/admin/venues/verification-requests', { params: { query: { page, per_page: 20 } } })),
    [page],
  )
  const f = useForm({})
  const [rejecting, setRejecting] = useState<Venue | null>(null)
  const [reviewing, setReviewing] = useState<Venue | null>(null)

  return (
    <Section title={t('admin.queue')}>
      <Outcome error={f.error} notice={f.notice} />
      <PagedList
        state={queue}
        loading={t('admin.loadingQueue')}
        empty={t('admin.queueEmpty')}
        label={t('admin.queuePages')}
        onPage={setPage}
      >
        {(rows) => (
          <ScrollBox label={t('admin.queueScroll')}>
            <Table
              caption={t('admin.queueCaption')}
              columns={[
                t('admin.venue'),
                t('admin.place'),
                t('admin.contact'),
                t('admin.requested'),
                t('admin.note'),
                t('admin.actions'),
              ]}
            >
              {rows.map((v) => (
                <tr key={v.id}>
                  <td>
                    <strong>{localName(v)}</strong>
                  </td>
                  <td>
                    {v.address}, {v.city}
                  </td>
                  <td>
                    {v.phone ?? ''} {v.email ?? ''}
                  </td>
                  <td>
                    {v.verification_requested_at
                      ? momentText(v.verification_requested_at, v.verification_requested_at)
                      : ''}
                  </td>
                  <td>{v.verification_note ?? ''}</td>
                  <td class="row-actions">
                    <RowAction
                      label={t('admin.reviewApprove')}
                      of={localName(v)}
                      onClick={() => setReviewing(v)}
                      primary
                    />
                    <RowAction label={t('admin.reject')} of={localName(v)} onClick={() => setRejecting(v)} />
                  </td>
                </tr>
              ))}
            </Table>
          </ScrollBox>
        )}
      </PagedList>
      {reviewing && (
        <ReviewDialog
          venue={reviewing}
          onClose={() => setReviewing(null)}
          onDone={(message) => {
            setReviewing(null)
            f.setError(null)
            f.setNotice(message)
            queue.reload()
          }}
        />
      )}
      {rejecting && (
        <RejectDialog
          venue={rejecting}
          onClose={() => setRejecting(null)}
          onDone={(message) => {
            setRejecting(null)
            f.setError(null)
            f.setNotice(message)
            queue.reload()
          }}
        />
      )}
    </Section>
  )
}

function RejectDialog({
  venue,
  onClose,
  onDone,
}: {
  venue: Venue
  onClose: () => void
  onDone: (message: string) => void
}) {
  const f = useForm({ reason: '' })
  async function reject(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      const answer = await ok(
        api().POST('/api/admin/venues/{venue}/verification/reject', {
          params: { path: { venue: String(venue.id) } },
          body: { reason: f.values.reason.trim() || null },
        }),
      )
      onDone(`${localName(venue)}: ${answer.message}`)
      return undefined
    })
  }
  return (
    <Dialog title={t('admin.rejectTitle', { name: localName(venue) })} onClose={onClose}>
      <form onSubmit={reject}>
        <Outcome error={f.error} notice={f.notice} />
        <TextAreaField label={t('admin.reason')} hint={t('admin.reasonHint')} {...f.bind('reason')} />
        <FormActions submit={t('admin.rejectVerification')} busy={f.busy} danger />
      </form>
    </Dialog>
  )
}

/**
 * What the owner set up, for the reviewer to check before approving: details, photos, and each
 * court's week (GET /api/venues/{venue}/courts, which a super_admin reads while the venue is
 * hidden). Approving happens only from here, after reading it.
 */
function ReviewDialog({
  venue,
  onClose,
  onDone,
}: {
  venue: Venue
  onClose: () => void
  onDone: (message: string) => void
}) {
  const courts = useLoad(
    () =>
      ok(api().GET('/api/venues/{venue}/courts', { params: { path: { venue: String(venue.id) } } })).then(
        (r) => r.data,
      ),
    [venue.id],
  )
  const f = useForm({})
  const photos = [...(venue.thumbnail ? [venue.thumbnail] : []), ...venue.gallery]
  async function approve() {
    await f.submit(async () => {
      const answer = await ok(
        api().POST('/api/admin/venues/{venue}/verification/approve', {
          params: { path: { venue: String(venue.id) } },
        }),
      )
      onDone(`${localName(venue)}: ${answer.message}`)
      return undefined
    })
  }
  return (
    <Dialog title={t('admin.approveTitle', { name: localName(venue) })} onClose={onClose}>
      <Outcome error={f.error} notice={f.notice} />
      <p>{t('admin.approveExplain')}</p>
      <dl class="facts">
        <dt>{t('admin.address')}</dt>
        <dd>
          {venue.address}, {venue.city}, {venue.state}
        </dd>
        <dt>{t('admin.contact')}</dt>
        <dd>{[venue.phone, venue.email].filter(Boolean).join(', ') || t('admin.noneGiven')}</dd>
        <dt>{t('admin.hours')}</dt>
        <dd>{digits(`${venue.opening_time.slice(0, 5)}–${venue.closing_time.slice(0, 5)}`)}</dd>
        {venue.description && (
          <>
            <dt>{t('admin.description')}</dt>
            <dd>{venue.description}</dd>
          </>
        )}
        {venue.verification_note && (
          <>
            <dt>{t('admin.ownersNote')}</dt>
            <dd>{venue.verification_note}</dd>
          </>
        )}
      </dl>
      <h3>{t('admin.photos')}</h3>
      {photos.length === 0 ? (
        <p>{t('admin.noPhotos')}</p>
      ) : (
        <ul class="review-photos">
          {photos.map((img) => (
            <li key={img.id}>
              <img
                src={img.thumb_url}
                alt={`${localName(venue)}, ${img.collection === 'thumbnail' ? t('admin.thumbnail') : t('admin.gallery')} ${digits(String(img.id))}`}
              />
            </li>
          ))}
        </ul>
      )}
      <h3>{t('admin.courts')}</h3>
      <Loaded state={courts} loading={t('admin.loadingCourts')} empty={t('admin.noCourts')}>
        {(list) => list.map((c) => <CourtWeek key={c.id} court={c} />)}
      </Loaded>
      <div class="actions">
        <button type="button" class="primary" disabled={f.busy} onClick={approve}>
          {t('admin.approve')}
        </button>
      </div>
    </Dialog>
  )
}
