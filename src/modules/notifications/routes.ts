import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { NotFound } from '../../lib/errors.ts'
import { pathUuid } from '../../lib/ids.ts'
import { pageParams, paginated } from '../../lib/pagination.ts'
import type { Routes } from '../../lib/route.ts'
import { errorResponses, Message, Paginated } from '../../lib/schemas.ts'
import { formatDateTime } from '../../lib/time.ts'
import { DeviceTokenBody, FirebaseConfigSchema, NotificationSchema } from './schemas.ts'

const tags = ['Notifications']
const security = [{ bearer: [] }]
const PER_PAGE = 20

const routes: Routes = async (app) => {
  const { db, config } = app.ctx

  app.get(
    '/notifications',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        summary: 'The caller’s inbox, newest first, 20 a page',
        querystring: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1 })) }),
        response: { 200: Paginated(NotificationSchema), ...errorResponses },
      },
    },
    async (req) => {
      const params = pageParams({ page: req.query.page, per_page: PER_PAGE }, PER_PAGE)
      const userId = signedIn(req).id
      const [rows, count] = await Promise.all([
        db
          .selectFrom('notifications')
          .selectAll()
          .where('user_id', '=', userId)
          .orderBy('created_at', 'desc')
          .orderBy('id')
          .limit(params.perPage)
          .offset(params.offset)
          .execute(),
        db
          .selectFrom('notifications')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow(),
      ])
      const items = rows.map((n) => ({
        id: n.id,
        type: n.type,
        data: (typeof n.data === 'string' ? JSON.parse(n.data) : n.data) as { message: string },
        read_at: formatDateTime(n.read_at),
        created_at: formatDateTime(n.created_at)!,
      }))
      return paginated(req, config.appUrl, items, Number(count.n), params)
    },
  )

  app.patch(
    '/notifications/:id/read',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        summary: 'Mark one notification read',
        params: Type.Object({ id: Type.String() }),
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      const id = pathUuid(req.params.id)
      const res = await db
        .updateTable('notifications')
        .set((eb) => ({ read_at: eb.fn.coalesce('read_at', eb.val(new Date())) }))
        .where('id', '=', id)
        .where('user_id', '=', signedIn(req).id)
        .executeTakeFirst()
      if (Number(res.numUpdatedRows) === 0) throw new NotFound()
      return { message: 'Notification marked as read.' }
    },
  )

  app.post(
    '/notifications/read-all',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        summary: 'Mark every notification read',
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      await db
        .updateTable('notifications')
        .set({ read_at: new Date() })
        .where('user_id', '=', signedIn(req).id)
        .where('read_at', 'is', null)
        .execute()
      return { message: 'All notifications marked as read.' }
    },
  )

  app.put(
    '/notifications/device-token',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        summary: 'Register the push token of this device (on login and every token refresh)',
        body: DeviceTokenBody,
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      const { token } = req.body
      // A token belongs to one device, hence to whoever signed in on it last.
      await db
        .insertInto('device_tokens')
        .values({ user_id: signedIn(req).id, token })
        .onConflict((oc) => oc.column('token').doUpdateSet({ user_id: signedIn(req).id, updated_at: new Date() }))
        .execute()
      return { message: 'Device token saved.' }
    },
  )

  app.get(
    '/notifications/firebase-config',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        summary: 'Firebase web configuration for clients that initialise the push SDK themselves',
        response: { 200: FirebaseConfigSchema, ...errorResponses },
      },
    },
    async () => config.firebase,
  )
}
export default routes
