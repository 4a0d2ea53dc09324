// What other modules may use of indoor games (the indoor games owner keeps the full list).
export { IndoorGameSchema, loadIndoorGameResources } from './resource.ts'
