import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, Message } from '../../lib/schemas.ts'
import { CalendarFeedSchema } from './resource.ts'
import { SecretParams, VenueParams } from './schemas.ts'
import { etagMatches, myFeedUrl, renderFeed, rotateMyFeed, rotateVenueFeed, venueFeedUrl } from './service.ts'

const tags = ['Calendar']
const security = [{ bearer: [] }]
const One = Data(CalendarFeedSchema)
const FEED_DOC =
  'Subscribe to the URL in a calendar app (Google Calendar "From URL", Apple Calendar, Outlook). Each booking ' +
  'from 30 days back and every future one is a VEVENT in the venue time zone, STATUS CONFIRMED, TENTATIVE ' +
  '(pending payment) or CANCELLED. The URL is a secret: anyone who has it can read the feed.'

const routes: Routes = async (app) => {
  const { ctx } = app

  app.get(
    '/calendar/feed',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'getMyCalendarFeed',
        tags,
        security,
        summary: "The caller's calendar feed URL (court and indoor bookings)",
        description: `${FEED_DOC} The feed is created on first use; the same URL is answered until it is rotated.`,
        response: { 200: One, ...errorResponses },
      },
    },
    async (req) => ({ data: { url: await myFeedUrl(ctx, signedIn(req)) } }),
  )

  app.post(
    '/calendar/feed/rotate',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'rotateMyCalendarFeed',
        tags,
        security,
        summary: "Replace the caller's calendar feed secret",
        description: 'Answers the new URL; the old URL is 404 at once (subscriptions to it stop updating).',
        response: { 200: One, ...errorResponses },
      },
    },
    async (req) => ({ data: { url: await rotateMyFeed(ctx, signedIn(req)) } }),
  )

  app.get(
    '/venues/:venue/calendar/feed',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'getVenueCalendarFeed',
        tags,
        security,
        summary: "A venue's calendar feed URL: all its bookings (owner, manager, staff)",
        description:
          `${FEED_DOC} One feed per venue and member of its staff (owner, manager, staff, super_admin), the same URL ` +
          'every time for that member; it belongs to the membership and answers 404 once the member is removed from ' +
          "the venue's staff, no longer owns it or is suspended. The court or game is in each event's SUMMARY and " +
          'LOCATION, the customer in DESCRIPTION.',
        params: VenueParams,
        response: { 200: One, ...errorResponses },
      },
    },
    async (req) => ({ data: { url: await venueFeedUrl(ctx, signedIn(req), req.params.venue) } }),
  )

  app.post(
    '/venues/:venue/calendar/feed/rotate',
    {
      onRequest: app.auth.required,
      schema: {
        operationId: 'rotateVenueCalendarFeed',
        tags,
        security,
        summary: "Replace the caller's own calendar feed secret for a venue (owner, manager)",
        description:
          "Answers the new URL; the caller's old URL is 404 at once (other members' feeds stay). Staff may read " +
          'their feed URL but not rotate it.',
        params: VenueParams,
        response: { 200: One, ...errorResponses },
      },
    },
    async (req) => ({ data: { url: await rotateVenueFeed(ctx, signedIn(req), req.params.venue) } }),
  )

  app.get(
    '/calendar/:secret.ics',
    {
      schema: {
        operationId: 'getCalendarFeedIcs',
        tags,
        security: [],
        summary: 'An iCalendar feed (RFC 5545) by its secret URL',
        description:
          'text/calendar; charset=utf-8. Answers an ETag; If-None-Match with it is 304 while the feed is unchanged. ' +
          "An unknown or rotated secret is 404, and so is a venue feed whose member left the venue's staff or is suspended.",
        params: SecretParams,
        headers: Type.Object({
          'if-none-match': Type.Optional(Type.String({ description: 'An ETag of an earlier answer' })),
        }),
        response: {
          200: {
            description: 'The feed',
            headers: {
              etag: Type.String({ description: 'Send it back in If-None-Match: 304 while the feed is unchanged' }),
            },
            content: { 'text/calendar': { schema: Type.String({ description: 'RFC 5545 VCALENDAR' }) } },
          },
          // No body and no content type (`type: 'null'` is how @fastify/swagger leaves `content` out);
          // the handler sends no payload (undefined), so nothing is serialized either.
          304: Type.Unsafe<undefined>({
            type: 'null',
            description: 'Not modified: the feed is as the ETag in If-None-Match. No body.',
            headers: {
              etag: Type.String({ description: 'The ETag the client sent' }),
              'cache-control': Type.String({ description: 'private, no-cache' }),
            },
          }),
          404: Message,
        },
      },
    },
    async (req, reply) => {
      const feed = await renderFeed(ctx, req.params.secret)
      if (!feed) return reply.code(404).send({ message: 'Not found.' })
      reply.header('etag', feed.etag).header('cache-control', 'private, no-cache')
      // No payload (undefined): nothing is serialized, so no `null` body, JSON type or length.
      if (etagMatches(req.headers['if-none-match'], feed.etag)) return reply.code(304).send(undefined)
      return reply.type('text/calendar; charset=utf-8').send(feed.body)
    },
  )
}

export default routes
