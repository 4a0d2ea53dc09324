import type { User } from '../../api.ts'
import { Notice } from '../../components/ui.tsx'
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
  label: string
  ownerOnly?: boolean
  render: (p: TabProps) => preact.JSX.Element
}

export const MANAGE_TABS: Tab[] = [
  { key: 'courts', label: 'Courts & games', render: (p) => <CourtsTab {...p} /> },
  { key: 'schedule', label: 'Schedule', render: (p) => <ScheduleTab {...p} /> },
  { key: 'pricing', label: 'Pricing', render: (p) => <PricingTab {...p} /> },
  { key: 'holidays', label: 'Holidays', render: (p) => <HolidaysTab {...p} /> },
  { key: 'coupons', label: 'Coupons', render: (p) => <CouponsTab {...p} /> },
  { key: 'staff', label: 'Staff', ownerOnly: true, render: (p) => <StaffTab {...p} /> },
  { key: 'details', label: 'Details', render: (p) => <DetailsTab {...p} /> },
  { key: 'verification', label: 'Verification', ownerOnly: true, render: (p) => <VerificationTab {...p} /> },
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
        <h1>Manage {venue.name}</h1>
        <Notice kind="error">
          Managing {venue.name} is for its owner and managers. You work here as staff: you can use the day board; ask
          the owner for changes to courts, prices or staff.
        </Notice>
        <p>
          <a href={href(`/venues/${venue.id}/board`)}>Back to the day board</a>
        </p>
      </section>
    )
  }
  const owner = ownsVenue(user, venue)
  const tabs = MANAGE_TABS.filter((t) => owner || !t.ownerOnly)
  const current = tabs.find((t) => t.key === tab) ?? tabs[0]
  const refused = tab !== undefined && !tabs.some((t) => t.key === tab)
  return (
    <section>
      <h1>Manage {venue.name}</h1>
      <nav aria-label="Manage venue">
        <ul class="tabs">
          {tabs.map((t) => (
            <li key={t.key}>
              <a
                href={href(`/venues/${venue.id}/manage/${t.key}`)}
                aria-current={t.key === current.key ? 'page' : undefined}
              >
                {t.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {refused && <Notice kind="error">That page is for the venue's owner. Showing {current.label} instead.</Notice>}
      <div key={`${venue.id}-${current.key}`}>{current.render({ venue, onVenueChanged })}</div>
    </section>
  )
}
