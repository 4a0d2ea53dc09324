import { Type } from 'typebox'
import { signedIn } from '../../../lib/auth.ts'
import type { RouteApp } from '../../../lib/route.ts'
import { Data, errorResponses, Message } from '../../../lib/schemas.ts'
import { MANAGER_ROLES } from '../access.ts'
import { venueAccessFirst } from '../hooks.ts'
import { HolidayBody, HolidaySchema, InvitationSchema, StaffBody, StaffMemberSchema } from '../schemas.ts'
import { addHoliday, deleteHoliday, listHolidays } from '../service/holidays.ts'
import { assignStaff, listStaff, removeStaff } from '../service/staff.ts'

const security = [{ bearer: [] }]
const VenueParams = Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) })

export default async function staffRoutes(app: RouteApp) {
  const { ctx } = app

  app.get(
    '/venues/:venue/staff',
    {
      onRequest: app.auth.required,
      schema: {
        tags: ['Venue staff'],
        security,
        operationId: 'listVenueStaff',
        summary: 'Managers and staff of the venue (owner, super_admin)',
        params: VenueParams,
        response: { 200: Data(Type.Array(StaffMemberSchema)), ...errorResponses },
      },
    },
    async (req) => ({ data: await listStaff(ctx, signedIn(req), req.params.venue) }),
  )

  app.post(
    '/venues/:venue/staff',
    {
      onRequest: app.auth.required,
      preValidation: venueAccessFirst(ctx, ['owner']),
      schema: {
        tags: ['Venue staff'],
        security,
        operationId: 'addVenueStaff',
        summary: 'Invite an email as manager or staff (owner, super_admin)',
        description:
          'Everyone gets an invitation (202, a pending VenueInvitation), an existing account too: a mail with a ' +
          'link to /console/#/invitations/{token}, valid 7 days, and for an existing account an in-app ' +
          'notification (StaffInvitation). An existing account gets the role only when it accepts signed in ' +
          '(POST /me/invitations/{id}/accept); anyone else sets a name and password (POST ' +
          '/invitations/{token}/accept). Inviting the same email again replaces the pending invitation (the ' +
          'old link stops working). The venue owner is 422 on email; someone who already works here with ' +
          'that role is 409.',
        params: VenueParams,
        body: StaffBody,
        response: { 202: Data(InvitationSchema), 409: Message, ...errorResponses },
      },
    },
    async (req, reply) =>
      reply.code(202).send({ data: await assignStaff(ctx, signedIn(req), req.params.venue, req.body) }),
  )

  app.delete(
    '/venues/:venue/staff/:user',
    {
      onRequest: app.auth.required,
      schema: {
        tags: ['Venue staff'],
        security,
        operationId: 'removeVenueStaff',
        summary: 'Remove a manager or staff member from the venue (owner, super_admin)',
        params: Type.Object({ venue: Type.String(), user: Type.String() }),
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      await removeStaff(ctx, signedIn(req), req.params.venue, req.params.user)
      return { message: 'Staff member removed.' }
    },
  )

  app.get(
    '/venues/:venue/holidays',
    {
      onRequest: app.auth.required,
      schema: {
        tags: ['Venue holidays'],
        security,
        operationId: 'listVenueHolidays',
        summary: 'Holidays of the venue (owner, manager); holiday pricing rules apply on them',
        params: VenueParams,
        response: { 200: Data(Type.Array(HolidaySchema)), ...errorResponses },
      },
    },
    async (req) => ({ data: await listHolidays(ctx, signedIn(req), req.params.venue) }),
  )

  app.post(
    '/venues/:venue/holidays',
    {
      onRequest: app.auth.required,
      preValidation: venueAccessFirst(ctx, MANAGER_ROLES),
      schema: {
        tags: ['Venue holidays'],
        security,
        operationId: 'createVenueHoliday',
        summary: 'Add a holiday (owner, manager): date today or later, one per date',
        params: VenueParams,
        body: HolidayBody,
        response: { 201: Data(HolidaySchema), ...errorResponses },
      },
    },
    async (req, reply) =>
      reply.code(201).send({ data: await addHoliday(ctx, signedIn(req), req.params.venue, req.body) }),
  )

  app.delete(
    '/venues/:venue/holidays/:holiday',
    {
      onRequest: app.auth.required,
      schema: {
        tags: ['Venue holidays'],
        security,
        operationId: 'deleteVenueHoliday',
        summary: 'Remove a holiday (owner, manager)',
        params: Type.Object({ venue: Type.String(), holiday: Type.String() }),
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      await deleteHoliday(ctx, signedIn(req), req.params.venue, req.params.holiday)
      return { message: 'Holiday deleted.' }
    },
  )
}
