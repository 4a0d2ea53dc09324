import { Type } from 'typebox'
import { DateTime, FileInput, named } from '../../lib/schemas.ts'
import { LocaleEnum, UserRoleEnum, UserSchema } from './resource.ts'

// Request and response shapes of the account routes.

export const PHONE_PATTERN = '^\\+?[0-9]{7,15}$'
// string or null in one schema, so a bad value gets one message (not one per union branch).
const NullablePhone = Type.Unsafe<string | null>({
  type: ['string', 'null'],
  pattern: PHONE_PATTERN,
  description: 'Digits with an optional leading +, 7–15 digits; null clears it',
})
const DeviceName = Type.Optional(
  Type.String({ maxLength: 255, description: 'Name of this device; the User-Agent when absent' }),
)

export const RegisterBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  email: Type.String({ minLength: 1, maxLength: 255, format: 'email' }),
  phone: Type.Optional(NullablePhone),
  password: Type.String({ minLength: 8, maxLength: 255 }),
  password_confirmation: Type.Optional(Type.String()),
  device_name: DeviceName,
})

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 255, description: 'An email address or a phone number' }),
  password: Type.String({ minLength: 1, maxLength: 255 }),
  device_name: DeviceName,
})

export const OtpType = named('OtpType', Type.Union([Type.Literal('sms'), Type.Literal('email')]))

export const OtpSendBody = Type.Object({
  identifier: Type.String({ minLength: 1, maxLength: 255, description: 'A phone number (sms) or email (email)' }),
  type: OtpType,
})

export const OtpVerifyBody = Type.Object({
  identifier: Type.String({ minLength: 1, maxLength: 255 }),
  otp: Type.String({ minLength: 1, maxLength: 20, description: 'The 6-digit code' }),
  type: OtpType,
  device_name: DeviceName,
})

/** A 422 that is either a validation failure (message, errors) or a bare message ("Invalid or expired OTP."). */
export const Refused = Type.Object({
  message: Type.String(),
  errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
})

export const TokenResponse = Type.Object({ token: Type.String(), data: UserSchema })
export const RegisterResponse = Type.Object({ message: Type.String(), token: Type.String(), data: UserSchema })
export const OtpVerifyResponse = Type.Object({
  message: Type.String(),
  token: Type.Optional(Type.String()),
  data: Type.Optional(UserSchema),
})
export const MessageWithUser = Type.Object({ message: Type.String(), data: UserSchema })

export const DeviceSchema = named(
  'Device',
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    last_used_at: DateTime,
    created_at: DateTime,
  }),
)

export const ProfileUpdateBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  phone: Type.Optional(NullablePhone),
  notify_sms: Type.Optional(
    Type.Boolean({ description: 'false: no booking messages by SMS (one-time codes still come)' }),
  ),
  notify_email: Type.Optional(
    Type.Boolean({ description: 'false: no booking messages by email (the verification mail still comes)' }),
  ),
  locale: Type.Optional(LocaleEnum.request),
})

export const PasswordBody = Type.Object({
  current_password: Type.String({ minLength: 1 }),
  password: Type.String({ minLength: 8, maxLength: 255 }),
  password_confirmation: Type.String({ minLength: 1 }),
})

/** POST /profile/password/reset: a new password for a session signed in with a one-time code. */
export const NewPasswordBody = Type.Object({
  password: Type.String({ minLength: 8, maxLength: 255 }),
  password_confirmation: Type.String({ minLength: 1 }),
})

export const AvatarBody = Type.Object({
  avatar: FileInput('Image file: jpg, png or webp, at most 2 MB (checked by content)'),
})

export const ROLES = UserRoleEnum.values
/** One of ROLES (the component UserRole); its static type is the union of the names. */
export const RoleName = UserRoleEnum.request

export const AdminUsersQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1 })),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the name, email or phone' })),
  role: Type.Optional(RoleName),
})

export const AdminUserPatchBody = Type.Object({
  is_active: Type.Optional(Type.Boolean({ description: 'false suspends the account at once, true restores it' })),
  roles: Type.Optional(
    Type.Array(RoleName, { minItems: 1, uniqueItems: true, description: "Replaces the user's roles" }),
  ),
})

/** The signed link of the email verification mail: /email/verify/{id}/{hash}?expires=…&signature=… */
export const VerifyEmailParams = Type.Object({ id: Type.String(), hash: Type.String() })
export const VerifyEmailQuery = Type.Object({
  expires: Type.Optional(Type.String()),
  signature: Type.Optional(Type.String()),
})

/** What a social provider sends back to the callback (query on GET, form or JSON on POST). */
export const SocialCallbackFields = Type.Object({
  code: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  error_description: Type.Optional(Type.String()),
})
