import type { ComponentChildren } from 'preact'
import { api, hasRole, setSession, type User } from '../api.ts'
import { localName, t } from '../i18n/index.ts'
import { go, href } from '../router.ts'
import { managesVenue, type Venue } from '../session.ts'
import { LanguageSwitch } from './language.tsx'

interface Props {
  user: User
  venues: Venue[]
  venueId?: number
  section: string
  children: ComponentChildren
}

/** The frame of every signed-in screen: skip link, venue picker, sections, language, sign out. */
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
        {t('shell.skip')}
      </a>
      <header class="top">
        <span class="brand">{t('shell.brand')}</span>
        <LanguageSwitch compact />
        {venues.length > 0 && (
          <label class="venue-pick">
            <span>{t('shell.venue')}</span>
            <select
              value={venueId ? String(venueId) : ''}
              onChange={(e) => go(`/venues/${e.currentTarget.value}/board`)}
            >
              {!venueId && <option value="">{t('shell.chooseVenue')}</option>}
              {venues.map((v) => (
                <option key={v.id} value={String(v.id)}>
                  {localName(v)}
                </option>
              ))}
            </select>
          </label>
        )}
        <nav aria-label={t('shell.sections')}>
          <ul>
            {venue && (
              <li>
                <a href={href(`/venues/${venue.id}/board`)} aria-current={section === 'board' ? 'page' : undefined}>
                  {t('shell.board')}
                </a>
              </li>
            )}
            {venue && manages && (
              <li>
                <a href={href(`/venues/${venue.id}/manage`)} aria-current={section === 'manage' ? 'page' : undefined}>
                  {t('shell.manage')}
                </a>
              </li>
            )}
            {venue && manages && (
              <li>
                <a href={href(`/venues/${venue.id}/money`)} aria-current={section === 'money' ? 'page' : undefined}>
                  {t('shell.money')}
                </a>
              </li>
            )}
            {venue && manages && (
              <li>
                <a href={href(`/venues/${venue.id}/reports`)} aria-current={section === 'reports' ? 'page' : undefined}>
                  {t('shell.reports')}
                </a>
              </li>
            )}
            {venue &&
              manages &&
              (
                [
                  ['reviews', t('shell.reviews')],
                  ['tournaments', t('shell.tournaments')],
                  ['webhooks', t('shell.webhooks')],
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
                  {t('shell.cashUp')}
                </a>
              </li>
            )}
            <li>
              <a href={href('/new-venue')} aria-current={section === 'new-venue' ? 'page' : undefined}>
                {t('shell.addVenue')}
              </a>
            </li>
            {hasRole(user, 'super_admin') && (
              <li>
                <a href={href('/admin')} aria-current={section === 'admin' ? 'page' : undefined}>
                  {t('shell.admin')}
                </a>
              </li>
            )}
            {hasRole(user, 'super_admin') && (
              <li>
                <a href={href('/payouts')} aria-current={section === 'payouts' ? 'page' : undefined}>
                  {t('shell.payouts')}
                </a>
              </li>
            )}
          </ul>
        </nav>
        <span class="who">{user.name}</span>
        <button type="button" class="ghost" onClick={signOut}>
          {t('shell.signOut')}
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  )
}
