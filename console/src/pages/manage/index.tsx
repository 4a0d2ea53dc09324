import type { User } from '../../api.ts'
import { Notice } from '../../components/ui.tsx'
import { localName, type MessageKey, t } from '../../i18n/index.ts'
import { href } from '../../router.ts'
import { managesVenue, ownsVenue, type Venue } from '../../session.ts'
import { CouponsTab } from './coupons.tsx'
import { CourtsTab } from './courts.tsx'
import { DetailsTab } from './details.tsx'
import { HolidaysTab } from './holidays.tsx'
import { PricingTab } from './pricing.tsx'
import { ScheduleTab } from './schedule.tsx'
import { StaffTab } from './staff.tsx'
import { VerificationTab } from './verification.tsx'

// Owner and manager pages of one venue, offered by my role at that venue (my_role of my-venues, not
// the account's roles: one person can be staff here and manager elsewhere). Staff of the venue are
// refused (the nav hides the link for them, this refusal covers an opened URL); the service refuses
// them too. Staff and verification are the owner's (the service answers 403 to a manager), so
// managers do not see those tabs.

export interface TabProps {
  venue: Venue
  onVenueChanged: () => void
}

interface Tab {
  key: string
  /** The tab's name in the catalogue (t() at render time, so a language switch renames it). */
  label: MessageKey
  ownerOnly?: boolean
  render: (p: TabProps) => preact.JSX.Element
}

export const MANAGE_TABS: Tab[] = [
  { key: 'courts', label: 'manage.courts', render: (p) => <CourtsTab {...p} /> },
  { key: 'schedule', label: 'manage.schedule', render: (p) => <ScheduleTab {...p} /> },
  { key: 'pricing', label: 'manage.pricing', render: (p) => <PricingTab {...p} /> },
  { key: 'holidays', label: 'manage.holidays', render: (p) => <HolidaysTab {...p} /> },
  { key: 'coupons', label: 'manage.coupons', render: (p) => <CouponsTab {...p} /> },
  { key: 'staff', label: 'manage.staff', ownerOnly: true, render: (p) => <StaffTab {...p} /> },
  { key: 'details', label: 'manage.details', render: (p) => <DetailsTab {...p} /> },
  { key: 'verification', label: 'manage.verification', ownerOnly: true, render: (p) => <VerificationTab {...p} /> },
]

export function ManagePage({
  user,
  venue,
  tab,
  onVenueChanged,
}: {
  user: User
  venue: Venue
  tab?: string
  onVenueChanged: () => void
}) {
  if (!managesVenue(user, venue)) {
    return (
      <section>
        <h1>{t('manage.title', { venue: localName(venue) })}</h1>
        <Notice kind="error">{t('manage.staffRefused', { venue: localName(venue) })}</Notice>
        <p>
          <a href={href(`/venues/${venue.id}/board`)}>{t('common.backToBoard')}</a>
        </p>
      </section>
    )
  }
  const owner = ownsVenue(user, venue)
  const tabs = MANAGE_TABS.filter((x) => owner || !x.ownerOnly)
  const current = tabs.find((x) => x.key === tab) ?? tabs[0]
  const refused = tab !== undefined && !tabs.some((x) => x.key === tab)
  return (
    <section>
      <h1>{t('manage.title', { venue: localName(venue) })}</h1>
      <nav aria-label={t('shell.manage')}>
        <ul class="tabs">
          {tabs.map((x) => (
            <li key={x.key}>
              <a
                href={href(`/venues/${venue.id}/manage/${x.key}`)}
                aria-current={x.key === current.key ? 'page' : undefined}
              >
                {t(x.label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {refused && <Notice kind="error">{t('manage.ownerOnly', { tab: t(current.label) })}</Notice>}
      <div key={`${venue.id}-${current.key}`}>{current.render({ venue, onVenueChanged })}</div>
    </section>
  )
}
