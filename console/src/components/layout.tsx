import type { ComponentChildren } from 'preact'
import { api, hasRole, setSession, type User } from '../api.ts'
import { go, href } from '../router.ts'
import { managesVenue, type Venue } from '../session.ts'

interface Props {
  user: User
  venues: Venue[]
  venueId?: number
  section: string
  children: ComponentChildren
}

/** The frame of every signed-in screen: skip link, venue picker, sections, sign out. */
export function Layout({ user, venues, venueId, section, children }: Props) {
  const venue = venues.find((v) => v.id === venueId)
  // From my role at this venue: staff here see only the board, even if they manage another venue.
  const manages = venue !== undefined && managesVenue(user, venue)
  async function signOut() {
    await api()
      .POST('/api/auth/logout')
      .catch(() => undefined)
    setSession(null)
    go('/')
  }
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Courtside desk</span>
        {venues.length > 0 && (
          <label class="venue-pick">
            <span>Venue</span>
            <select
              value={venueId ? String(venueId) : ''}
              onChange={(e) => go(`/venues/${e.currentTarget.value}/board`)}
            >
              {!venueId && <option value="">Choose a venue</option>}
              {venues.map((v) => (
                <option key={v.id} value={String(v.id)}>
                  {v.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <nav aria-label="Sections">
          <ul>
            {venue && (
              <li>
                <a href={href(`/venues/${venue.id}/board`)} aria-current={section === 'board' ? 'page' : undefined}>
                  Day board
                </a>
              </li>
            )}
            {venue && manages && (
              <li>
                <a href={href(`/venues/${venue.id}/manage`)} aria-current={section === 'manage' ? 'page' : undefined}>
                  Manage venue
                </a>
              </li>
            )}
            {venue && manages && (
              <li>
                <a href={href(`/venues/${venue.id}/money`)} aria-current={section === 'money' ? 'page' : undefined}>
                  Money
                </a>
              </li>
            )}
            {venue && manages && (
              <li>
                <a href={href(`/venues/${venue.id}/reports`)} aria-current={section === 'reports' ? 'page' : undefined}>
                  Reports
                </a>
              </li>
            )}
            {venue &&
              manages &&
              (
                [
                  ['reviews', 'Reviews'],
                  ['tournaments', 'Tournaments'],
                  ['webhooks', 'Webhooks'],
                ] as const
              ).map(([path, label]) => (
                <li key={path}>
                  <a href={href(`/venues/${venue.id}/${path}`)} aria-current={section === path ? 'page' : undefined}>
                    {label}
                  </a>
                </li>
              ))}
            {venue && (
              <li>
                <a href={href(`/venues/${venue.id}/cash-up`)} aria-current={section === 'cash-up' ? 'page' : undefined}>
                  Cash-up
                </a>
              </li>
            )}
            <li>
              <a href={href('/new-venue')} aria-current={section === 'new-venue' ? 'page' : undefined}>
                Add a venue
              </a>
            </li>
            {hasRole(user, 'super_admin') && (
              <li>
                <a href={href('/admin')} aria-current={section === 'admin' ? 'page' : undefined}>
                  Administration
                </a>
              </li>
            )}
            {hasRole(user, 'super_admin') && (
              <li>
                <a href={href('/payouts')} aria-current={section === 'payouts' ? 'page' : undefined}>
                  Payouts
                </a>
              </li>
            )}
          </ul>
        </nav>
        <span class="who">{user.name}</span>
        <button type="button" class="ghost" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  )
}
