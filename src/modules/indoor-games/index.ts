// What other modules may use of indoor games: the IndoorGame resource embedded in indoor bookings.

export { IndoorGameSchema, loadIndoorGameResources } from './resource.ts'
