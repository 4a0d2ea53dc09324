import type { FastifyRequest } from 'fastify'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { NotFound } from '../../lib/errors.ts'
import { pathId } from '../../lib/ids.ts'
import { assertVenueAccess, runsVenue } from '../venues/access.ts'
import { findTournament, fixtureById } from './repository.ts'

/** Tournaments are run by the venue's owner and managers (and any super_admin). */
export const assertCanManage = (db: Executor, user: AuthUser, venueId: number) =>
  assertVenueAccess(db, user, venueId, ['owner', 'manager'])

export { pathId, runsVenue as canSeeHiddenVenue }

// preValidation hooks: the caller must run the tournament's venue, checked before the body is
// validated so strangers get 403 rather than validation details.

export const tournamentManagerFirst = (ctx: AppContext) => async (req: FastifyRequest) => {
  const t = await findTournament(ctx.db, pathId((req.params as { tournament: string }).tournament))
  if (!t) throw new NotFound()
  await assertCanManage(ctx.db, req.user!, t.venue_id)
}

export const fixtureManagerFirst = (ctx: AppContext) => async (req: FastifyRequest) => {
  const f = await fixtureById(ctx.db, pathId((req.params as { fixture: string }).fixture))
  const t = f && (await findTournament(ctx.db, f.tournament_id))
  if (!t) throw new NotFound()
  await assertCanManage(ctx.db, req.user!, t.venue_id)
}
