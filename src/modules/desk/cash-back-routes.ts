import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, Nullable } from '../../lib/schemas.ts'
import { cashBackResource, cashBacksOf, payCashBack } from '../booking-core/index.ts'
import { VenueParams } from './schemas.ts'
import { type DeskVenue, deskVenue } from './service.ts'

// Cash-backs at the desk: desk money refunded (a cancelled or refunded cash booking) is handed back
// at the venue, never credited to the platform wallet. The desk lists what is due and records
// paying it out; the drawer's count (the ledger's desk account) goes down by it.

const tags = ['Front desk']
const security = [{ bearer: [] }]

const CashBackSchema = Type.Object(
  {
    id: Type.Integer(),
    booking_type: Type.String({ description: 'court or indoor' }),
    booking_id: Type.Integer(),
    payment_id: Type.Integer({ description: 'The desk payment refunded' }),
    user_id: Nullable(Type.Integer()),
    amount: Type.String({ description: 'NPR to hand back' }),
    reason: Nullable(Type.String()),
    status: Type.Union([Type.Literal('due'), Type.Literal('paid')]),
    paid_by: Nullable(Type.Integer({ description: 'The staff member who handed it over' })),
    paid_at: Nullable(Type.String({ description: 'YYYY-MM-DD HH:mm:ss, venue time zone' })),
    created_at: Nullable(Type.String({ description: 'YYYY-MM-DD HH:mm:ss, venue time zone' })),
  },
  { $id: 'CashBack' },
)

const CashBackQuery = Type.Object({
  status: Type.Optional(
    Type.Union([Type.Literal('due'), Type.Literal('paid'), Type.Literal('all')], { default: 'due' }),
  ),
})

const routes: Routes = async (app) => {
  const { ctx } = app
  const checked = new WeakMap<FastifyRequest, DeskVenue>()
  const deskFirst = async (req: FastifyRequest & { params: { venue: string } }) => {
    checked.set(req, await deskVenue(ctx, signedIn(req), req.params.venue))
  }
  const venueOf = async (req: FastifyRequest & { params: { venue: string } }) =>
    checked.get(req) ?? (await deskVenue(ctx, signedIn(req), req.params.venue))

  app.get(
    '/venues/:venue/cash-backs',
    {
      onRequest: app.auth.required,
      preValidation: deskFirst,
      schema: {
        tags,
        security,
        operationId: 'listCashBacks',
        summary: 'Refunds of desk money to hand back at the desk (owner, manager, staff; default: those due)',
        params: VenueParams,
        querystring: CashBackQuery,
        response: { 200: Data(Type.Array(CashBackSchema)), ...errorResponses },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store')
      const venue = await venueOf(req)
      const rows = await cashBacksOf(ctx.db, venue.id, req.query.status ?? 'due')
      return { data: rows.map((r) => cashBackResource(r, ctx.zone)) }
    },
  )

  app.post(
    '/venues/:venue/cash-backs/:cashBack/pay',
    {
      onRequest: app.auth.required,
      preValidation: deskFirst,
      schema: {
        tags,
        security,
        operationId: 'payCashBack',
        summary: 'Record handing a cash-back over at the desk (owner, manager, staff); 422 when already paid',
        params: Type.Object({ venue: VenueParams.properties.venue, cashBack: Type.Integer({ minimum: 1 }) }),
        response: { 200: Data(CashBackSchema), ...errorResponses },
      },
    },
    async (req) => {
      const venue = await venueOf(req)
      const staff = signedIn(req)
      const row = await ctx.db
        .transaction()
        .execute((trx) => payCashBack(ctx, trx, venue.id, req.params.cashBack, staff.id))
      return { data: cashBackResource(row, ctx.zone) }
    },
  )
}

export default routes
