import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, flagOn, Message } from '../../lib/schemas.ts'
import { MANAGER_ROLES, venueAccessFirst } from '../venues/index.ts'
import { gameAccessFirst } from './hooks.ts'
import { IndoorGameSchema } from './resource.ts'
import { IndoorGameCreateBody, IndoorGameListQuery, IndoorGameUpdateBody } from './schemas.ts'
import { createIndoorGame, deleteIndoorGame, showIndoorGame, updateIndoorGame, venueIndoorGames } from './service.ts'

const tags = ['Indoor games']
const security = [{ bearer: [] }]
const GameParams = Type.Object({ indoorGame: Type.String() })

const routes: Routes = async (app) => {
  const { ctx } = app

  app.get(
    '/venues/:venue/indoor-games',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        operationId: 'listVenueIndoorGames',
        security: [],
        summary: 'The active indoor games of a venue, in display order (optionally one game_type)',
        description:
          "Guests and customers see the active games of a public venue. With include_inactive=1 (or true) the venue's " +
          'owner, managers, staff and super_admin also see deactivated games (is_active false), so they can ' +
          'reactivate them; for anyone else the parameter is ignored.',
        params: Type.Object({ venue: Type.String({ description: 'Venue id (a slug is also accepted)' }) }),
        querystring: IndoorGameListQuery,
        response: { 200: Data(Type.Array(IndoorGameSchema)), ...errorResponses },
      },
    },
    async (req) => ({
      data: await venueIndoorGames(ctx, req.user ?? null, req.params.venue, {
        gameType: req.query.game_type,
        includeInactive: flagOn(req.query.include_inactive),
      }),
    }),
  )

  app.post(
    '/venues/:venue/indoor-games',
    {
      onRequest: app.auth.required,
      preValidation: venueAccessFirst(ctx, MANAGER_ROLES),
      schema: {
        tags,
        security,
        operationId: 'createIndoorGame',
        summary: 'Add an indoor game (one station) to the venue (owner, manager)',
        params: Type.Object({ venue: Type.String() }),
        body: IndoorGameCreateBody,
        response: { 201: Data(IndoorGameSchema), ...errorResponses },
      },
    },
    async (req, reply) =>
      reply.code(201).send({
        data: await createIndoorGame(ctx, signedIn(req), req.params.venue, req.body),
      }),
  )

  app.get(
    '/indoor-games/:indoorGame',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        operationId: 'getIndoorGame',
        security: [],
        summary: 'One indoor game with its venue',
        params: GameParams,
        response: { 200: Data(IndoorGameSchema), ...errorResponses },
      },
    },
    async (req) => ({ data: await showIndoorGame(ctx, req.user ?? null, req.params.indoorGame) }),
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
        operationId: method === 'PUT' ? 'updateIndoorGame' : 'patchIndoorGame',
        summary: 'Update an indoor game (owner, manager); partial',
        params: GameParams,
        body: IndoorGameUpdateBody,
        response: { 200: Data(IndoorGameSchema), ...errorResponses },
      },
      handler: async (req) => ({ data: await updateIndoorGame(ctx, signedIn(req), req.params.indoorGame, req.body) }),
    })
  }

  app.delete(
    '/indoor-games/:indoorGame',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'deleteIndoorGame',
        summary: 'Delete an indoor game (owner, manager): soft delete; 409 while upcoming confirmed bookings exist',
        params: GameParams,
        response: { 200: Message, 409: Message, ...errorResponses },
      },
    },
    async (req) => {
      await deleteIndoorGame(ctx, signedIn(req), req.params.indoorGame)
      return { message: 'Indoor game deleted.' }
    },
  )
}

export default routes
