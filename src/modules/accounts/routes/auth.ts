import { Type } from 'typebox'
import { issueToken, signedIn } from '../../../lib/auth.ts'
import { requestLocale } from '../../../lib/i18n/index.ts'
import { pathId } from '../../../lib/ids.ts'
import { namedLimit } from '../../../lib/rate-limit.ts'
import type { Routes } from '../../../lib/route.ts'
import { Data, errorResponses, Message } from '../../../lib/schemas.ts'
import { UserSchema } from '../resource.ts'
import { DeviceSchema, LoginBody, RegisterBody, RegisterResponse, TokenResponse } from '../schemas.ts'
import {
  checkCredentials,
  deviceName,
  devices,
  logout,
  registerUser,
  revokeToken,
  userResourceOf,
} from '../service/users.ts'

const tags = ['Authentication']
const security = [{ bearer: [] }]
const limited = { 429: Message }

const authRoutes: Routes = async (app) => {
  const { ctx } = app
  const { db } = ctx

  app.post(
    '/auth/register',
    {
      config: namedLimit(app, 'register'),
      schema: {
        tags,
        operationId: 'register',
        security: [],
        summary: 'Create a customer account and sign in this device',
        description:
          'name ≤ 255; email valid and unique (case-insensitive); phone optional, unique, 7–15 digits with an ' +
          'optional leading +; password ≥ 8 characters and confirmed. A verification email is sent. 10 requests a minute.',
        body: RegisterBody,
        response: { 201: RegisterResponse, ...errorResponses, ...limited },
      },
    },
    async (req, reply) => {
      const userId = await registerUser(ctx, req.body, requestLocale(req))
      const token = await issueToken(db, userId, deviceName(req.headers['user-agent'], req.body.device_name))
      return reply.code(201).send({
        message: 'Registration successful. Please verify your email address.',
        token,
        data: await userResourceOf(ctx, userId),
      })
    },
  )

  app.post(
    '/auth/login',
    {
      config: namedLimit(app, 'login'),
      schema: {
        tags,
        operationId: 'login',
        security: [],
        summary: 'Sign in with an email address or phone number and a password',
        description:
          'Wrong password, unknown user or suspended account: 403 "Invalid credentials.". Limited per address ' +
          '(RATE_LIMIT_LOGIN a minute) and per account identifier (RATE_LIMIT_LOGIN_ACCOUNT failures a minute).',
        body: LoginBody,
        response: { 200: TokenResponse, ...errorResponses, ...limited },
      },
    },
    async (req, reply) => {
      const body = req.body
      const succeeded = await app.accountLimits.loginAttempt(reply, body.email)
      const userId = await checkCredentials(db, body.email, body.password)
      await succeeded()
      const token = await issueToken(db, userId, deviceName(req.headers['user-agent'], body.device_name))
      return { token, data: await userResourceOf(ctx, userId) }
    },
  )

  app.get(
    '/auth/me',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getMe',
        summary: 'The signed-in user',
        response: { 200: Data(UserSchema), ...errorResponses },
      },
    },
    async (req) => ({ data: await userResourceOf(ctx, signedIn(req).id) }),
  )

  app.post(
    '/auth/logout',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'logout',
        summary: 'Revoke the current device token',
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      await logout(ctx, signedIn(req).tokenId)
      return { message: 'Logged out successfully.' }
    },
  )

  app.get(
    '/auth/devices',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'listDevices',
        summary: 'Devices signed in to this account (a bare array), most recently used first',
        response: { 200: Type.Array(DeviceSchema), ...errorResponses },
      },
    },
    async (req) => {
      return devices(ctx, signedIn(req).id)
    },
  )

  app.delete(
    '/auth/devices/:tokenId',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'revokeDevice',
        summary: 'Revoke one of your device tokens',
        params: Type.Object({ tokenId: Type.String() }),
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      const id = pathId(req.params.tokenId)
      await revokeToken(ctx, signedIn(req).id, id)
      return { message: 'Device revoked successfully.' }
    },
  )
}
export default authRoutes
