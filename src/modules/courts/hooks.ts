import type { FastifyRequest } from 'fastify'
import { signedIn } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { VenueRole } from '../venues/index.ts'
import { courtForStaff } from './service/courts.ts'

/** A preValidation hook: the caller must hold one of `allowed` at the venue of the {court} path (403 before 422). */
export const courtAccessFirst =
  (ctx: AppContext, allowed: readonly VenueRole[]) => async (req: FastifyRequest & { params: { court: string } }) => {
    await courtForStaff(ctx, signedIn(req), req.params.court, allowed)
  }
