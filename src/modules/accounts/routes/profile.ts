import { signedIn } from '../../../lib/auth.ts'
import type { Routes } from '../../../lib/route.ts'
import { Data, errorResponses, Message } from '../../../lib/schemas.ts'
import { acceptUploads, readUploads } from '../../../lib/uploads.ts'
import { UserSchema } from '../resource.ts'
import { AvatarBody, NewPasswordBody, PasswordBody, ProfileUpdateBody } from '../schemas.ts'
import {
  changePassword,
  MAX_AVATAR_BYTES,
  OTP_RESET_MINUTES,
  replaceAvatar,
  resetPassword,
  updateProfile,
} from '../service/profile.ts'
import { userResourceOf } from '../service/users.ts'

const tags = ['Profile']
const security = [{ bearer: [] }]

const profileRoutes: Routes = async (app) => {
  const { ctx } = app
  await acceptUploads(app)

  app.get(
    '/profile',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getProfile',
        summary: 'Your profile',
        response: { 200: Data(UserSchema), ...errorResponses },
      },
    },
    async (req) => ({ data: await userResourceOf(ctx, signedIn(req).id) }),
  )

  app.put(
    '/profile',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'updateProfile',
        summary: 'Update your name, phone, message channels and language',
        description:
          'All optional. A changed phone must be unique and is no longer verified. notify_sms / notify_email ' +
          '(booleans) turn the booking messages by SMS / email on or off; a wrong type is 422. locale ("en" | ' +
          '"ne") is the language the service writes to you in: messages, notifications and answers to your ' +
          'requests (docs/languages.md); any other value is 422.',
        body: ProfileUpdateBody,
        response: { 200: Data(UserSchema), ...errorResponses },
      },
    },
    async (req) => {
      await updateProfile(ctx, signedIn(req).id, req.body)
      return { data: await userResourceOf(ctx, signedIn(req).id) }
    },
  )

  app.post(
    '/profile/password',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'changePassword',
        summary: 'Change your password (current_password, password ≥ 8, password_confirmation)',
        body: PasswordBody,
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      await changePassword(ctx, signedIn(req).id, req.body)
      return { message: 'Password updated successfully.' }
    },
  )

  app.post(
    '/profile/password/reset',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'resetPassword',
        summary: 'Set a new password without the current one, just after signing in with a one-time code',
        description:
          '"Forgot password": sign in with POST /auth/otp/send and /auth/otp/verify (by phone or email), then ' +
          `within ${OTP_RESET_MINUTES} minutes send password (≥ 8) and password_confirmation with that token, once. ` +
          'Any other session (a password sign-in, a second reset, a later one) is 403.',
        body: NewPasswordBody,
        response: { 200: Message, ...errorResponses },
      },
    },
    async (req) => {
      await resetPassword(ctx, signedIn(req), req.body)
      return { message: 'Password updated successfully.' }
    },
  )

  app.post(
    '/profile/avatar',
    {
      onRequest: app.auth.required,
      preValidation: readUploads({ fileBytes: MAX_AVATAR_BYTES, files: 2 }),
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data'],
        operationId: 'uploadAvatar',
        summary: 'Upload your avatar (multipart field avatar: jpg, png or webp, at most 2 MB)',
        description:
          'The type is detected from the file content, not its name. A larger file: 422; more than 1 MB over ' +
          'the limit: 413, and the upload is cut off.',
        body: AvatarBody,
        response: { 200: Data(UserSchema), 413: Message, ...errorResponses },
      },
    },
    async (req) => {
      await replaceAvatar(ctx, signedIn(req).id, req.body.avatar)
      return { data: await userResourceOf(ctx, signedIn(req).id) }
    },
  )
}
export default profileRoutes
