// What other modules may use of courts (the courts owner keeps the full list).
export { CourtSchema, loadCourtResources } from './resource.ts'
