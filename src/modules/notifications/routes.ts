import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { pageParams, paginated } from '../../lib/pagination.ts'
import type { Routes } from '../../lib/route.ts'
import { errorResponses, Message, Paginated } from '../../lib/schemas.ts'
import { DeviceTokenBody, FirebaseConfigSchema, NotificationSchema } from './schemas.ts'
import { inbox, markAllRead, markRead, saveDeviceToken } from './service.ts'

const tags = ['Notifications']
const security = [{ bearer: [] }]
const PER_PAGE = 20

const routes: Routes = async (app) => {
  const { config } = app.ctx

  app.get(
    '/notifications',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'listNotifications',
        summary: 'The caller’s inbox, newest first, 20 a page',
        querystring: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1 })) }),
        response: { 200: Paginated(NotificationSchema), ...errorResponses },
      },
    },
    async (req) => {
      const params = pageParams({ page: req.query.page, per_page: PER_PAGE }, PER_PAGE)
      const { items, total } = await inbox(app.ctx, signedIn(req).id, params)
      return paginated(req, config.appUrl, items, total, params)
    },
  )

  app.patch(
    '/notifications/:id/read',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'markNotificationRead',
        summary: 'Mark one notification read',
        params: Type.Object({ id: Type.String() }),
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      await markRead(app.ctx, signedIn(req).id, req.params.id)
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
        operationId: 'markAllNotificationsRead',
        summary: 'Mark every notification read',
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      await markAllRead(app.ctx, signedIn(req).id)
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
        operationId: 'registerDeviceToken',
        summary: 'Register the push token of this device (on login and every token refresh)',
        body: DeviceTokenBody,
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      await saveDeviceToken(app.ctx, signedIn(req).id, req.body.token)
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
        operationId: 'getFirebaseConfig',
        summary: 'Firebase web configuration for clients that initialise the push SDK themselves',
        response: { 200: FirebaseConfigSchema, ...errorResponses },
      },
    },
    async () => config.firebase,
  )
}
export default routes
