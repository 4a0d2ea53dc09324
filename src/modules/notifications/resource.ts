import type { Static } from 'typebox'
import type { Zone } from '../../lib/zone.ts'
import type { NotificationSchema } from './schemas.ts'

export type Notification = Static<typeof NotificationSchema>

/** A stored row's data column as an object (PGlite may hand jsonb back as text). */
export function notificationData(data: unknown): Record<string, unknown> {
  return (typeof data === 'string' ? JSON.parse(data) : data) as Record<string, unknown>
}

export function notificationResource(
  n: { id: string; type: string; data: unknown; read_at: Date | null; created_at: Date },
  zone: Zone,
): Notification {
  return {
    id: n.id,
    type: n.type,
    data: notificationData(n.data) as Notification['data'],
    read_at: zone.format(n.read_at),
    created_at: zone.format(n.created_at)!,
  }
}
