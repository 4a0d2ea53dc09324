// What other modules may use of notifications.
export { type NotificationClass, type NotificationData, notify } from './service.ts'
