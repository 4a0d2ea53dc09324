import type { FastifyRequest } from 'fastify'
import { signedIn } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { gameForStaff } from './service.ts'

/** A preValidation hook: owner or manager of the {indoorGame}'s venue, checked before the body (403 before 422). */
export const gameAccessFirst =
  (ctx: AppContext) => async (req: FastifyRequest & { params: { indoorGame: string } }) => {
    await gameForStaff(ctx, signedIn(req), req.params.indoorGame)
  }
