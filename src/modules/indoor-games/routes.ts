import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { Data, errorResponses, Message } from '../../lib/schemas.ts'
import { venueAccessFirst } from '../venues/service/manage.ts'
import { IndoorGameSchema } from './resource.ts'
import { IndoorGameCreateBody, IndoorGameListQuery, IndoorGameUpdateBody } from './schemas.ts'
import {
  createIndoorGame,
  deleteIndoorGame,
  gameAccessFirst,
  showIndoorGame,
  updateIndoorGame,
  venueIndoorGames,
} from './service.ts'

const tags = ['Indoor games']
const security = [{ bearer: [] }]
const GameParams = Type.Object({ indoorGame: Type.String() })

export default async function routes(app: FastifyInstance) {
  const { ctx } = app
  const gameKey = (req: { params: unknown }) => (req.params as { indoorGame: string }).indoorGame

  app.get(
    '/venues/:venueId/indoor-games',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        summary: 'The active indoor games of a venue, in display order (optionally one game_type)',
        params: Type.Object({ venueId: Type.String({ description: 'Venue id (a slug is also accepted)' }) }),
        querystring: IndoorGameListQuery,
        response: { 200: Data(Type.Array(IndoorGameSchema)), ...errorResponses },
      },
    },
    async (req) => ({
      data: await venueIndoorGames(
        ctx,
        req.user ?? null,
        (req.params as { venueId: string }).venueId,
        (req.query as { game_type?: string }).game_type,
      ),
    }),
  )

  app.post(
    '/venues/:venue/indoor-games',
    {
      onRequest: app.auth.required,
      preValidation: venueAccessFirst(ctx, ['owner', 'manager']),
      schema: {
        tags,
        security,
        summary: 'Add an indoor game (one station) to the venue (owner, manager)',
        params: Type.Object({ venue: Type.String() }),
        body: IndoorGameCreateBody,
        response: { 201: Data(IndoorGameSchema), ...errorResponses },
      },
    },
    async (req, reply) =>
      reply.code(201).send({
        data: await createIndoorGame(ctx, req.user!, (req.params as { venue: string }).venue, req.body as never),
      }),
  )

  app.get(
    '/indoor-games/:indoorGame',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        summary: 'One indoor game with its venue',
        params: GameParams,
        response: { 200: Data(IndoorGameSchema), ...errorResponses },
      },
    },
    async (req) => ({ data: await showIndoorGame(ctx, req.user ?? null, gameKey(req)) }),
  )

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/indoor-games/:indoorGame',
      onRequest: app.auth.required,
      preValidation: gameAccessFirst(ctx),
      schema: {
        tags,
        security,
        summary: 'Update an indoor game (owner, manager); partial',
        params: GameParams,
        body: IndoorGameUpdateBody,
        response: { 200: Data(IndoorGameSchema), ...errorResponses },
      },
      handler: async (req) => ({ data: await updateIndoorGame(ctx, req.user!, gameKey(req), req.body as never) }),
    })
  }

  app.delete(
    '/indoor-games/:indoorGame',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        summary: 'Delete an indoor game (owner, manager): soft delete; 409 while upcoming confirmed bookings exist',
        params: GameParams,
        response: { 200: Message, 409: Message, ...errorResponses },
      },
    },
    async (req) => {
      await deleteIndoorGame(ctx, req.user!, gameKey(req))
      return { message: 'Indoor game deleted.' }
    },
  )
}
