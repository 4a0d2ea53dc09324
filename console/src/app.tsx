import { hasRole } from './api.ts'
import { Layout } from './components/layout.tsx'
import { Loading, Notice } from './components/ui.tsx'
import { AdminPage } from './pages/admin/index.tsx'
import { BoardPage } from './pages/board/index.tsx'
import { Login } from './pages/login.tsx'
import { ManagePage } from './pages/manage/index.tsx'
import { VenueChooser } from './pages/venues.tsx'
import { useRoute } from './router.ts'
import { useMyVenues, useSession } from './session.ts'

/**
 * Routes:
 *   #/                          choose a venue (or straight to its board when there is one)
 *   #/venues/:id/board?date=    the day board
 *   #/venues/:id/manage/:tab    owner and manager pages
 *   #/admin/:tab                super_admin pages
 */
export function App() {
  const session = useSession()
  const route = useRoute()
  const { venues, error, reload } = useMyVenues(session?.token)
  if (!session) return <Login />
  if (error) return <Notice kind="error">{error}</Notice>
  if (!venues) return <Loading what="Loading your venues" />

  const [first, second, third, fourth] = route.path
  const user = session.user
  if (first === 'venues' && second) {
    const venueId = Number(second)
    const venue = venues.find((v) => v.id === venueId)
    const section = third === 'manage' ? 'manage' : 'board'
    return (
      <Layout user={user} venues={venues} venueId={venueId} section={section}>
        {!venue ? (
          <Notice kind="error">This venue is not one of yours.</Notice>
        ) : section === 'manage' ? (
          <ManagePage user={user} venue={venue} tab={fourth} onVenueChanged={reload} />
        ) : (
          <BoardPage user={user} venue={venue} date={route.query.get('date') ?? undefined} />
        )}
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
  if (first === 'admin') {
    return (
      <Layout user={user} venues={venues} section="admin">
        <h1>Administration</h1>
        <Notice kind="error">Administration is for Courtside administrators only. This account cannot open it.</Notice>
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
