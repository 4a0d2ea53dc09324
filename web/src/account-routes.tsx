import type { ComponentChildren } from 'preact'
import './account.css'
import { BookingPage } from './pages/account/booking.tsx'
import { MyBookingsPage } from './pages/account/bookings.tsx'
import { NotificationsPage } from './pages/account/notifications.tsx'
import { ProfilePage } from './pages/account/profile.tsx'
import { ResetPasswordPage } from './pages/account/reset.tsx'
import { NewSeriesPage, SeriesListPage, SeriesPage } from './pages/account/series.tsx'
import { SignInPage } from './pages/account/signin.tsx'
import { SignUpPage } from './pages/account/signup.tsx'
import { TournamentPage, TournamentsPage } from './pages/account/tournaments.tsx'
import { WalletPage } from './pages/account/wallet.tsx'
import type { Route } from './router.ts'

/**
 * The account side's pages, or undefined when the route is not one of them:
 *   /signin?next=, /signup?next=      password or one-time code; a new account
 *   /reset-password                   forgot password: a one-time code, then a new password
 *   /account                          profile, password, devices, sign out
 *   /bookings                         My bookings (upcoming, past; cancel with the refund quote first;
 *                                     review; the calendar link); works offline (public/sw.js)
 *   /bookings/court/:id, /bookings/indoor/:id
 *                                     one booking: what, where, when, price; "Pay now" with its deadline
 *                                     while it is held unpaid (the waitlist offer's notification links here)
 *   /bookings/series[/new|/:id]       weekly series: list, new (from a booking), one (cancel from a date)
 *   /wallet                           balance, top-up through a gateway (back through /payments/return), history
 *   /notifications                    the inbox
 *   /tournaments[/:id]                tournaments; a team's registration and entry fee
 */
export function accountPage(route: Route): ComponentChildren | undefined {
  const [first, second, third] = route.path
  if (third !== undefined && first !== 'bookings') return undefined
  switch (first) {
    case 'signin':
      return second ? undefined : <SignInPage query={route.query} />
    case 'reset-password':
      return second ? undefined : <ResetPasswordPage />
    case 'signup':
      return second ? undefined : <SignUpPage query={route.query} />
    case 'account':
      return second ? undefined : <ProfilePage />
    case 'bookings':
      if (!second) return <MyBookingsPage />
      if ((second === 'court' || second === 'indoor') && third && /^\d+$/.test(third) && route.path.length === 3)
        return <BookingPage kind={second === 'court' ? 'court' : 'game'} id={third} />
      if (second !== 'series') return undefined
      if (!third) return <SeriesListPage />
      if (third === 'new') return <NewSeriesPage query={route.query} />
      return /^\d+$/.test(third) && route.path.length === 3 ? <SeriesPage id={third} /> : undefined
    case 'wallet':
      return second ? undefined : <WalletPage />
    case 'notifications':
      return second ? undefined : <NotificationsPage />
    case 'tournaments':
      if (!second) return <TournamentsPage />
      return /^\d+$/.test(second) ? <TournamentPage id={second} /> : undefined
    default:
      return undefined
  }
}
