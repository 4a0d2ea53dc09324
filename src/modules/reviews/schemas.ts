import { type Static, Type } from 'typebox'
import { FileInput, IdParam, Nullable, named } from '../../lib/schemas.ts'
import { ReviewReplySchema, ReviewSchema } from './resource.ts'

export const MAX_REVIEW_IMAGES = 5
export const MAX_REVIEW_IMAGE_BYTES = 5 * 1024 * 1024

// A whole number 1..5: 5 and 5.0 pass (JSON 5.0 is 5), and "5" in a multipart form (text fields
// are coerced); in JSON "5" is the wrong type. 0, 6, 4.5 and "abc" are 422.
const Rating = Type.Integer({ minimum: 1, maximum: 5, description: 'Whole stars, 1 to 5 (5.0 is accepted)' })

// Photo uploads arrive as Upload files from multipart (`images[]` or `images`, repeated); checked in the
// service by content, so the schema accepts any value here. The document lists `images[]` once.
const Images = Type.Optional(FileInput(`Photo uploads (multipart), at most ${MAX_REVIEW_IMAGES}: jpg, png or webp`))

const reviewFields = {
  rating: Rating,
  comment: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  booking_id: Type.Optional(Nullable(IdParam)),
  images: Images,
  'images[]': Images,
}

export const VenueReviewBody = Type.Object(reviewFields)

export const LegacyReviewBody = Type.Object({
  venue_id: IdParam,
  ...reviewFields,
})

export type ReviewInput = Static<typeof VenueReviewBody>

export const ReplyBody = Type.Object({ reply: Type.String({ minLength: 1, maxLength: 5000 }) })

export const VenueReviewList = Type.Object({
  average_rating: Type.Number({ description: 'Mean of approved ratings, 1 decimal; 0 when none' }),
  reviews_count: Type.Integer({ description: 'Approved reviews' }),
  can_review: Type.Boolean({ description: 'false for guests and for users who already reviewed this venue' }),
  my_review: Nullable(ReviewSchema),
  reviews: Type.Array(ReviewSchema),
})

export const AdminReviewSchema = named(
  'AdminReview',
  Type.Object({
    ...ReviewSchema.properties,
    venue: Type.Object({ id: Type.Integer(), name: Type.String() }),
  }),
)

export const AdminReviewQuery = Type.Object({
  is_approved: Type.Optional(Type.Boolean()),
  venue_id: Type.Optional(IdParam),
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1 })),
})

export { ReviewReplySchema, ReviewSchema }

export const VenueModerationQuery = Type.Object({
  rating: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: 'Only reviews with this rating' })),
  status: Type.Optional(
    Type.Union([Type.Literal('approved'), Type.Literal('hidden')], {
      description: 'approved: shown publicly; hidden: taken out of view (or never approved)',
    }),
  ),
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1 })),
})
