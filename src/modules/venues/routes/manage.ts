import { Type } from 'typebox'
import { signedIn } from '../../../lib/auth.ts'
import { pathId } from '../../../lib/ids.ts'
import type { RouteApp } from '../../../lib/route.ts'
import { Data, errorResponses, Message } from '../../../lib/schemas.ts'
import { acceptUploads, readUploads } from '../../../lib/uploads.ts'
import { MANAGER_ROLES } from '../access.ts'
import { mayCreateVenueFirst, venueAccessFirst } from '../hooks.ts'
import { VenueImageSchema, VenueSchema } from '../resource.ts'
import { ImageUploadBody, VenueCreateBody, VenueUpdateBody } from '../schemas.ts'
import {
  addVenueImage,
  checkImage,
  deleteVenueImage,
  MAX_GALLERY_PER_REQUEST,
  MAX_IMAGE_BYTES,
} from '../service/images.ts'
import { createVenue, deleteVenue, updateVenue, venueForStaff } from '../service/manage.ts'

const tags = ['Venue management']
const security = [{ bearer: [] }]
const consumes = ['application/json', 'multipart/form-data']
const VenueParams = Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) })
// A thumbnail and the gallery, plus one so that one file too many is a 422 naming the field.
const venueUploads = readUploads({ fileBytes: MAX_IMAGE_BYTES, files: MAX_GALLERY_PER_REQUEST + 2 })

export default async function manageRoutes(app: RouteApp) {
  const { ctx } = app
  await acceptUploads(app)

  app.post(
    '/venues',
    {
      onRequest: app.auth.required,
      preValidation: [mayCreateVenueFirst(ctx), venueUploads],
      schema: {
        tags,
        security,
        consumes,
        operationId: 'createVenue',
        summary: 'Create a venue (JSON or multipart with thumbnail and gallery[] ≤ 12); starts unverified',
        description:
          'Any signed-in user may create a venue: one without the venue_owner role needs a verified email (403 ' +
          '"Verify your email address before creating a venue." otherwise) and becomes venue_owner with it. A new ' +
          'venue is unverified, so it stays out of the catalogue until a super admin approves it. The slug comes from the name and is unique (-2, -3, … on clashes); it is never "nearby", "my-venues" or ' +
          'all digits ("venue-<digits>" instead), so every venue stays reachable by slug. owner_id is honoured for ' +
          'super_admin only.',
        body: VenueCreateBody,
        response: { 201: Data(VenueSchema), ...errorResponses },
      },
    },
    async (req, reply) => reply.code(201).send({ data: await createVenue(ctx, signedIn(req), req.body) }),
  )

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/venues/:venue',
      onRequest: app.auth.required,
      preValidation: [venueAccessFirst(ctx, MANAGER_ROLES), venueUploads],
      schema: {
        tags,
        security,
        consumes,
        operationId: method === 'PUT' ? 'updateVenue' : 'patchVenue',
        summary: 'Update a venue (owner, manager, super_admin); partial; new gallery[] images are added',
        description: 'The slug stays as it was when the name changes, so shared links keep working.',
        params: VenueParams,
        body: VenueUpdateBody,
        response: { 200: Data(VenueSchema), ...errorResponses },
      },
      handler: async (req) => ({
        data: await updateVenue(ctx, signedIn(req), req.params.venue, req.body),
      }),
    })
  }

  app.delete(
    '/venues/:venue',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'deleteVenue',
        summary: 'Delete a venue (owner, super_admin): soft delete; 409 while upcoming confirmed bookings exist',
        params: VenueParams,
        response: { 200: Message, 409: Message, ...errorResponses },
      },
    },
    async (req) => {
      await deleteVenue(ctx, signedIn(req), req.params.venue)
      return { message: 'Venue deleted.' }
    },
  )

  app.post(
    '/venues/:venue/images',
    {
      onRequest: app.auth.required,
      preValidation: [venueAccessFirst(ctx, MANAGER_ROLES), readUploads({ fileBytes: MAX_IMAGE_BYTES, files: 2 })],
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data'],
        operationId: 'uploadVenueImage',
        summary: 'Upload a venue photo (owner, manager): image + collection thumbnail|gallery (default gallery)',
        description: 'A new thumbnail replaces the previous one. jpg, png or webp, at most 5 MB.',
        params: VenueParams,
        body: ImageUploadBody,
        response: { 201: Data(VenueImageSchema), ...errorResponses },
      },
    },
    async (req, reply) => {
      const body = req.body
      const venue = await venueForStaff(ctx, signedIn(req), req.params.venue, MANAGER_ROLES)
      const image = await checkImage('image', body.image)
      const data = await addVenueImage(ctx, ctx.db, venue.id, image, body.collection ?? 'gallery')
      return reply.code(201).send({ data })
    },
  )

  app.delete(
    '/venues/:venue/images/:id',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'deleteVenueImage',
        summary: 'Remove a venue photo by its media id (owner, manager)',
        params: Type.Object({ venue: Type.String(), id: Type.String() }),
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      const { venue: key, id } = req.params
      const venue = await venueForStaff(ctx, signedIn(req), key, MANAGER_ROLES)
      await deleteVenueImage(ctx, venue.id, pathId(id))
      return { message: 'Image deleted.' }
    },
  )
}
