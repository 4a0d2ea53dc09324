import type { ComponentChildren } from 'preact'
import { accountPage } from './account-routes.tsx'
import { Layout } from './components/layout.tsx'
import { t, useLang } from './i18n/index.ts'
import { BookPage } from './pages/book.tsx'
import { FindPage } from './pages/find.tsx'
import { MatchesPage, MatchPage, PlayerPage } from './pages/matches.tsx'
import { PaymentLandingPage, PaymentReturnPage } from './pages/payment-return.tsx'
import { SharePage } from './pages/share.tsx'
import { VenuePage } from './pages/venue.tsx'
import { type Route, useRoute } from './router.ts'

/**
 * Routes (path-based; the service answers each with index.html):
 *   /                              find a venue (near me, search, sport, sort)
 *   /venues/:id                    a venue: photos, courts and games, the day's grid (?date=)
 *   /v/:slug                       the same page under the venue's own shareable address (framable)
 *   /embed/v/:slug                 the venue's booking widget for an <iframe> (framable, no site frame)
 *   /book?court=|game=&date=&slots= review a booking: coupon, price, how to pay
 *   /matches[?sport=&date=&level=] "Join a game": open public matches
 *   /matches/:id[?token=]          one match: players and levels, join (wallet or gateway) or leave
 *   /players/:id                   a player's levels per sport
 *   /payments/return               a gateway's return_url: on to /payments/:id/return
 *   /payments/:id/return           back from a gateway: asks the service until the payment settles
 *   /s/:token                      a share of a split booking: who has paid, pay this share
 *   /signin, /signup, /account/..., /bookings, /wallet, /notifications, /tournaments: the account
 *   pages (see `accountRoutes` below).
 */
export function App() {
  useLang()
  const route = useRoute()
  const [first, second, third] = route.path

  if (first === 'embed' && second === 'v' && third)
    return <VenuePage slug={third} date={route.query.get('date')} embed />

  return <Layout>{page(route)}</Layout>
}

function page(route: Route): ComponentChildren {
  const [first, second, third] = route.path
  if (!first) return <FindPage query={route.query} />
  if (first === 'venues' && second) return <VenuePage slug={second} date={route.query.get('date')} />
  if (first === 'v' && second) return <VenuePage slug={second} date={route.query.get('date')} />
  if (first === 'book') return <BookPage query={route.query} />
  if (first === 'matches' && !second) return <MatchesPage query={route.query} />
  if (first === 'matches' && second && /^\d+$/.test(second) && !third)
    return <MatchPage id={second} token={route.query.get('token')} payment={route.query.get('payment_id')} />
  if (first === 'players' && second && /^\d+$/.test(second) && !third) return <PlayerPage id={second} />
  if (first === 's' && second && !third) return <SharePage token={second} />
  if (first === 'payments' && second === 'return' && !third) return <PaymentLandingPage query={route.query} />
  if (first === 'payments' && second && /^\d+$/.test(second) && third === 'return')
    return <PaymentReturnPage payment={second} />
  const account = accountRoutes(route)
  if (account !== undefined) return account
  return (
    <section>
      <h1>{t('app.notFound')}</h1>
    </section>
  )
}

/**
 * The account side's pages (sign in/up, profile, bookings, wallet, notifications, tournaments):
 * a page for the route, or undefined when the route is not one of them.
 */
function accountRoutes(route: Route): ComponentChildren | undefined {
  return accountPage(route)
}
