import { api, ok } from '../../api.ts'
import { Outcome, Section, TextAreaField, useForm, useLoad } from '../../components/forms.tsx'
import { Loading, Notice } from '../../components/ui.tsx'
import type { TabProps } from './index.tsx'

// The venue's verification: its status, and the owner's request (unverified or rejected → pending)
// with a note for the reviewer. Pending and verified venues cannot ask again.

const STATUS: Record<string, string> = {
  unverified: 'Not verified',
  pending: 'Waiting for review',
  verified: 'Verified',
  rejected: 'Rejected',
}

export function VerificationTab({ venue, onVenueChanged }: TabProps) {
  const venueId = String(venue.id)
  const fresh = useLoad(
    () => ok(api().GET('/api/venues/{venue}', { params: { path: { venue: venueId } } })).then((r) => r.data),
    [venueId],
  )
  const f = useForm({ note: '' })
  if (fresh.error) return <Notice kind="error">{fresh.error}</Notice>
  if (!fresh.data) return <Loading what="Loading the verification status" />
  const v = fresh.data
  const canRequest = v.verification_status === 'unverified' || v.verification_status === 'rejected'
  async function request(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      const answer = await ok(
        api().POST('/api/venues/{venue}/verification/request', {
          params: { path: { venue: venueId } },
          body: { note: f.values.note.trim() || null },
        }),
      )
      fresh.reload()
      onVenueChanged()
      return answer.message
    })
  }
  return (
    <div class="manage-stack">
      <Section title="Verification">
        <Outcome error={f.error} notice={f.notice} />
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <strong class={`status status-${v.verification_status}`}>{STATUS[v.verification_status]}</strong>
          </dd>
          {v.verification_requested_at && (
            <>
              <dt>Requested</dt>
              <dd>{v.verification_requested_at}</dd>
            </>
          )}
          {v.verification_reviewed_at && (
            <>
              <dt>Reviewed</dt>
              <dd>{v.verification_reviewed_at}</dd>
            </>
          )}
          {v.verification_note && (
            <>
              <dt>Note</dt>
              <dd>{v.verification_note}</dd>
            </>
          )}
        </dl>
        {v.verification_status === 'pending' && (
          <p>The request is with the Courtside team. You will see their answer here.</p>
        )}
        {v.verification_status === 'verified' && <p>Customers see this venue as verified.</p>}
        {canRequest && (
          <form onSubmit={request}>
            <TextAreaField
              label="Note for the reviewer"
              hint="For example your registration number or when to call."
              {...f.bind('note')}
            />
            <div class="actions">
              <button type="submit" class="primary" disabled={f.busy}>
                Request verification
              </button>
            </div>
          </form>
        )}
      </Section>
    </div>
  )
}
