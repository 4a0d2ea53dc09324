import { api, ok } from '../api.ts'
import { Outcome, useForm, useLoad } from '../components/forms.tsx'
import { localName, type MessageKey, t } from '../i18n/index.ts'
import { href } from '../router.ts'
import type { Venue } from '../session.ts'
import { roleName, untilText } from './onboarding/invitation.tsx'

/** The signed-in account's pending staff invitations (GET /api/me/invitations), each to accept here. */
function MyInvitations() {
  const mine = useLoad(() => ok(api().GET('/api/me/invitations')).then((r) => r.data), [])
  const f = useForm({})
  if (!mine.data?.length && !f.notice) return null
  return (
    <section aria-labelledby="my-invitations">
      <h2 id="my-invitations">{t('venues.invitations')}</h2>
      <Outcome error={f.error} notice={f.notice} />
      <ul class="venue-list">
        {(mine.data ?? []).map((inv) => (
          <li key={inv.id}>
            <span>
              <strong>{localName(inv.venue)}</strong>
              {t('venues.invites', { role: roleName(inv.role), until: untilText(inv.expires_at.slice(0, 16)) })}
            </span>{' '}
            <button
              type="button"
              class="primary"
              disabled={f.busy}
              onClick={() =>
                f.submit(async () => {
                  await ok(
                    api().POST('/api/me/invitations/{invitation}/accept', {
                      params: { path: { invitation: String(inv.id) } },
                    }),
                  )
                  location.hash = `/venues/${inv.venue.id}/board`
                  location.reload()
                  return undefined
                })
              }
            >
              {t('venues.accept')} <span class="sr-only">{t('venues.acceptOf', { venue: localName(inv.venue) })}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** Choose one of my venues. */
export function VenueChooser({ venues }: { venues: Venue[] }) {
  if (venues.length === 0) {
    return (
      <section>
        <h1>{t('venues.none')}</h1>
        <MyInvitations />
        <p>{t('venues.noneExplain')}</p>
        <ul>
          <li>
            {t('venues.ownOne')} <a href={href('/new-venue')}>{t('venues.addYours')}</a>
            {t('venues.addExplain')}
          </li>
          <li>{t('venues.workAtOne')}</li>
        </ul>
      </section>
    )
  }
  return (
    <section>
      <h1>{t('venues.choose')}</h1>
      <MyInvitations />
      <ul class="venue-list">
        {venues.map((v) => (
          <li key={v.id}>
            <a href={href(`/venues/${v.id}/board`)}>
              <strong>{localName(v)}</strong>
              <span>
                {v.address}, {v.city}
              </span>
              <span class="muted">{t(`venues.status.${v.verification_status}` as MessageKey)}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  )
}
