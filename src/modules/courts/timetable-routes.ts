import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import type { RouteApp } from '../../lib/route.ts'
import { Data, errorResponses, Message } from '../../lib/schemas.ts'
import { DESK_ROLES, MANAGER_ROLES } from '../venues/index.ts'
import { courtAccessFirst } from './hooks.ts'
import { PricingRuleSchema, ScheduleEntrySchema } from './resource.ts'
import { BlockBody, BlockQuery, BlockSchema, PricingBody, PricingUpdateBody, ScheduleBody } from './schemas.ts'
import {
  addBlock,
  addPricingRule,
  deleteBlock,
  deletePricingRule,
  getSchedule,
  listBlocks,
  listPricing,
  putSchedule,
  updatePricingRule,
} from './service/timetable.ts'

// A court's weekly schedule, pricing rules and maintenance blocks.

const tags = ['Courts']
const security = [{ bearer: [] }]
const CourtParams = Type.Object({ court: Type.String() })

export default async function timetableRoutes(app: RouteApp) {
  const { ctx } = app

  app.get(
    '/courts/:court/schedule',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        operationId: 'getCourtSchedule',
        security: [],
        summary: 'The court’s weekly schedule; a day without an entry uses the venue’s opening hours',
        params: CourtParams,
        response: { 200: Data(Type.Array(ScheduleEntrySchema)), ...errorResponses },
      },
    },
    async (req) => ({ data: await getSchedule(ctx, req.user ?? null, req.params.court) }),
  )

  app.put(
    '/courts/:court/schedule',
    {
      onRequest: app.auth.required,
      preValidation: courtAccessFirst(ctx, MANAGER_ROLES),
      schema: {
        tags,
        security,
        operationId: 'replaceCourtSchedule',
        summary: 'Replace the weekly schedule (owner, manager)',
        description:
          'Each entry: day_of_week 0–6, open_time and close_time (HH:mm or HH:mm:ss; default the venue hours), ' +
          'is_closed. close_time must be after open_time (no overnight hours).',
        params: CourtParams,
        body: ScheduleBody,
        response: { 200: Data(Type.Array(ScheduleEntrySchema)), ...errorResponses },
      },
    },
    async (req) => ({ data: await putSchedule(ctx, signedIn(req), req.params.court, req.body) }),
  )

  app.get(
    '/courts/:court/pricing',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        operationId: 'listPricingRules',
        security: [],
        summary: 'The court’s pricing rules',
        params: CourtParams,
        response: { 200: Data(Type.Array(PricingRuleSchema)), ...errorResponses },
      },
    },
    async (req) => ({ data: await listPricing(ctx, req.user ?? null, req.params.court) }),
  )

  app.post(
    '/courts/:court/pricing',
    {
      onRequest: app.auth.required,
      preValidation: courtAccessFirst(ctx, MANAGER_ROLES),
      schema: {
        tags,
        security,
        operationId: 'createPricingRule',
        summary: 'Add a pricing rule (owner, manager); end_time after start_time',
        params: CourtParams,
        body: PricingBody,
        response: { 201: Data(PricingRuleSchema), ...errorResponses },
      },
    },
    async (req, reply) =>
      reply.code(201).send({ data: await addPricingRule(ctx, signedIn(req), req.params.court, req.body) }),
  )

  app.put(
    '/courts/:court/pricing/:rule',
    {
      onRequest: app.auth.required,
      preValidation: courtAccessFirst(ctx, MANAGER_ROLES),
      schema: {
        tags,
        security,
        operationId: 'updatePricingRule',
        summary: 'Change a pricing rule (owner, manager); partial',
        params: Type.Object({ court: Type.String(), rule: Type.String() }),
        body: PricingUpdateBody,
        response: { 200: Data(PricingRuleSchema), ...errorResponses },
      },
    },
    async (req) => ({
      data: await updatePricingRule(ctx, signedIn(req), req.params.court, req.params.rule, req.body),
    }),
  )

  app.delete(
    '/courts/:court/pricing/:rule',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'deletePricingRule',
        summary: 'Remove a pricing rule (owner, manager)',
        params: Type.Object({ court: Type.String(), rule: Type.String() }),
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      await deletePricingRule(ctx, signedIn(req), req.params.court, req.params.rule)
      return { message: 'Pricing rule deleted.' }
    },
  )

  app.get(
    '/courts/:court/blocks',
    {
      onRequest: app.auth.required,
      preValidation: courtAccessFirst(ctx, DESK_ROLES),
      schema: {
        tags,
        security,
        operationId: 'listCourtBlocks',
        summary: 'Maintenance blocks of the court (owner, manager, staff): on `date`, or from today on',
        params: CourtParams,
        querystring: BlockQuery,
        response: { 200: Data(Type.Array(BlockSchema)), ...errorResponses },
      },
    },
    async (req) => ({
      data: await listBlocks(ctx, signedIn(req), req.params.court, req.query.date),
    }),
  )

  app.post(
    '/courts/:court/blocks',
    {
      onRequest: app.auth.required,
      preValidation: courtAccessFirst(ctx, DESK_ROLES),
      schema: {
        tags,
        security,
        operationId: 'createCourtBlock',
        summary: 'Block a time range for maintenance (owner, manager, staff); the slots become unavailable',
        description:
          'A block over live bookings (pending with a running hold, confirmed, playing) is 409 naming them ' +
          '(errors.bookings: their numbers). With cancel_bookings true the owner or a manager (staff: 403) cancels ' +
          'them in the same transaction, by the venue: what is still refundable goes back the way it came (online ' +
          'money to the wallet, desk money as a cash-back at the desk) and BookingCancelled gives the reason; ' +
          '`cancelled_bookings` lists them. A booking being played is never cancelled (409).',
        params: CourtParams,
        body: BlockBody,
        response: {
          201: Type.Object({
            data: BlockSchema,
            cancelled_bookings: Type.Optional(
              Type.Array(
                Type.Object({
                  booking_id: Type.Integer(),
                  booking_number: Type.String(),
                  refund_amount: Type.String({ description: 'NPR refunded (wallet and desk together)' }),
                  message: Type.String(),
                }),
                { description: 'With cancel_bookings: the bookings the block cancelled' },
              ),
            ),
          }),
          409: Type.Object({
            message: Type.String(),
            errors: Type.Optional(Type.Object({ bookings: Type.Array(Type.String()) })),
          }),
          ...errorResponses,
        },
      },
    },
    async (req, reply) => {
      const { block, cancelled } = await addBlock(ctx, signedIn(req), req.params.court, req.body)
      return reply
        .code(201)
        .send({ data: block, ...(req.body.cancel_bookings ? { cancelled_bookings: cancelled } : {}) })
    },
  )

  app.delete(
    '/courts/:court/blocks/:block',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'deleteCourtBlock',
        summary: 'Remove a maintenance block (owner, manager, staff)',
        params: Type.Object({ court: Type.String(), block: Type.String() }),
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      await deleteBlock(ctx, signedIn(req), req.params.court, req.params.block)
      return { message: 'Block deleted.' }
    },
  )
}
