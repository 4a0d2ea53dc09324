import type { App } from '../../src/app.ts'
import { assignStaff, createUser, type TestUser } from '../helpers/factories.ts'
import { scene } from './helpers.ts'

// Calls of the venue-staff routes, for an app built later (in before()).

export function staffApi(getApp: () => App) {
  const inject = (method: 'POST' | 'PATCH', url: string, user: TestUser, payload: Record<string, unknown>) =>
    getApp().inject({ method, url, headers: user.headers, payload })
  return {
    /** A scene plus a manager and a staff member of its venue. */
    async withStaff() {
      const app = getApp()
      const s = await scene(app)
      const manager = await createUser(app, { roles: ['manager'] })
      const staff = await createUser(app, { roles: ['staff'] })
      await assignStaff(app, s.venue.id, manager.id, 'manager')
      await assignStaff(app, s.venue.id, staff.id, 'staff')
      return { ...s, manager, staff }
    },
    deskBook: (user: TestUser, venue: string | number, payload: Record<string, unknown>) =>
      inject('POST', `/api/venues/${venue}/indoor-game-bookings`, user, payload),
    setStatus: (user: TestUser, id: number, payload: Record<string, unknown>) =>
      inject('PATCH', `/api/indoor-game-bookings/${id}/status`, user, payload),
    charge: (user: TestUser, id: number, payload: Record<string, unknown>) =>
      inject('POST', `/api/indoor-game-bookings/${id}/charges`, user, payload),
    pay: (user: TestUser, id: number, payload: Record<string, unknown>) =>
      inject('POST', `/api/indoor-game-bookings/${id}/payments`, user, payload),
  }
}
