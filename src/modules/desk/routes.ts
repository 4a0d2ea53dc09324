import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { hashToken, loadTokenOwner, signedIn } from '../../lib/auth.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses } from '../../lib/schemas.ts'
import { DeskEvents, sseEvent } from './events.ts'
import { BoardSchema } from './resource.ts'
import { BoardQuery, VenueParams } from './schemas.ts'
import { type DeskVenue, deskBoard, deskVenue } from './service.ts'

const tags = ['Front desk']
const security = [{ bearer: [] }]

const EVENTS_DOC =
  "A text/event-stream (server-sent events) of what changes on the venue's board, for the staff console. " +
  'Read it with a streaming fetch that sends the Authorization header (EventSource cannot). On connect: ' +
  '`retry: 3000`, then `event: ready` with `data: {"venue_id":N}`. Then, for every committed change that ' +
  'affects the board, `event: change` with `data: {"kind":"court"|"indoor_game"|"venue","id":N}` naming ' +
  'the court, indoor game or venue that changed: a booking made, paid, charged, moved or cancelled; a ' +
  'maintenance block, schedule, pricing rule or court edited ("court"); an indoor game or its bookings ' +
  '("indoor_game"); the venue or its holidays ("venue", also sent after the server lost and regained its ' +
  'database listener, when changes may have been missed). The console reloads the board on a change. ' +
  'Comment lines `: ping` every 15 s (DESK_HEARTBEAT_MS) keep the stream alive; before each, and as soon as ' +
  "the token or its user changes, the token and the user's staff role at the venue are checked again and the " +
  'stream ends once either is gone (logout, token deleted, user suspended, removed from the staff). The events come from the ' +
  "database's change notifications, so a change made through any instance reaches every instance's streams. " +
  '429 beyond 10 open streams per user on one instance.'

const BEARER = /^Bearer\s+(\d+)\|(\S+)$/i

/** The token id of a `Bearer <id>|<secret>` header (signed in already, so it is one); 0 otherwise. */
const tokenIdOf = (authorization: string | undefined) => Number(BEARER.exec(authorization ?? '')?.[1] ?? 0)

const routes: Routes = async (app) => {
  const { ctx } = app
  const hub = new DeskEvents(ctx)
  /** Whether the stream's token and its user's place at the venue's desk still hold, from the database. */
  const stillAllowed = async (authorization: string | undefined, venueId: number): Promise<boolean> => {
    const m = BEARER.exec(authorization ?? '')
    if (!m) return false
    const owner = await loadTokenOwner(ctx.db, Number(m[1]), hashToken(m[2]))
    if (!owner?.user.is_active) return false
    return deskVenue(ctx, owner.user, String(venueId)).then(
      () => true,
      () => false,
    )
  }
  // Before validation (a stranger gets 403/404, not a 422); the handler uses the venue found here.
  const checked = new WeakMap<FastifyRequest, DeskVenue>()
  const deskFirst = async (req: FastifyRequest & { params: { venue: string } }) => {
    checked.set(req, await deskVenue(ctx, signedIn(req), req.params.venue))
  }
  // Open streams end when the app closes, before the server waits for its connections.
  app.addHook('preClose', async () => hub.close())

  app.get(
    '/venues/:venue/board',
    {
      onRequest: app.auth.required,
      preValidation: deskFirst,
      schema: {
        tags,
        security,
        operationId: 'getDeskBoard',
        summary: "A venue's day at the front desk: every court and game's slots, bookings, blocks, totals",
        description:
          'One column per court and indoor game (active ones; an inactive one only when it has a booking that day), ' +
          'on the same slot grid and prices as the availability routes, with each slot free, booked, blocked or past; ' +
          "the day's bookings of both kinds (cancelled ones too) with their money; maintenance blocks; and the day's " +
          'totals (bookings not cancelled, paid and due of those, cash taken for them). Owner, manager, staff of the ' +
          'venue and super_admin. Never cached.',
        params: VenueParams,
        querystring: BoardQuery,
        response: { 200: Data(BoardSchema), ...errorResponses },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store')
      const venue = checked.get(req) ?? (await deskVenue(ctx, signedIn(req), req.params.venue))
      return { data: await deskBoard(ctx, venue, req.query.date) }
    },
  )

  app.get(
    '/venues/:venue/events',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'streamDeskEvents',
        summary: "Changes to a venue's board as server-sent events (owner, manager, staff)",
        description: EVENTS_DOC,
        params: VenueParams,
        response: {
          200: {
            description: 'An endless text/event-stream of `ready` and `change` events and `: ping` comments.',
            content: {
              'text/event-stream': {
                schema: Type.String({
                  description: 'Server-sent events',
                  examples: [
                    'retry: 3000\n\nevent: ready\ndata: {"venue_id":1}\n\nevent: change\ndata: {"kind":"court","id":3}\n\n',
                  ],
                }),
              },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (req, reply) => {
      const user = signedIn(req)
      const venue = await deskVenue(ctx, user, req.params.venue)
      const raw = reply.raw
      let heartbeat: NodeJS.Timeout | undefined
      let remove = () => {}
      // Either side ending the stream (the client going away, the app closing) ends the response, so
      // no half-closed socket outlives it.
      const finish = () => {
        clearInterval(heartbeat)
        remove()
        if (!raw.writableEnded) raw.end(() => raw.socket?.destroy())
        else if (!raw.socket?.destroyed) raw.socket?.destroy()
      }
      // Asks the database (not the read cache) whether the token still exists, its user is active and
      // still works this venue's desk; when not (logout, token deleted, suspended, removed from the
      // staff) the stream ends. Each heartbeat does, and the hub as soon as the token or user changes.
      let checking = false
      // A revocation heard while a check runs is checked again after it: the running check may have
      // read the state from before the revocation committed.
      let again = false
      const check = (ping: boolean) => {
        if (raw.writableEnded) return
        if (checking) {
          if (!ping) again = true
          return
        }
        checking = true
        stillAllowed(req.headers.authorization, venue.id)
          .then((allowed) => {
            if (!allowed) finish()
            else if (ping && !raw.writableEnded) raw.write(': ping\n\n')
          })
          .catch((err) => ctx.log.warn({ err }, 'desk events: access re-check failed'))
          .finally(() => {
            checking = false
            if (again) {
              again = false
              check(false)
            }
          })
      }
      remove = await hub.open({
        userId: user.id,
        tokenId: tokenIdOf(req.headers.authorization),
        venueId: venue.id,
        send: (text) => {
          if (!raw.writableEnded) raw.write(text)
        },
        end: finish,
        recheck: () => check(false),
      })
      reply.hijack()
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        // The connection ends with the stream: nothing keeps a socket open once the app closes it.
        connection: 'close',
        'x-request-id': String(req.id),
      })
      raw.write(`retry: 3000\n\n${sseEvent('ready', { venue_id: venue.id })}`)
      heartbeat = setInterval(() => check(true), ctx.config.deskHeartbeatMs)
      heartbeat.unref()
      req.raw.on('close', finish)
      raw.on('close', finish)
    },
  )
}

export default routes
