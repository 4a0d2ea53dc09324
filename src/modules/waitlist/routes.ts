import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, Message } from '../../lib/schemas.ts'
import { WaitlistEntrySchema } from './resource.ts'
import { EntryParams, JoinBody } from './schemas.ts'
import { joinWaitlist, leaveWaitlist, listMyEntries } from './service.ts'

const tags = ['Waitlist']
const security = [{ bearer: [] }]

const routes: Routes = async (app) => {
  const { ctx } = app

  app.post(
    '/waitlist',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'joinWaitlist',
        tags,
        security,
        summary: 'Wait for a taken court slot',
        description:
          'Only for a slot that is taken right now (a free slot is 422: book it instead). The date, times and ' +
          'court are checked as for a booking (422; 409 outside opening hours). One entry per user and slot ' +
          '(409). When the slot frees, the first waiting customer is offered it: a pending booking held for ' +
          'WAITLIST_OFFER_MINUTES and a WaitlistOffer notification.',
        body: JoinBody,
        response: { 201: Data(WaitlistEntrySchema), 409: Message, ...errorResponses },
      },
    },
    async (req, reply) => reply.code(201).send({ data: await joinWaitlist(ctx, signedIn(req), req.body) }),
  )

  app.get(
    '/waitlist',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'listWaitlistEntries',
        tags,
        security,
        summary: "The caller's waitlist entries (every status), soonest slot first",
        response: { 200: Data(Type.Array(WaitlistEntrySchema)), ...errorResponses },
      },
    },
    async (req) => ({ data: await listMyEntries(ctx, signedIn(req)) }),
  )

  app.delete(
    '/waitlist/:entry',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'leaveWaitlist',
        tags,
        security,
        summary: 'Leave the waitlist',
        description: 'Owner only (others 403). A booking already offered stays yours until paid, cancelled or expired.',
        params: EntryParams,
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      await leaveWaitlist(ctx, signedIn(req), req.params.entry)
      return { message: 'You left the waitlist.' }
    },
  )
}

export default routes
