import { sql } from 'kysely'
import type { Static } from 'typebox'
import type { AuthUser } from '../../../lib/auth.ts'
import { cacheTags } from '../../../lib/cache-tags.ts'
import type { AppContext } from '../../../lib/context.ts'
import { Invalid, NotFound } from '../../../lib/errors.ts'
import { pathId } from '../../../lib/ids.ts'
import type { PageParams } from '../../../lib/pagination.ts'
import { selectUsers, type UserRow, userResource } from '../resource.ts'
import type { AdminUserPatchBody, AdminUsersQuery } from '../schemas.ts'

// Platform user administration (super_admin): list with search and role filters, suspend/restore,
// replace roles. A super_admin cannot suspend or demote themself.

export async function listUsers(ctx: AppContext, filters: Static<typeof AdminUsersQuery>, page: PageParams) {
  let q = selectUsers(ctx.db)
  const search = filters.search?.trim()
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    q = q.where((eb) =>
      eb.or([eb('u.name', 'ilike', like), eb(sql<string>`u.email::text`, 'ilike', like), eb('u.phone', 'ilike', like)]),
    )
  }
  if (filters.role) {
    const role = filters.role
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('user_roles as ur')
          .innerJoin('roles as r', 'r.id', 'ur.role_id')
          .select('ur.user_id')
          .whereRef('ur.user_id', '=', 'u.id')
          .where('r.name', '=', role),
      ),
    )
  }
  const [rows, count] = await Promise.all([
    q.orderBy('u.id').limit(page.perPage).offset(page.offset).execute(),
    ctx.db
      .selectFrom(q.as('filtered'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { items: rows.map((r) => userResource(ctx.storage, r as UserRow)), total: Number(count.n) }
}

export async function updateUser(
  ctx: AppContext,
  actor: AuthUser,
  rawId: string,
  input: Static<typeof AdminUserPatchBody>,
) {
  const id = pathId(rawId)
  const user = await ctx.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()
  if (!user) throw new NotFound()
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
      await trx
        .updateTable('users')
        .set({ is_active: input.is_active, updated_at: new Date() })
        .where('id', '=', id)
        .execute()
    }
    if (input.roles) {
      const roles = await trx.selectFrom('roles').select('id').where('name', 'in', input.roles).execute()
      await trx.deleteFrom('user_roles').where('user_id', '=', id).execute()
      await trx
        .insertInto('user_roles')
        .values(roles.map((r) => ({ user_id: id, role_id: r.id })))
        .execute()
    }
  })
  // This instance forgets the user's cached tokens at once (see lib/auth.ts resolveUser).
  ctx.cache.invalidate(cacheTags.user(id))
  return id
}
