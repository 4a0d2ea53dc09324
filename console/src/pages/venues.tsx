import { href } from '../router.ts'
import type { Venue } from '../session.ts'

/** Choose one of my venues. */
export function VenueChooser({ venues }: { venues: Venue[] }) {
  if (venues.length === 0) {
    return (
      <section>
        <h1>No venues yet</h1>
        <p>This account does not work at any venue yet.</p>
        <ul>
          <li>
            Own or run a venue? <a href={href('/new-venue')}>Add your venue</a>: its details, courts, hours and prices,
            and photos, then ask the Courtside team to verify it.
          </li>
          <li>Work at one? Ask its owner to add you as staff; the invitation comes by email.</li>
        </ul>
      </section>
    )
  }
  return (
    <section>
      <h1>Choose a venue</h1>
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
