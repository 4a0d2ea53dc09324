import { Type } from 'typebox'
import { DateTime, Nullable, named } from '../../lib/schemas.ts'

export const NotificationSchema = named(
  'Notification',
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    type: Type.String({ description: 'Namespaced class name, e.g. App\\Notifications\\BookingConfirmed' }),
    data: Type.Object({ message: Type.String() }, { additionalProperties: true }),
    read_at: Nullable(DateTime),
    created_at: DateTime,
  }),
)

export const DeviceTokenBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 4096, description: 'Push messaging device token' }),
})

export const FirebaseConfigSchema = named(
  'FirebaseConfig',
  Type.Object({
    api_key: Type.String(),
    auth_domain: Type.String(),
    project_id: Type.String(),
    storage_bucket: Type.String(),
    messaging_sender_id: Type.String(),
    app_id: Type.String(),
    vapid_key: Type.String(),
  }),
)
