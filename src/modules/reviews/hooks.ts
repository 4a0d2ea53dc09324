import type { FastifyRequest } from 'fastify'
import { signedIn } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import { NotFound } from '../../lib/errors.ts'
import { pathId } from '../../lib/ids.ts'
import { assertCanReply } from './policy.ts'
import { findReview } from './repository.ts'

/** preValidation hook of the reply route: venue staff of the {review}, checked before the body (403 before 422). */
export const replierFirst = (ctx: AppContext) => async (req: FastifyRequest & { params: { review: string } }) => {
  const review = await findReview(ctx.db, pathId(req.params.review))
  if (!review) throw new NotFound()
  await assertCanReply(ctx.db, signedIn(req), review.venue_id)
}
