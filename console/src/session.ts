import { useEffect, useState } from 'preact/hooks'
import { api, hasRole, ok, type Schemas, type User } from './api.ts'

/** One of my venues, with my_role: what I am at that venue (not what the account is elsewhere). */
export type Venue = Schemas['MyVenue']

// What the service lets each role do at a venue: owners and managers manage courts, schedules,
// pricing, holidays, coupons and details; only the owner manages staff and verification; a
// super_admin may do everything anywhere (even at a venue where they are assigned as staff).

/** Whether I may open the venue's management pages. */
export function managesVenue(user: User, venue: Venue): boolean {
  return venue.my_role !== 'staff' || hasRole(user, 'super_admin')
}

/** Whether I may manage the venue's staff and verification (the owner's pages). */
export function ownsVenue(user: User, venue: Venue): boolean {
  return venue.my_role === 'owner' || venue.my_role === 'super_admin' || hasRole(user, 'super_admin')
}

export { useSession } from './api.ts'

/** The venues I work at (GET /api/venues/my-venues); `reload` after a change. */
export function useMyVenues(token: string | undefined) {
  const [venues, setVenues] = useState<Venue[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    if (!token) return
    let live = true
    ok(api().GET('/api/venues/my-venues'))
      .then((list) => live && setVenues(list as Venue[]))
      .catch((err: Error) => live && setError(err.message))
    return () => {
      live = false
    }
  }, [token, version])
  return { venues, error, reload: () => setVersion((v) => v + 1) }
}
