import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { pathId } from '../../lib/ids.ts'
import { pageParams, paginated } from '../../lib/pagination.ts'
import { Data, errorResponses, Message, Paginated } from '../../lib/schemas.ts'
import { bookingAccessHooks } from '../booking-core/index.ts'
import { GatewayStarted, type Gateways, WalletPaid } from '../payments/index.ts'
import { joinMatch, leaveMatch } from './play.ts'
import { MatchSchema, PlayerProfileSchema } from './resource.ts'
import { confirmResult, playerProfile, reportResult } from './results.ts'
import {
  BookingParams,
  CreateMatchBody,
  IndoorBookingParams,
  InviteBody,
  JoinBody,
  MatchListQuery,
  MatchParams,
  ResultBody,
  ShowMatchQuery,
  UserParams,
} from './schemas.ts'
import { createMatch, invitePlayer, listMatches, matchOfBooking, showMatch } from './service.ts'

const tags = ['Matches']
const security = [{ bearer: [] }]

const JOIN_DOC =
  'Takes an open spot: one share of the booking’s split, paid as a share is paid (POST /shares/{token}/pay): ' +
  'wallet (default) pays at once, 200 {message, data: {match, payment}} (422 "Insufficient wallet balance."); ' +
  'gateway_1/2/3 answer 201 {data: {match, payment, payment_url}} and the share counts as paid when the gateway ' +
  'confirms it. A private match needs its link’s token (or an invitation), else 404. 409 already a player or ' +
  'no spot left (of racing joins for the last spot exactly one wins), or the whole booking was paid another way ' +
  '(its unpaid shares settled: spots_left 0); 422 when a share is more than the booking’s balance due; 422 on level when the player’s level in ' +
  'the sport is outside level_min–level_max and the organizer has not invited them; 422 when the match is not ' +
  'open or the split’s deadline has passed.'

const routes: FastifyPluginAsyncTypebox<{ gateways: Gateways }> = async (app, { gateways }) => {
  const { ctx } = app
  const courtDesk = bookingAccessHooks(ctx, 'court', 'booking').bookingDesk
  const indoorDesk = bookingAccessHooks(ctx, 'indoor', 'indoorGameBooking').bookingDesk

  const deskSchema = (operationId: string) => ({
    operationId,
    tags,
    security,
    summary: 'The match on a booking (venue desk)',
    description:
      'The open match on this booking with every player and level, for the desk of the booking’s venue ' +
      '(owner, manager, staff; others 403). 404 when the booking has no match.',
    response: { 200: Data(MatchSchema), ...errorResponses },
  })

  app.get(
    '/bookings/:booking/match',
    {
      onRequest: app.auth.required,
      preValidation: courtDesk,
      schema: { ...deskSchema('showCourtBookingMatch'), params: BookingParams },
    },
    async (req) => ({ data: await matchOfBooking(ctx, 'court', pathId(req.params.booking)) }),
  )

  app.get(
    '/indoor-game-bookings/:indoorGameBooking/match',
    {
      onRequest: app.auth.required,
      preValidation: indoorDesk,
      schema: { ...deskSchema('showIndoorBookingMatch'), params: IndoorBookingParams },
    },
    async (req) => ({ data: await matchOfBooking(ctx, 'indoor', pathId(req.params.indoorGameBooking)) }),
  )

  app.post(
    '/matches',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'createMatch',
        tags,
        security,
        summary: 'Open a match on your booking',
        description:
          'The booking (yours: else 403) must be pending with nothing paid and not started (422 on booking_id). ' +
          'It is split into players_total equal shares (the split of POST /bookings/{booking}/split), the organizer ' +
          'holding the first; one live match per booking (409). level_min/level_max bound who may join (0.0–7.0).',
        body: CreateMatchBody,
        response: { 201: Data(MatchSchema), 409: Message, ...errorResponses },
      },
    },
    async (req, reply) => reply.code(201).send({ data: await createMatch(ctx, signedIn(req), req.body) }),
  )

  app.get(
    '/matches',
    {
      onRequest: app.auth.optional,
      schema: {
        operationId: 'listMatches',
        security: [],
        tags,
        summary: 'Public matches still to be played, soonest first',
        description:
          'Open and full public matches starting after now. Filters: sport (key), date (venue-local day), ' +
          'lat+lng (together) with radius in km (default 10), level (the match’s range admits it). Private ' +
          'matches are never listed: they are reachable only by their link.',
        querystring: MatchListQuery,
        response: { 200: Paginated(MatchSchema), 422: errorResponses[422] },
      },
    },
    async (req) => {
      const page = pageParams(req.query)
      const { items, total } = await listMatches(ctx, req.user ?? null, req.query, page)
      return paginated(req, ctx.config.appUrl, items, total, page)
    },
  )

  app.get(
    '/matches/:match',
    {
      onRequest: app.auth.optional,
      schema: {
        operationId: 'showMatch',
        security: [],
        tags,
        summary: 'One match',
        description:
          'A public match to anyone; a private one with its link’s token, to its players and to the invited (404 otherwise).',
        params: MatchParams,
        querystring: ShowMatchQuery,
        response: { 200: Data(MatchSchema), 404: Message, 422: errorResponses[422] },
      },
    },
    async (req) => ({ data: await showMatch(ctx, req.user ?? null, req.params.match, req.query.token) }),
  )

  app.post(
    '/matches/:match/join',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'joinMatch',
        tags,
        security,
        summary: 'Join a match',
        description: JOIN_DOC,
        params: MatchParams,
        body: JoinBody,
        response: {
          200: Type.Object({
            message: Type.String(),
            data: Type.Object({ match: MatchSchema, payment: WalletPaid.properties.data.properties.payment }),
          }),
          201: Type.Object({
            data: Type.Object({
              match: MatchSchema,
              payment: GatewayStarted.properties.data.properties.payment,
              payment_url: GatewayStarted.properties.data.properties.payment_url,
            }),
          }),
          409: Message,
          ...errorResponses,
        },
      },
    },
    async (req, reply) => {
      const res = await joinMatch(ctx, gateways, signedIn(req), req.params.match, req.body)
      if (res.kind === 'wallet') {
        return reply
          .code(200)
          .send({ message: 'You joined the match.', data: { match: res.match, payment: res.payment } })
      }
      const { id, method, amount } = res.payment
      return reply.code(201).send({
        data: {
          match: res.match,
          payment: { id, method, amount, status: 'initiated' as const },
          payment_url: res.paymentUrl,
        },
      })
    },
  )

  app.post(
    '/matches/:match/leave',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'leaveMatch',
        tags,
        security,
        summary: 'Leave a match',
        description:
          'A player other than the organizer, before the split’s deadline: their paid share is refunded the way ' +
          'it came (online money to their wallet) and the spot reopens. 403 not a player; 422 the organizer ' +
          '(cancel the booking instead), the match is not open, or the deadline has passed.',
        params: MatchParams,
        response: {
          200: Type.Object({
            message: Type.String(),
            data: Type.Object({ match: MatchSchema, refunded: Type.String({ description: 'NPR refunded' }) }),
          }),
          ...errorResponses,
        },
      },
    },
    async (req) => {
      const res = await leaveMatch(ctx, signedIn(req), req.params.match)
      return { message: 'You left the match.', data: res }
    },
  )

  app.post(
    '/matches/:match/invites',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'inviteToMatch',
        tags,
        security,
        summary: 'Invite a player (organizer)',
        description:
          'By the email of their account (unknown: 422 on email). An invited player sees a private match and may ' +
          'join outside its level range. Only the organizer (others 403).',
        params: MatchParams,
        body: InviteBody,
        response: {
          201: Data(Type.Object({ id: Type.Integer(), name: Type.String() })),
          ...errorResponses,
        },
      },
    },
    async (req, reply) =>
      reply.code(201).send({ data: await invitePlayer(ctx, signedIn(req), req.params.match, req.body.email) }),
  )

  app.post(
    '/matches/:match/result',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'reportMatchResult',
        tags,
        security,
        summary: 'Report the result (a player)',
        description:
          'After the start, by a player of the match (others 403). teams: two lists of the match’s players ' +
          '(each at most once, else 422); score: [team 1, team 2]. Reporting again before it is confirmed ' +
          'replaces it; after, 409. The other team is asked to confirm (MatchResultToConfirm).',
        params: MatchParams,
        body: ResultBody,
        response: { 200: Data(MatchSchema), 409: Message, ...errorResponses },
      },
    },
    async (req) => ({ data: await reportResult(ctx, signedIn(req), req.params.match, req.body) }),
  )

  app.post(
    '/matches/:match/result/confirm',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'confirmMatchResult',
        tags,
        security,
        summary: 'Confirm the result (a player of the other team)',
        description:
          'By a player of the team the reporter was not on (others 403); no result yet 422; twice 409. The ' +
          'match becomes played and every player’s level in its sport is updated (Glicko-2, docs/matches.md).',
        params: MatchParams,
        response: { 200: Data(MatchSchema), 409: Message, ...errorResponses },
      },
    },
    async (req) => ({ data: await confirmResult(ctx, signedIn(req), req.params.match) }),
  )

  app.get(
    '/players/:user',
    {
      schema: {
        operationId: 'showPlayer',
        security: [],
        tags,
        summary: 'A player’s levels',
        description:
          'Public: levels per sport (0.0–7.0, with how reliable each is), reliability (share of joined matches ' +
          'the player did not leave) and matches played (with a confirmed result).',
        params: UserParams,
        response: { 200: Data(PlayerProfileSchema), 404: Message },
      },
    },
    async (req) => ({ data: await playerProfile(ctx, req.params.user) }),
  )
}

export default routes
