import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { pathId } from '../../lib/ids.ts'
import { pageParams, paginated } from '../../lib/pagination.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, Message, Paginated } from '../../lib/schemas.ts'
import { acceptUploads, readUploads } from '../../lib/uploads.ts'
import { MANAGER_ROLES, venueAccessFirst, venueForStaff } from '../venues/index.ts'
import { replierFirst } from './hooks.ts'
import {
  AdminReviewQuery,
  AdminReviewSchema,
  LegacyReviewBody,
  MAX_REVIEW_IMAGE_BYTES,
  MAX_REVIEW_IMAGES,
  ReplyBody,
  ReviewReplySchema,
  ReviewSchema,
  VenueModerationQuery,
  VenueReviewBody,
  VenueReviewList,
} from './schemas.ts'
import * as reviews from './service.ts'

const tags = ['Reviews']
const security = [{ bearer: [] }]
const consumes = ['application/json', 'multipart/form-data']
// One photo more than allowed still reaches the service, which answers 422 naming the field.
const reviewUploads = readUploads({ fileBytes: MAX_REVIEW_IMAGE_BYTES, files: MAX_REVIEW_IMAGES + 1 })
const createNote =
  'JSON or multipart/form-data. `images[]` (or `images`): up to 5 photos, jpg/png/webp detected by content. ' +
  'When booking_id is omitted the caller’s latest booking at the venue (not cancelled) is attached. ' +
  'One review per user per venue: a second one is 422 "You have already reviewed this venue.". ' +
  'Reviews submitted here are approved at once.'

const routes: Routes = async (app) => {
  const { ctx } = app
  await acceptUploads(app)

  app.get(
    '/venues/:venue/reviews',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        operationId: 'listVenueReviews',
        security: [],
        summary: 'Approved reviews of a venue; a bearer token adds can_review and my_review',
        params: Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) }),
        response: { 200: VenueReviewList, 404: Message },
      },
    },
    async (req) => reviews.venueReviews(ctx, req.params.venue, req.user ?? null),
  )

  app.get(
    '/venues/:venue/reviews/moderation',
    {
      onRequest: app.auth.required,
      preValidation: venueAccessFirst(ctx, MANAGER_ROLES),
      schema: {
        tags,
        security,
        operationId: 'listVenueReviewsForModeration',
        summary: 'Every review of a venue, hidden ones included: unanswered first, then newest (owner, manager)',
        description:
          'A review is unanswered until someone replies to it. `rating` keeps one rating; `status` keeps the ' +
          'approved (public) or the hidden ones. Staff, customers and other venues are 403 before the query is read.',
        params: Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) }),
        querystring: VenueModerationQuery,
        response: { 200: Paginated(ReviewSchema), ...errorResponses },
      },
    },
    async (req) => {
      const venue = await venueForStaff(ctx, signedIn(req), req.params.venue, MANAGER_ROLES)
      const params = pageParams(req.query)
      const { items, total } = await reviews.venueModerationReviews(
        ctx,
        venue.id,
        { rating: req.query.rating, status: req.query.status },
        { limit: params.perPage, offset: params.offset },
      )
      return paginated(req, ctx.config.appUrl, items, total, params)
    },
  )

  app.post(
    '/venues/:venue/reviews',
    {
      onRequest: app.auth.required,
      preValidation: reviewUploads,
      schema: {
        tags,
        security,
        consumes,
        operationId: 'createVenueReview',
        summary: 'Review a venue',
        description: createNote,
        params: Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) }),
        body: VenueReviewBody,
        response: { 201: Data(ReviewSchema), ...errorResponses },
      },
    },
    async (req, reply) => {
      const venue = await reviews.visibleVenue(ctx, req.params.venue, req.user ?? null)
      const data = await reviews.createReview(ctx, signedIn(req), venue.id, req.body)
      return reply.code(201).send({ data })
    },
  )

  app.post(
    '/reviews',
    {
      onRequest: app.auth.required,
      preValidation: reviewUploads,
      schema: {
        tags,
        security,
        consumes,
        operationId: 'createReview',
        summary: 'Review a venue (legacy form: venue_id in the body)',
        description: createNote,
        body: LegacyReviewBody,
        response: { 201: Data(ReviewSchema), ...errorResponses },
      },
    },
    async (req, reply) => {
      const user = signedIn(req)
      const venue = await reviews.venueForLegacyCreate(ctx, req.body.venue_id, user)
      const data = await reviews.createReview(ctx, user, venue.id, req.body)
      return reply.code(201).send({ data })
    },
  )

  app.post(
    '/reviews/:review/replies',
    {
      onRequest: app.auth.required,
      preValidation: replierFirst(ctx),
      schema: {
        tags,
        security,
        operationId: 'replyToReview',
        summary: 'Answer a review (owner, manager or staff of its venue)',
        params: Type.Object({ review: Type.String() }),
        body: ReplyBody,
        response: { 201: Data(ReviewReplySchema), ...errorResponses },
      },
    },
    async (req, reply) => {
      const id = pathId(req.params.review)
      const data = await reviews.addReply(ctx, signedIn(req), id, req.body.reply)
      return reply.code(201).send({ data })
    },
  )

  app.get(
    '/admin/reviews',
    {
      onRequest: app.auth.roles('venue_owner', 'manager', 'super_admin'),
      schema: {
        tags,
        security,
        operationId: 'listReviewsForModeration',
        summary: 'Pending and approved reviews of the venues the caller owns or manages (super_admin: all)',
        querystring: AdminReviewQuery,
        response: { 200: Paginated(AdminReviewSchema), ...errorResponses },
      },
    },
    async (req) => {
      const q = req.query
      const params = pageParams(q)
      const { items, total } = await reviews.adminReviews(
        ctx,
        signedIn(req),
        { isApproved: q.is_approved, venueId: q.venue_id },
        { limit: params.perPage, offset: params.offset },
      )
      return paginated(req, ctx.config.appUrl, items, total, params)
    },
  )

  app.patch(
    '/admin/reviews/:review/approve',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'approveReview',
        summary: 'Approve a review (owner or manager of its venue)',
        params: Type.Object({ review: Type.String() }),
        response: { 200: Type.Object({ message: Type.String(), data: ReviewSchema }), ...errorResponses },
      },
    },
    async (req) => {
      const id = pathId(req.params.review)
      const data = await reviews.approveReview(ctx, signedIn(req), id)
      return { message: 'Review approved.', data }
    },
  )

  app.patch(
    '/admin/reviews/:review/hide',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'hideReview',
        summary: 'Hide a review from the public list and the rating (owner or manager of its venue)',
        description: 'Approving it again shows it. Hiding a hidden review changes nothing.',
        params: Type.Object({ review: Type.String() }),
        response: { 200: Type.Object({ message: Type.String(), data: ReviewSchema }), ...errorResponses },
      },
    },
    async (req) => {
      const id = pathId(req.params.review)
      const data = await reviews.hideReview(ctx, signedIn(req), id)
      return { message: 'Review hidden.', data }
    },
  )
}
export default routes
