import type { Static } from 'typebox'
import type { AuthUser } from '../../../lib/auth.ts'
import { cacheTags } from '../../../lib/cache-tags.ts'
import type { AppContext } from '../../../lib/context.ts'
import { Invalid, NotFound } from '../../../lib/errors.ts'
import { pathId } from '../../../lib/ids.ts'
import type { PageParams } from '../../../lib/pagination.ts'
import { userPage } from '../queries.ts'
import * as repo from '../repository.ts'
import { userResource } from '../resource.ts'
import type { AdminUserPatchBody, AdminUsersQuery } from '../schemas.ts'

// Platform user administration (super_admin): list with search and role filters, suspend/restore,
// replace roles. A super_admin cannot suspend or demote themself.

export async function listUsers(ctx: AppContext, filters: Static<typeof AdminUsersQuery>, page: PageParams) {
  const { rows, total } = await userPage(ctx.db, filters, page)
  return { items: rows.map((r) => userResource(ctx, r)), total }
}

export async function updateUser(
  ctx: AppContext,
  actor: AuthUser,
  rawId: string,
  input: Static<typeof AdminUserPatchBody>,
) {
  const id = pathId(rawId)
  if (!(await repo.findUser(ctx.db, id))) throw new NotFound()
  if (id === actor.id) {
    const errors: Record<string, string[]> = {}
    if (input.is_active === false) errors.is_active = ['You cannot suspend your own account.']
    if (input.roles && !input.roles.includes('super_admin')) {
      errors.roles = ['You cannot remove your own super_admin role.']
    }
    if (Object.keys(errors).length) throw new Invalid(errors)
  }
  await ctx.db.transaction().execute(async (trx) => {
    if (input.is_active !== undefined) {
      await repo.updateUser(trx, id, { is_active: input.is_active, updated_at: ctx.clock.now() })
    }
    if (input.roles) await repo.replaceRoles(trx, id, input.roles)
  })
  // This instance forgets the user's cached tokens at once (see lib/auth.ts resolveUser), and the
  // answer waits until every other instance has too (lib/revocation.ts).
  ctx.cache.invalidate(cacheTags.user(id))
  await ctx.revocation.sync()
  return id
}
