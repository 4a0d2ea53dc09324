import { api, ok } from '../../api.ts'
import { Outcome, Section, TextAreaField, useForm, useLoad } from '../../components/forms.tsx'
import { Loading, Notice } from '../../components/ui.tsx'
import { digits, type MessageKey, t } from '../../i18n/index.ts'
import type { TabProps } from './index.tsx'

// The venue's verification: its status, and the owner's request (unverified or rejected → pending)
// with a note for the reviewer. Pending and verified venues cannot ask again.

const STATUS: Record<string, MessageKey> = {
  unverified: 'verification.unverified',
  pending: 'verification.pending',
  verified: 'verification.verified',
  rejected: 'verification.rejected',
}

export function VerificationTab({ venue, onVenueChanged }: TabProps) {
  const venueId = String(venue.id)
  const fresh = useLoad(
    () => ok(api().GET('/api/venues/{venue}', { params: { path: { venue: venueId } } })).then((r) => r.data),
    [venueId],
  )
  const f = useForm({ note: '' })
  if (fresh.error) return <Notice kind="error">{fresh.error}</Notice>
  if (!fresh.data) return <Loading what={t('verification.loading')} />
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
      <Section title={t('manage.verification')}>
        <Outcome error={f.error} notice={f.notice} />
        <dl class="facts">
          <dt>{t('common.status')}</dt>
          <dd>
            <strong class={`status status-${v.verification_status}`}>
              {v.verification_status in STATUS ? t(STATUS[v.verification_status]) : v.verification_status}
            </strong>
          </dd>
          {v.verification_requested_at && (
            <>
              <dt>{t('verification.requested')}</dt>
              <dd>{digits(v.verification_requested_at)}</dd>
            </>
          )}
          {v.verification_reviewed_at && (
            <>
              <dt>{t('verification.reviewed')}</dt>
              <dd>{digits(v.verification_reviewed_at)}</dd>
            </>
          )}
          {v.verification_note && (
            <>
              <dt>{t('verification.note')}</dt>
              <dd>{v.verification_note}</dd>
            </>
          )}
        </dl>
        {v.verification_status === 'pending' && <p>{t('verification.withTeam')}</p>}
        {v.verification_status === 'verified' && <p>{t('verification.seenVerified')}</p>}
        {canRequest && (
          <form onSubmit={request}>
            <TextAreaField label={t('verification.noteLabel')} hint={t('verification.noteHint')} {...f.bind('note')} />
            <div class="actions">
              <button type="submit" class="primary" disabled={f.busy}>
                {t('verification.request')}
              </button>
            </div>
          </form>
        )}
      </Section>
    </div>
  )
}
