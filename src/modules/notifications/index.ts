// What other modules may use of notifications (the notifications owner keeps the full list).
export { notify } from './service.ts'
