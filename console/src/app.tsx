import { hasRole } from './api.ts'
import { Layout } from './components/layout.tsx'
import { Loading, Notice } from './components/ui.tsx'
import { t, useLang } from './i18n/index.ts'
import { AdminPage } from './pages/admin/index.tsx'
import { BoardPage } from './pages/board/index.tsx'
import { CashUpPage } from './pages/cash-up/index.tsx'
import { Login } from './pages/login.tsx'
import { ManagePage } from './pages/manage/index.tsx'
import { MoneyPage } from './pages/money/index.tsx'
import { InvitationPage } from './pages/onboarding/invitation.tsx'
import { NewVenueWizard } from './pages/onboarding/wizard.tsx'
import { PayoutsPage } from './pages/payouts/index.tsx'
import { ReportsPage } from './pages/reports/index.tsx'
import { ReviewsPage } from './pages/reviews/index.tsx'
import { TournamentsPage } from './pages/tournaments/index.tsx'
import { VenueChooser } from './pages/venues.tsx'
import { WebhooksPage } from './pages/webhooks/index.tsx'
import { useRoute } from './router.ts'
import { useMyVenues, useSession } from './session.ts'

/**
 * Routes:
 *   #/                          choose a venue (or straight to its board when there is one)
 *   #/venues/:id/board?date=    the day board
 *   #/venues/:id/manage/:tab    owner and manager pages
 *   #/venues/:id/money?month=   the venue's statement, payouts and payout details (owner, manager)
 *   #/venues/:id/reports?from=&to=  bookings, revenue, occupancy, customers, CSV files (owner, manager)
 *   #/venues/:id/cash-up?date=  the desk's cash for a day, count and close it (staff, manager, owner)
 *   #/venues/:id/reviews        the venue's reviews: reply, hide, show (owner, manager)
 *   #/venues/:id/tournaments[/:t]  tournaments: create, teams, fixtures, results, cancel (owner, manager)
 *   #/venues/:id/webhooks       webhook endpoints, the secret once, deliveries and resend (owner, manager)
 *   #/admin/:tab                super_admin pages
 *   #/payouts                   payouts due, recording a payout, commission rates (super_admin)
 *   #/new-venue[/:id/:step]     create a venue step by step (any signed-in user; docs/console.md)
 *   #/invitations/:token        accept a staff invitation (no session needed)
 */
export function App() {
  // Re-renders the whole console when the language is switched (docs/console.md, "Languages").
  useLang()
  const session = useSession()
  const route = useRoute()
  const { venues, error, reload } = useMyVenues(session?.token)
  // The mailed invitation link works without a session (and replaces one when accepted).
  if (route.path[0] === 'invitations' && route.path[1]) return <InvitationPage token={route.path[1]} />
  if (!session) return <Login />
  if (error) return <Notice kind="error">{error}</Notice>
  if (!venues) return <Loading what={t('wizard.loadingVenues')} />

  const [first, second, third, fourth] = route.path
  const user = session.user
  if (first === 'venues' && second) {
    const venueId = Number(second)
    const venue = venues.find((v) => v.id === venueId)
    const section = ['manage', 'money', 'reports', 'cash-up', 'reviews', 'tournaments', 'webhooks'].includes(third)
      ? third
      : 'board'
    return (
      <Layout user={user} venues={venues} venueId={venueId} section={section}>
        {!venue ? (
          <Notice kind="error">{t('common.venueNotYours')}</Notice>
        ) : section === 'manage' ? (
          <ManagePage user={user} venue={venue} tab={fourth} onVenueChanged={reload} />
        ) : section === 'money' ? (
          <MoneyPage user={user} venue={venue} month={route.query.get('month') ?? undefined} />
        ) : section === 'reports' ? (
          <ReportsPage
            user={user}
            venue={venue}
            from={route.query.get('from') ?? undefined}
            to={route.query.get('to') ?? undefined}
          />
        ) : section === 'reviews' ? (
          <ReviewsPage user={user} venue={venue} />
        ) : section === 'tournaments' ? (
          <TournamentsPage user={user} venue={venue} tournamentId={fourth ? Number(fourth) : undefined} />
        ) : section === 'webhooks' ? (
          <WebhooksPage user={user} venue={venue} />
        ) : section === 'cash-up' ? (
          <CashUpPage venue={venue} date={route.query.get('date') ?? undefined} />
        ) : (
          <BoardPage user={user} venue={venue} date={route.query.get('date') ?? undefined} />
        )}
      </Layout>
    )
  }
  if (first === 'new-venue') {
    return (
      <Layout user={user} venues={venues} venueId={second ? Number(second) : undefined} section="new-venue">
        <NewVenueWizard
          venueId={second ? Number(second) : undefined}
          step={third}
          venues={venues}
          onVenuesChanged={reload}
        />
      </Layout>
    )
  }
  if (first === 'admin' && hasRole(user, 'super_admin')) {
    return (
      <Layout user={user} venues={venues} section="admin">
        <AdminPage tab={second} />
      </Layout>
    )
  }
  if (first === 'payouts') {
    return (
      <Layout user={user} venues={venues} section="payouts">
        {hasRole(user, 'super_admin') ? (
          <PayoutsPage venues={venues} />
        ) : (
          <>
            <h1>{t('payouts.title')}</h1>
            <Notice kind="error">{t('payouts.adminsOnly')}</Notice>
          </>
        )}
      </Layout>
    )
  }
  if (first === 'admin') {
    return (
      <Layout user={user} venues={venues} section="admin">
        <h1>{t('shell.admin')}</h1>
        <Notice kind="error">{t('admin.adminsOnly')}</Notice>
      </Layout>
    )
  }
  if (venues.length === 1 && !hasRole(user, 'super_admin')) {
    location.replace(`#/venues/${venues[0].id}/board`)
    return <Loading />
  }
  return (
    <Layout user={user} venues={venues} section="home">
      <VenueChooser venues={venues} />
    </Layout>
  )
}
