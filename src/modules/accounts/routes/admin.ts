import { Type } from 'typebox'
import { signedIn } from '../../../lib/auth.ts'
import { pageParams, paginated } from '../../../lib/pagination.ts'
import type { Routes } from '../../../lib/route.ts'
import { Data, errorResponses, Paginated } from '../../../lib/schemas.ts'
import { UserSchema } from '../resource.ts'
import { AdminUserPatchBody, AdminUsersQuery } from '../schemas.ts'
import { listUsers, updateUser } from '../service/admin.ts'
import { userResourceOf } from '../service/users.ts'

const tags = ['Platform administration']
const security = [{ bearer: [] }]

const adminUserRoutes: Routes = async (app) => {
  const { ctx } = app

  app.get(
    '/admin/users',
    {
      onRequest: app.auth.roles('super_admin'),
      schema: {
        tags,
        security,
        operationId: 'listUsers',
        summary: 'All users (super_admin), paginated; search by name, email or phone; filter by role',
        querystring: AdminUsersQuery,
        response: { 200: Paginated(UserSchema), ...errorResponses },
      },
    },
    async (req) => {
      const page = pageParams(req.query)
      const { items, total } = await listUsers(ctx, req.query, page)
      return paginated(req, ctx.config.appUrl, items, total, page)
    },
  )

  app.patch(
    '/admin/users/:user',
    {
      onRequest: app.auth.roles('super_admin'),
      schema: {
        tags,
        security,
        operationId: 'updateUser',
        summary: 'Suspend or restore a user, or replace their roles (super_admin)',
        description:
          'is_active false suspends at once: the user’s existing tokens answer 403 "Your account is suspended." ' +
          'A super_admin cannot suspend themself or remove their own super_admin role (422).',
        params: Type.Object({ user: Type.String() }),
        body: AdminUserPatchBody,
        response: { 200: Data(UserSchema), ...errorResponses },
      },
    },
    async (req) => {
      const id = await updateUser(ctx, signedIn(req), req.params.user, req.body)
      return { data: await userResourceOf(ctx, id) }
    },
  )
}
export default adminUserRoutes
