import type { FastifyRequest } from 'fastify'
import { signedIn } from '../../lib/auth.ts'
import { requestLocale, translate } from '../../lib/i18n/index.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, Message } from '../../lib/schemas.ts'
import { deskVenueId } from '../booking-core/index.ts'
import { SeriesCancelSchema, SeriesSchema } from './resource.ts'
import {
  SeriesBody,
  SeriesCancelBody,
  SeriesParams,
  StaffSeriesBody,
  VenueParams,
  VenueSeriesParams,
} from './schemas.ts'
import { cancelMySeries, cancelVenueSeries, createMySeries, showMySeries, showVenueSeries } from './series.ts'
import { createVenueSeries } from './staff.ts'

// Recurring series of court bookings (docs/bookings.md, "Recurring series").

const tags = ['Bookings']
const staffTags = ['Bookings (venue staff)']
const security = [{ bearer: [] }]
const One = Data(SeriesSchema)
const CREATE_DOC =
  'Books start_date and the same weekday of each following week (weeks 2–26) at the same venue-local ' +
  'wall-clock time, across daylight-saving changes. Each occurrence is an ordinary booking with its own ' +
  "number and its own date's price. on_conflict=fail (default): one week that cannot be booked makes it " +
  '409 "The court is not available for the selected time slot." and books nothing; skip: the free weeks ' +
  'are booked and the others listed in skipped with their reason (409 when no week is free). 422 as for ' +
  'a single booking (a past date, an invalid court, a time off the slot grid).'

const routes: Routes = async (app) => {
  const { ctx } = app
  const venueStaffFirst = async (req: FastifyRequest & { params: { venue: string } }) => {
    await deskVenueId(ctx, signedIn(req), req.params.venue)
  }

  app.post(
    '/bookings/series',
    {
      config: { idempotent: true },
      onRequest: app.auth.required,
      schema: {
        operationId: 'createBookingSeries',
        tags,
        security,
        summary: 'Book a court every week (a recurring series)',
        description: `${CREATE_DOC} Unpaid occurrences hold their slots like single bookings.`,
        body: SeriesBody,
        response: { 201: One, 409: Message, ...errorResponses },
      },
    },
    async (req, reply) => reply.code(201).send({ data: await createMySeries(ctx, signedIn(req), req.body) }),
  )

  app.get(
    '/bookings/series/:series',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'showBookingSeries',
        tags,
        security,
        summary: 'One of your recurring series with its occurrences',
        description: 'Owner only (others 403).',
        params: SeriesParams,
        response: { 200: One, ...errorResponses },
      },
    },
    async (req) => ({ data: await showMySeries(ctx, signedIn(req), req.params.series) }),
  )

  app.patch(
    '/bookings/series/:series/cancel',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'cancelBookingSeries',
        tags,
        security,
        summary: 'Cancel the occurrences of your series from a date on',
        description:
          'Owner only (others 403). Cancels every occurrence on or after from_date (default: today) that has ' +
          'not started and is pending or confirmed, each under the normal cancel and refund rules; lists what ' +
          'was cancelled and refunded.',
        params: SeriesParams,
        body: SeriesCancelBody,
        response: { 200: SeriesCancelSchema, ...errorResponses },
      },
    },
    async (req) => linesInLanguage(req, await cancelMySeries(ctx, signedIn(req), req.params.series, req.body ?? {})),
  )

  app.post(
    '/venues/:venue/bookings/series',
    {
      onRequest: app.auth.required,
      preValidation: venueStaffFirst,
      schema: {
        operationId: 'createVenueBookingSeries',
        tags: staffTags,
        security,
        summary: 'Book a court every week for a named customer, at the desk (owner, manager, staff)',
        description: `type offline (default) or walkin; customer_name is required. ${CREATE_DOC}`,
        params: VenueParams,
        body: StaffSeriesBody,
        response: { 201: One, 409: Message, ...errorResponses },
      },
    },
    async (req, reply) =>
      reply.code(201).send({ data: await createVenueSeries(ctx, signedIn(req), req.params.venue, req.body) }),
  )

  app.get(
    '/venues/:venue/bookings/series/:series',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'showVenueBookingSeries',
        tags: staffTags,
        security,
        summary: "One of the venue's recurring series with its occurrences (owner, manager, staff)",
        description:
          "Any series at the venue, a customer's or the desk's, with every occurrence whatever its status and the " +
          'weeks without one (skipped). 404 when the series is not at this venue; 403 for anyone not working there.',
        params: VenueSeriesParams,
        response: { 200: One, ...errorResponses },
      },
    },
    async (req) => {
      const venueId = await deskVenueId(ctx, signedIn(req), req.params.venue)
      return { data: await showVenueSeries(ctx, venueId, req.params.series) }
    },
  )

  app.patch(
    '/venues/:venue/bookings/series/:series/cancel',
    {
      onRequest: app.auth.required,
      preValidation: venueStaffFirst,
      schema: {
        operationId: 'cancelVenueBookingSeries',
        tags: staffTags,
        security,
        summary: "Cancel the occurrences of a venue's series from a date on, at the desk (owner, manager, staff)",
        description:
          'Cancels, in one transaction, every occurrence on or after from_date (default: today, venue time) that is ' +
          'pending or confirmed and has not started, each as the venue cancels a booking (PATCH ' +
          "/bookings/{booking}/status cancelled): what was paid goes back (online money to the customer's wallet, " +
          'desk money at the desk) and the freed slot is offered to the waitlist. Other occurrences are left. ' +
          'reason defaults to "Cancelled by the venue". 404 when the series is not at this venue.',
        params: VenueSeriesParams,
        body: SeriesCancelBody,
        response: { 200: SeriesCancelSchema, ...errorResponses },
      },
    },
    async (req) => {
      const user = signedIn(req)
      const venueId = await deskVenueId(ctx, user, req.params.venue)
      return linesInLanguage(req, await cancelVenueSeries(ctx, venueId, req.params.series, req.body ?? {}, user.id))
    },
  )
}

/**
 * Each cancelled booking's own `message` in the reader's language (the answer's top-level `message`
 * is translated with every success message, src/lib/answer-language.ts); English unchanged.
 */
function linesInLanguage<A extends { data: { cancelled: { message: string }[] } }>(req: FastifyRequest, answer: A): A {
  const locale = requestLocale(req)
  if (locale === 'en') return answer
  const cancelled = answer.data.cancelled.map((line) => ({ ...line, message: translate(locale, line.message) }))
  return { ...answer, data: { ...answer.data, cancelled } }
}

export default routes
