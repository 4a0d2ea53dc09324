// What other modules may use of reviews (the reviews owner keeps the full list).
export { ReviewSchema, reviewsByBookingIds } from './resource.ts'
