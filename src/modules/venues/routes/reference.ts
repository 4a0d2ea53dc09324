import { Type } from 'typebox'
import type { RouteApp } from '../../../lib/route.ts'
import { Data, errorResponses, Message, Nullable } from '../../../lib/schemas.ts'
import { AmenitySchema } from '../resource.ts'
import { AmenityBody, AmenityUpdateBody, SportBody, SportFullSchema, SportUpdateBody } from '../schemas.ts'
import {
  changeAmenity,
  changeSport,
  createAmenity,
  createSport,
  deleteAmenity,
  deleteSport,
  listAmenities,
  listSports,
} from '../service/reference.ts'

const tags = ['Catalogues']
const security = [{ bearer: [] }]
const IdParams = Type.Object({ id: Type.String() })

export default async function referenceRoutes(app: RouteApp) {
  const { ctx } = app
  const admin = app.auth.roles('super_admin')

  app.get(
    '/amenities',
    {
      schema: {
        tags,
        operationId: 'listAmenities',
        security: [],
        summary: 'Amenities a venue can offer',
        response: { 200: Data(Type.Array(AmenitySchema)) },
      },
    },
    async () => ({ data: await listAmenities(ctx) }),
  )
  app.get(
    '/map',
    {
      schema: {
        tags,
        operationId: 'getMapSettings',
        security: [],
        summary: 'The map tiles of the venue location picker (server configuration; public)',
        description:
          'tile_url: MAP_TILE_URL, a template with {z}, {x}, {y} (and maybe {s}), or null when none is configured ' +
          '(the console then shows the marker on a plain background); attribution: MAP_ATTRIBUTION.',
        response: {
          200: Data(
            Type.Object({
              tile_url: Nullable(Type.String()),
              attribution: Type.String(),
            }),
          ),
        },
      },
    },
    async () => ({ data: { tile_url: ctx.config.mapTileUrl ?? null, attribution: ctx.config.mapAttribution } }),
  )
  app.get(
    '/sports',
    {
      schema: {
        tags,
        operationId: 'listSports',
        security: [],
        summary: 'Sports a court can be for',
        response: { 200: Data(Type.Array(SportFullSchema)) },
      },
    },
    async () => ({ data: await listSports(ctx) }),
  )
  app.get(
    '/admin/amenities',
    {
      onRequest: admin,
      schema: {
        tags,
        security,
        operationId: 'adminListAmenities',
        summary: 'Amenities (super_admin)',
        response: { 200: Data(Type.Array(AmenitySchema)), ...errorResponses },
      },
    },
    async () => ({ data: await listAmenities(ctx) }),
  )
  app.post(
    '/admin/amenities',
    {
      onRequest: admin,
      schema: {
        tags,
        security,
        operationId: 'createAmenity',
        summary: 'Add an amenity (super_admin)',
        body: AmenityBody,
        response: { 201: Data(AmenitySchema), ...errorResponses },
      },
    },
    async (req, reply) => reply.code(201).send({ data: await createAmenity(ctx, req.body) }),
  )
  app.put(
    '/admin/amenities/:id',
    {
      onRequest: admin,
      schema: {
        tags,
        security,
        operationId: 'updateAmenity',
        summary: 'Change an amenity (super_admin)',
        params: IdParams,
        body: AmenityUpdateBody,
        response: { 200: Data(AmenitySchema), ...errorResponses },
      },
    },
    async (req) => ({ data: await changeAmenity(ctx, req.params.id, req.body) }),
  )
  app.delete(
    '/admin/amenities/:id',
    {
      onRequest: admin,
      schema: {
        tags,
        security,
        operationId: 'deleteAmenity',
        summary: 'Remove an amenity (super_admin); venues lose it',
        params: IdParams,
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      await deleteAmenity(ctx, req.params.id)
      return { message: 'Amenity deleted.' }
    },
  )
  app.get(
    '/admin/sports',
    {
      onRequest: admin,
      schema: {
        tags,
        security,
        operationId: 'adminListSports',
        summary: 'Sports (super_admin)',
        response: { 200: Data(Type.Array(SportFullSchema)), ...errorResponses },
      },
    },
    async () => ({ data: await listSports(ctx) }),
  )
  app.post(
    '/admin/sports',
    {
      onRequest: admin,
      schema: {
        tags,
        security,
        operationId: 'createSport',
        summary: 'Add a sport (super_admin); slug, key and label default from the name',
        body: SportBody,
        response: { 201: Data(SportFullSchema), ...errorResponses },
      },
    },
    async (req, reply) => reply.code(201).send({ data: await createSport(ctx, req.body) }),
  )
  app.put(
    '/admin/sports/:id',
    {
      onRequest: admin,
      schema: {
        tags,
        security,
        operationId: 'updateSport',
        summary: 'Change a sport (super_admin)',
        params: IdParams,
        body: SportUpdateBody,
        response: { 200: Data(SportFullSchema), ...errorResponses },
      },
    },
    async (req) => ({ data: await changeSport(ctx, req.params.id, req.body) }),
  )
  app.delete(
    '/admin/sports/:id',
    {
      onRequest: admin,
      schema: {
        tags,
        security,
        operationId: 'deleteSport',
        summary: 'Remove a sport (super_admin); 409 while courts use it',
        params: IdParams,
        response: { 200: Message, 409: Message, ...errorResponses },
      },
    },
    async (req) => {
      await deleteSport(ctx, req.params.id)
      return { message: 'Sport deleted.' }
    },
  )
}
