import { api, ok } from '../api.ts'
import { Outcome, useForm, useLoad } from '../components/forms.tsx'
import { href } from '../router.ts'
import type { Venue } from '../session.ts'

/** The signed-in account's pending staff invitations (GET /api/me/invitations), each to accept here. */
function MyInvitations() {
  const mine = useLoad(() => ok(api().GET('/api/me/invitations')).then((r) => r.data), [])
  const f = useForm({})
  if (!mine.data?.length && !f.notice) return null
  return (
    <section aria-labelledby="my-invitations">
      <h2 id="my-invitations">Invitations for you</h2>
      <Outcome error={f.error} notice={f.notice} />
      <ul class="venue-list">
        {(mine.data ?? []).map((inv) => (
          <li key={inv.id}>
            <span>
              <strong>{inv.venue.name}</strong> invites you to work there as {inv.role} (valid until{' '}
              {inv.expires_at.slice(0, 16)}).
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
              Accept <span class="sr-only">the invitation of {inv.venue.name}</span>
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
        <h1>No venues yet</h1>
        <MyInvitations />
        <p>This account does not work at any venue yet.</p>
        <ul>
          <li>
            Own or run a venue? <a href={href('/new-venue')}>Add your venue</a>: its details, courts, hours and prices,
            and photos, then ask the Courtside team to verify it.
          </li>
          <li>Work at one? Ask its owner to invite you; the invitation comes by email and shows here.</li>
        </ul>
      </section>
    )
  }
  return (
    <section>
      <h1>Choose a venue</h1>
      <MyInvitations />
      <ul class="venue-list">
        {venues.map((v) => (
          <li key={v.id}>
            <a href={href(`/venues/${v.id}/board`)}>
              <strong>{v.name}</strong>
              <span>
                {v.address}, {v.city}
              </span>
              <span class="muted">{v.verification_status}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  )
}
