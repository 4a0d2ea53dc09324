import { Readable } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { requestLocale } from '../../lib/i18n/index.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, Message } from '../../lib/schemas.ts'
import { DESK_ROLES, MANAGER_ROLES, type VenueRole, venueForStaff } from '../venues/index.ts'
import { cashUp, closeCashUp } from './cash-up.ts'
import { BOOKING_COLUMNS, bookingsCsv, PAYMENT_COLUMNS, paymentsCsv } from './exports.ts'
import { CashUpSchema, ReportSummarySchema } from './resource.ts'
import { CashUpBody, CashUpQuery, RangeQuery, VenueParams } from './schemas.ts'
import { summary } from './service.ts'

// Reports of a venue (owner, manager, super_admin) and the desk's cash-up (owner, manager, staff).
// Access is checked before validation (a stranger gets 403/404, never a 422); the handler uses the
// venue found then.

const tags = ['Reports']
const security = [{ bearer: [] }]

type VenueRequest = FastifyRequest & { params: { venue: string } }

const routes: Routes = async (app) => {
  const { ctx } = app
  const checked = new WeakMap<FastifyRequest, { id: number; slug: string }>()
  const access = (allowed: readonly VenueRole[]) => async (req: VenueRequest) => {
    checked.set(req, await venueForStaff(ctx, signedIn(req), req.params.venue, allowed))
  }
  const managersFirst = access(MANAGER_ROLES)
  const deskFirst = access(DESK_ROLES)
  const venueOf = (req: FastifyRequest) => {
    const venue = checked.get(req)
    if (!venue) throw new Error('the venue access hook did not run')
    return venue
  }

  app.get(
    '/venues/:venue/reports/summary',
    {
      onRequest: app.auth.required,
      preValidation: managersFirst,
      schema: {
        tags,
        security,
        operationId: 'getVenueReportSummary',
        summary: "A venue's bookings, revenue, occupancy, no-shows and top customers over a range of days",
        description:
          'Owner, manager of the venue, super_admin. Days are venue-local and inclusive, at most 366 (422 on `to`). ' +
          'Bookings are counted by the day they are for; money by the day it moved (a payment when it was received, ' +
          'a refund when it was made), from the ledger: `revenue.net` equals the statement’s online_gross − refunds + ' +
          'desk_gross − desk_refunds for the same days. Occupancy = booked hours of bookings holding their slot / open ' +
          'hours of the active courts’ schedules less maintenance blocks (docs/reports.md has every formula). ' +
          '`kind` limits everything to court or indoor-game bookings. Never cached.',
        params: VenueParams,
        querystring: RangeQuery,
        response: { 200: Data(ReportSummarySchema), ...errorResponses },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store')
      return { data: await summary(ctx, venueOf(req).id, req.query) }
    },
  )

  const csvRoute = (
    path: string,
    operationId: string,
    what: string,
    columns: readonly string[],
    make: typeof bookingsCsv,
  ) =>
    app.get(
      path,
      {
        onRequest: app.auth.required,
        preValidation: managersFirst,
        schema: {
          tags,
          security,
          operationId,
          summary: `${what} of a range of days as CSV (owner, manager, super_admin)`,
          description:
            `One row per ${what === 'Bookings' ? 'booking whose venue-local date' : 'payment received (completed, refunded or not) whose venue-local receipt time'} is in the range, a header row first; ` +
            'UTF-8 with a byte-order mark; amounts as plain decimals, times in the venue zone (YYYY-MM-DD HH:mm:ss) with the ' +
            'Bikram Sambat date beside, payment methods as their code and their name (eSewa, Khalti, Fonepay), phones as ' +
            'text (docs/reports.md, "Exports"). The same range rules as the summary ' +
            '(422 on `to`). Streamed: rows are read in batches as the download proceeds.',
          params: VenueParams,
          querystring: RangeQuery,
          response: {
            200: {
              description: `The ${what.toLowerCase()}, CSV`,
              content: { 'text/csv': { schema: Type.String({ description: columns.join(',') }) } },
            },
            ...errorResponses,
          },
        },
      },
      async (req, reply) => {
        const venue = venueOf(req)
        const rows = make(ctx, venue.id, req.query, requestLocale(req))
        const name = `${what.toLowerCase()}-${venue.slug}-${req.query.from}-${req.query.to}.csv`
        return (
          reply
            .header('cache-control', 'no-store')
            .header('content-disposition', `attachment; filename="${name}"`)
            .type('text/csv; charset=utf-8')
            // `as never`: the typed send() takes the schema's string; a stream is sent as it is (no
            // serializer), and the schema's string describes what it writes.
            .send(Readable.from(rows) as never)
        )
      },
    )

  csvRoute('/venues/:venue/reports/bookings.csv', 'exportVenueBookings', 'Bookings', BOOKING_COLUMNS, bookingsCsv)
  csvRoute('/venues/:venue/reports/payments.csv', 'exportVenuePayments', 'Payments', PAYMENT_COLUMNS, paymentsCsv)

  app.get(
    '/venues/:venue/cash-up',
    {
      onRequest: app.auth.required,
      preValidation: deskFirst,
      schema: {
        tags,
        security,
        operationId: 'getCashUp',
        summary: "A day's cash-up at the desk: expected cash in total and per staff member (owner, manager, staff)",
        description:
          'Desk payments (cash and counter payments staff recorded) by the venue-local day they were received and by who ' +
          'took them, and the cash-backs handed over that day. expected_cash = cash − cash_backs (counter payments, desk QR ' +
          'payments the gateway confirmed, are never in the drawer). cash_backs_of_day lists every cash-back that fell due or ' +
          'was handed over that day with who took the payment, who cancelled, who approved and who paid it out. ' +
          'When the day is closed, `closing` holds what was stored ' +
          'then; later desk money of that day still shows in the live figures. 422 on `date` for a future day.',
        params: VenueParams,
        querystring: CashUpQuery,
        response: { 200: Data(CashUpSchema), ...errorResponses },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store')
      return { data: await cashUp(ctx, venueOf(req).id, req.query.date) }
    },
  )

  app.post(
    '/venues/:venue/cash-up',
    {
      onRequest: app.auth.required,
      preValidation: deskFirst,
      schema: {
        tags,
        security,
        operationId: 'closeCashUp',
        summary: 'Close a day at the desk: counted cash against expected, by whom and when (owner, manager, staff)',
        description:
          'Stores the day’s expected cash (computed now), counted_cash and difference = counted − expected, the ' +
          'per-staff figures, the note, who closed it and when. A day is closed once: a second close (or the loser of ' +
          'two at once) is 409 and changes nothing. 422 on `date` for a future day.',
        params: VenueParams,
        body: CashUpBody,
        response: { 201: Data(CashUpSchema), 409: Message, ...errorResponses },
      },
    },
    async (req, reply) => {
      const data = await closeCashUp(ctx, venueOf(req).id, signedIn(req), req.body)
      return reply.code(201).send({ data })
    },
  )
}

export default routes
