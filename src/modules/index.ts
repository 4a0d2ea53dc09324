import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../lib/context.ts'
import accounts from './accounts/routes.ts'
import availability from './availability/routes.ts'
import { extendHoldsOfVerified, shortenHoldsOfUnverified } from './booking-core/index.ts'
import { registerBookingJobs } from './bookings/jobs.ts'
import bookings from './bookings/routes.ts'
import bookingSeries from './bookings/series-routes.ts'
import calendar from './calendar/routes.ts'
import catalogue from './catalogue/routes.ts'
import coupons from './coupons/routes.ts'
import courts from './courts/routes.ts'
import cashBacks from './desk/cash-back-routes.ts'
import noShows from './desk/no-show-routes.ts'
import desk from './desk/routes.ts'
import { registerIndoorBookingJobs } from './indoor-bookings/jobs.ts'
import indoorBookings from './indoor-bookings/routes.ts'
import indoorGames from './indoor-games/routes.ts'
import ledger from './ledger/routes.ts'
import { registerMatchJobs } from './matches/jobs.ts'
import matches from './matches/routes.ts'
import { registerNotificationJobs } from './notifications/jobs.ts'
import notifications from './notifications/routes.ts'
import type { Gateways } from './payments/index.ts'
import { registerPaymentJobs } from './payments/reconcile.ts'
import payments, { paymentGateways } from './payments/routes.ts'
import { issueLastMonthsCommissionInvoices } from './payouts/index.ts'
import payouts from './payouts/routes.ts'
import { registerReceiptJobs } from './receipts/index.ts'
import receipts from './receipts/routes.ts'
import reports from './reports/routes.ts'
import reviews from './reviews/routes.ts'
import { paymentArriving } from './splits/index.ts'
import splits from './splits/routes.ts'
import tournaments from './tournaments/routes.ts'
import venues from './venues/routes.ts'
import { offerFreedSlot } from './waitlist/index.ts'
import waitlist from './waitlist/routes.ts'
import wallet from './wallet/routes.ts'
import { registerWebhookJobs } from './webhooks/jobs.ts'
import webhooks from './webhooks/routes.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The payment gateways' drivers, made once by the composition root (registerModules). */
    gateways: Gateways
  }
}

/**
 * Every feature's routes, under /api, and their background jobs. The payment gateways are made here
 * once and handed to the payment routes and to the sweeps that ask a gateway (reconciliation, the
 * hold sweep); they are also `app.gateways` for whoever runs a sweep by hand (tests, a console).
 */
export async function registerModules(app: FastifyInstance) {
  const gateways = paymentGateways(app)
  app.decorate('gateways', gateways)
  await app.register(
    async (api) => {
      for (const mod of [
        accounts,
        notifications,
        catalogue,
        venues,
        courts,
        indoorGames,
        availability,
        bookings,
        bookingSeries,
        indoorBookings,
        wallet,
        coupons,
        reviews,
        tournaments,
        calendar,
        waitlist,
        webhooks,
        desk,
        cashBacks,
        noShows,
        ledger,
        payouts,
        receipts,
        reports,
      ]) {
        await api.register(mod)
      }
      await api.register(payments, { gateways })
      await api.register(splits, { gateways })
      await api.register(matches, { gateways })
    },
    { prefix: '/api' },
  )
  registerJobs(app.ctx, gateways)
}

/**
 * The steps one module runs in another's transaction (AppContext.steps): booking-core frees a slot,
 * the waitlist offers it to the next customer waiting (court bookings; indoor games have no waitlist);
 * accounts verifies a phone, booking-core extends that customer's short holds (extendHoldsOfVerified);
 * a payment arriving for a booking marks the shares of a split it pays (splits' paymentArriving).
 */
export function wireSteps(ctx: AppContext) {
  ctx.steps.slotFreed = (trx, kind, bookingId) =>
    kind === 'court' ? offerFreedSlot(ctx, trx, bookingId) : Promise.resolve(null)
  ctx.steps.phoneVerified = (trx, userId) => extendHoldsOfVerified(ctx, trx, userId)
  ctx.steps.phoneUnverified = (trx, userId) => shortenHoldsOfUnverified(ctx, trx, userId)
  ctx.steps.paymentArriving = (trx, booking, payment, room, forShares) =>
    paymentArriving(ctx, trx, booking, payment, room, forShares)
}

/** Every feature's background jobs. */
function registerJobs(ctx: AppContext, gateways: Gateways) {
  registerNotificationJobs(ctx)
  registerBookingJobs(ctx, gateways)
  registerIndoorBookingJobs(ctx, gateways)
  registerPaymentJobs(ctx, gateways)
  registerWebhookJobs(ctx)
  registerReceiptJobs(ctx)
  // The platform's commission invoices of the last ended Nepali month (idempotent), every 6 hours.
  ctx.jobs.every('payouts.commission-invoices', 6 * 3600_000, async () => {
    await issueLastMonthsCommissionInvoices(ctx)
  })
  registerMatchJobs(ctx)
}
