import type { Routes } from '../../lib/route.ts'
import adminUserRoutes from './routes/admin.ts'
import authRoutes from './routes/auth.ts'
import emailRoutes from './routes/email.ts'
import otpRoutes from './routes/otp.ts'
import profileRoutes from './routes/profile.ts'
import socialRoutes from './routes/social.ts'

// Accounts: registration, sign-in (password, OTP, social), devices, email verification, profile,
// and the platform's user administration.
const routes: Routes = async (app) => {
  await app.register(authRoutes)
  await app.register(otpRoutes)
  await app.register(emailRoutes)
  await app.register(profileRoutes)
  await app.register(socialRoutes)
  await app.register(adminUserRoutes)
}
export default routes
