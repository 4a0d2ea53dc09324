import { Type } from 'typebox'
import { renderedAnswer, sharedCache } from '../../lib/rendered.ts'
import type { Routes } from '../../lib/route.ts'
import { conditionalReads, errorResponses, NotModified } from '../../lib/schemas.ts'
import { AvailabilityQuery, CourtAvailabilitySchema, IndoorAvailabilitySchema } from './schemas.ts'
import { courtAvailability, type DayAnswer, indoorAvailability } from './service.ts'

const DESCRIPTION =
  'Slots are laid from the open time (the court schedule entry for that weekday, else the venue hours) in ' +
  'steps of slot_minutes; a remainder shorter than a slot is not offered. A slot is unavailable when a ' +
  'pending (hold running), confirmed or playing booking overlaps it, a maintenance block overlaps it, or it ' +
  'has started (venue time). 422 for a malformed or past date; 404 for an unknown or inactive court/game or a ' +
  'venue outside the public catalogue (its owner, managers and staff still see it).'

const PRICING =
  ' Price of a slot: a pricing rule covers a slot when the slot start lies in [start_time, end_time). On a ' +
  'venue holiday the covering holiday rule wins; otherwise the covering rule for that weekday beats an ' +
  'every-day rule, peak/off_peak beat standard, ties go to the newest rule; otherwise the court price_per_hour.'

/** A day's answer (service.ts) builds its body when the route encodes it. */
const body = <T>(answer: DayAnswer<T>) => answer.body()
/**
 * A CDN may answer a guest's availability for 5 s: a slot booked meanwhile still shows free there,
 * and its booking is refused 409 by the database (browsers always revalidate, so a customer's own
 * booking shows at once).
 */
const AVAILABILITY_CACHE = sharedCache(5)

const routes: Routes = async (app) => {
  const { ctx } = app

  app.get(
    '/courts/:court/availability',
    {
      onRequest: app.auth.optional,
      schema: {
        tags: ['Courts'],
        operationId: 'getCourtAvailability',
        security: [],
        summary: "A court's slots on a date, with availability and price",
        description: DESCRIPTION + PRICING + conditionalReads,
        params: Type.Object({ court: Type.String() }),
        querystring: AvailabilityQuery,
        response: { 200: CourtAvailabilitySchema, 304: NotModified, ...errorResponses },
      },
    },
    // Not async: a cached day is answered within this call (src/lib/rendered.ts). The service
    // hands out the same answer object while it is valid: encoded once, its bytes kept on it. A
    // guest's answer is then kept whole by the front cache (src/lib/front-cache.ts).
    ctx.front.handler((req, reply) =>
      renderedAnswer(
        reply,
        courtAvailability(ctx, req.user ?? null, req.params.court, req.query.date),
        '',
        body,
        AVAILABILITY_CACHE,
      ),
    ),
  )

  app.get(
    '/indoor-games/:indoorGame/availability',
    {
      onRequest: app.auth.optional,
      schema: {
        tags: ['Indoor games'],
        operationId: 'getIndoorGameAvailability',
        security: [],
        summary: "An indoor game station's slots on a date (venue opening hours)",
        description: DESCRIPTION + conditionalReads,
        params: Type.Object({ indoorGame: Type.String() }),
        querystring: AvailabilityQuery,
        response: { 200: IndoorAvailabilitySchema, 304: NotModified, ...errorResponses },
      },
    },
    ctx.front.handler((req, reply) =>
      renderedAnswer(
        reply,
        indoorAvailability(ctx, req.user ?? null, req.params.indoorGame, req.query.date),
        '',
        body,
        AVAILABILITY_CACHE,
      ),
    ),
  )
}

export default routes
