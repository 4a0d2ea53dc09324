// What other modules may use of reviews.
export { reviewsByBookingIds } from './queries.ts'
export { type Review, ReviewSchema } from './resource.ts'
