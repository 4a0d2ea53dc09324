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
import { Dialog, RowAction } from '../../components/ui.tsx'

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
    <Section title="Verification queue">
      <Outcome error={f.error} notice={f.notice} />
      <PagedList
        state={queue}
        loading="Loading the queue"
        empty="No venue is waiting for verification."
        label="Verification queue pages"
        onPage={setPage}
      >
        {(rows) => (
          <Table
            caption="Venues waiting for verification"
            columns={['Venue', 'Place', 'Contact', 'Requested', 'Note', 'Actions']}
          >
            {rows.map((v) => (
              <tr key={v.id}>
                <td>
                  <strong>{v.name}</strong>
                </td>
                <td>
                  {v.address}, {v.city}
                </td>
                <td>
                  {v.phone ?? ''} {v.email ?? ''}
                </td>
                <td>{v.verification_requested_at ?? ''}</td>
                <td>{v.verification_note ?? ''}</td>
                <td class="row-actions">
                  <RowAction label="Review and approve" of={v.name} onClick={() => setReviewing(v)} primary />
                  <RowAction label="Reject" of={v.name} onClick={() => setRejecting(v)} />
                </td>
              </tr>
            ))}
          </Table>
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
      onDone(`${venue.name}: ${answer.message}`)
      return undefined
    })
  }
  return (
    <Dialog title={`Reject ${venue.name}?`} onClose={onClose}>
      <form onSubmit={reject}>
        <Outcome error={f.error} notice={f.notice} />
        <TextAreaField label="Reason" hint="The owner sees this on their Verification page." {...f.bind('reason')} />
        <FormActions submit="Reject verification" busy={f.busy} danger />
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
      onDone(`${venue.name}: ${answer.message}`)
      return undefined
    })
  }
  return (
    <Dialog title={`Approve ${venue.name}?`} onClose={onClose}>
      <Outcome error={f.error} notice={f.notice} />
      <p>Approving makes the venue public: players find it and book its courts. Check what the owner set up.</p>
      <dl class="facts">
        <dt>Address</dt>
        <dd>
          {venue.address}, {venue.city}, {venue.state}
        </dd>
        <dt>Contact</dt>
        <dd>{[venue.phone, venue.email].filter(Boolean).join(', ') || 'None given'}</dd>
        <dt>Venue hours</dt>
        <dd>
          {venue.opening_time.slice(0, 5)}–{venue.closing_time.slice(0, 5)}
        </dd>
        {venue.description && (
          <>
            <dt>Description</dt>
            <dd>{venue.description}</dd>
          </>
        )}
        {venue.verification_note && (
          <>
            <dt>Owner's note</dt>
            <dd>{venue.verification_note}</dd>
          </>
        )}
      </dl>
      <h3>Photos</h3>
      {photos.length === 0 ? (
        <p>No photos.</p>
      ) : (
        <ul class="review-photos">
          {photos.map((img) => (
            <li key={img.id}>
              <img src={img.thumb_url} alt={`${venue.name}, ${img.collection} ${img.id}`} />
            </li>
          ))}
        </ul>
      )}
      <h3>Courts, hours and prices</h3>
      <Loaded state={courts} loading="Loading the courts" empty="No courts yet.">
        {(list) => list.map((c) => <CourtWeek key={c.id} court={c} />)}
      </Loaded>
      <div class="actions">
        <button type="button" class="primary" disabled={f.busy} onClick={approve}>
          Approve venue
        </button>
      </div>
    </Dialog>
  )
}
