// What other modules may use of indoor games: the IndoorGame resource embedded in indoor bookings.

export { loadIndoorGameResources } from './queries.ts'
export { IndoorGameSchema } from './resource.ts'
