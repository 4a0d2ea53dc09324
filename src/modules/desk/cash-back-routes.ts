import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, IdParam, Nullable } from '../../lib/schemas.ts'
import { approveCashBack, cashBackResource, cashBacksOf, payCashBack } from '../booking-core/index.ts'
import { MANAGER_ROLES, venueForStaff } from '../venues/index.ts'
import { VenueParams } from './schemas.ts'
import { type DeskVenue, deskVenue } from './service.ts'

// Cash-backs at the desk (docs/payments.md, "Cash-backs"): desk money refunded (a cancelled or
// refunded desk payment) is handed back at the venue, never credited to the platform wallet. The
// desk lists them and records paying one out; the drawer's count (the ledger's desk account) goes
// down by it. Only cash the drawer took for the booking is paid out, and above
// CASH_BACK_APPROVAL_AMOUNT an owner or manager approves first.

const tags = ['Front desk']
const security = [{ bearer: [] }]

const Who = (description: string) => Nullable(Type.Integer({ description }))
const Name = Nullable(Type.String())
const Time = Nullable(Type.String({ description: 'YYYY-MM-DD HH:mm:ss, venue time zone' }))

const CashBackSchema = Type.Object(
  {
    id: Type.Integer(),
    booking_type: Type.String({ description: 'court or indoor' }),
    booking_id: Type.Integer(),
    booking_number: Nullable(Type.String()),
    payment_id: Type.Integer({ description: 'The desk payment refunded' }),
    payment_method: Type.String({ description: 'Its method: only a cash payment is paid back from the drawer' }),
    user_id: Nullable(Type.Integer()),
    amount: Type.String({ description: 'NPR to hand back' }),
    reason: Nullable(Type.String()),
    status: Type.Union([Type.Literal('due'), Type.Literal('paid'), Type.Literal('moved')], {
      description: 'moved: a cash-back of a typed gateway payment, now a gateway refund due (migration 032)',
    }),
    needs_approval: Type.Boolean({
      description: 'Above CASH_BACK_APPROVAL_AMOUNT: an owner or manager approves it before staff pay it out',
    }),
    covered_by_drawer: Type.Boolean({
      description:
        "Paid, or payable from the drawer now: its payment was cash and the booking's cash taken at the desk, " +
        'less its cash-backs already handed over, covers it',
    }),
    taken_by: Who('Who recorded the refunded payment at the desk'),
    taken_by_name: Name,
    cancelled_by: Who('Who cancelled the booking or refunded the payment (null: the system)'),
    cancelled_by_name: Name,
    approved_by: Who('The owner or manager who approved it'),
    approved_by_name: Name,
    approved_at: Time,
    paid_by: Who('Who handed it over'),
    paid_by_name: Name,
    paid_at: Time,
    created_at: Time,
  },
  { $id: 'CashBack' },
)

const CashBackQuery = Type.Object({
  status: Type.Optional(
    Type.Union([Type.Literal('due'), Type.Literal('paid'), Type.Literal('all'), Type.Literal('awaiting_approval')], {
      default: 'due',
      description: 'awaiting_approval: due, above the approval amount and not yet approved',
    }),
  ),
})

const CashBackParams = Type.Object({ venue: VenueParams.properties.venue, cashBack: IdParam })

const routes: Routes = async (app) => {
  const { ctx } = app
  const checked = new WeakMap<FastifyRequest, DeskVenue>()
  const deskFirst = async (req: FastifyRequest & { params: { venue: string } }) => {
    checked.set(req, await deskVenue(ctx, signedIn(req), req.params.venue))
  }
  const managerFirst = async (req: FastifyRequest & { params: { venue: string } }) => {
    checked.set(req, await venueForStaff(ctx, signedIn(req), req.params.venue, MANAGER_ROLES))
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
        description:
          'Each with who took the refunded payment, who cancelled or refunded it, who approved and who paid it ' +
          'out. status=awaiting_approval lists the due ones above CASH_BACK_APPROVAL_AMOUNT not yet approved.',
        params: VenueParams,
        querystring: CashBackQuery,
        response: { 200: Data(Type.Array(CashBackSchema)), ...errorResponses },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store')
      const venue = await venueOf(req)
      const rows = await cashBacksOf(ctx, venue.id, req.query.status ?? 'due')
      return { data: rows.map((r) => cashBackResource(ctx, r)) }
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
        summary: 'Record handing a cash-back over at the desk (owner, manager, staff)',
        description:
          'Only cash the drawer took for the booking is paid out: 422 when its payment was not cash, or when the ' +
          "booking's cash taken at the desk less its cash-backs already handed over does not cover it. Above " +
          "CASH_BACK_APPROVAL_AMOUNT staff need an owner's or manager's approval first (422); an owner or manager " +
          'paying it approves it. 422 when already paid.',
        params: CashBackParams,
        response: { 200: Data(CashBackSchema), ...errorResponses },
      },
    },
    async (req) => {
      const venue = await venueOf(req)
      const actor = { id: signedIn(req).id, role: venue.role }
      const row = await ctx.db
        .transaction()
        .execute((trx) => payCashBack(ctx, trx, venue.id, req.params.cashBack, actor))
      return { data: cashBackResource(ctx, row) }
    },
  )

  app.post(
    '/venues/:venue/cash-backs/:cashBack/approve',
    {
      onRequest: app.auth.required,
      preValidation: managerFirst,
      schema: {
        tags,
        security,
        operationId: 'approveCashBack',
        summary: 'Approve paying out a cash-back above CASH_BACK_APPROVAL_AMOUNT (owner, manager)',
        description:
          'Staff may then pay it out. 422 when it is already approved or paid, is not above the approval amount, ' +
          'or refunds a payment that was not cash (never paid from the drawer).',
        params: CashBackParams,
        response: { 200: Data(CashBackSchema), ...errorResponses },
      },
    },
    async (req) => {
      const venue = checked.get(req) ?? (await venueForStaff(ctx, signedIn(req), req.params.venue, MANAGER_ROLES))
      const user = signedIn(req)
      const row = await ctx.db
        .transaction()
        .execute((trx) => approveCashBack(ctx, trx, venue.id, req.params.cashBack, user.id))
      return { data: cashBackResource(ctx, row) }
    },
  )
}

export default routes
