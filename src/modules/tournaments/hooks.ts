import type { FastifyRequest } from 'fastify'
import { signedIn } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { NotFound } from '../../lib/errors.ts'
import { pathId } from '../../lib/ids.ts'
import { assertCanManage } from './policy.ts'
import { findTournament, fixtureById } from './repository.ts'

// preValidation hooks: the caller must run the tournament's venue, checked before the body is
// validated so strangers get 403 rather than validation details.

export const tournamentManagerFirst =
  (ctx: AppContext) => async (req: FastifyRequest & { params: { tournament: string } }) => {
    const t = await findTournament(ctx.db, pathId(req.params.tournament))
    if (!t) throw new NotFound()
    await assertCanManage(ctx.db, signedIn(req), t.venue_id)
  }

export const fixtureManagerFirst =
  (ctx: AppContext) => async (req: FastifyRequest & { params: { fixture: string } }) => {
    const f = await fixtureById(ctx.db, pathId(req.params.fixture))
    const t = f && (await findTournament(ctx.db, f.tournament_id))
    if (!t) throw new NotFound()
    await assertCanManage(ctx.db, signedIn(req), t.venue_id)
  }
