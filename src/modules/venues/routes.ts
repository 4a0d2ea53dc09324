import type { Routes } from '../../lib/route.ts'
import invitationRoutes from './routes/invitations.ts'
import manageRoutes from './routes/manage.ts'
import myVenueRoutes from './routes/mine.ts'
import referenceRoutes from './routes/reference.ts'
import staffRoutes from './routes/staff.ts'
import venueInvitationRoutes from './routes/venue-invitations.ts'
import verificationRoutes from './routes/verification.ts'

// Venues: the caller's venues, venue management, verification, staff, holidays, and the
// amenity/sport catalogues.
const routes: Routes = async (app) => {
  await myVenueRoutes(app)
  // A scope of its own: the multipart parser and its hooks stay off the catalogue's reads.
  await app.register(manageRoutes)
  await verificationRoutes(app)
  await staffRoutes(app)
  await invitationRoutes(app)
  await venueInvitationRoutes(app)
  await referenceRoutes(app)
}

export default routes
