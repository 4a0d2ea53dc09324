import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { pathId } from '../../lib/ids.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, Message } from '../../lib/schemas.ts'
import { createCoupon, deleteCoupon, updateCoupon, venueCoupons } from './manage.ts'
import { validateCoupon } from './quote.ts'
import { listCoupons } from './repository.ts'
import { couponResource } from './resource.ts'
import {
  AdminCreateCouponBody,
  CouponSchema,
  CreateCouponBody,
  UpdateCouponBody,
  ValidateAnswer,
  ValidateBody,
} from './schemas.ts'

const tags = ['Coupons']
const security = [{ bearer: [] }]
const FIELDS_DOC =
  'code (unique, case-insensitive; letters, digits, - and _), type percent|fixed, value (percent 0.01–100 or an ' +
  'NPR amount), max_discount, min_amount, starts_at, expires_at (venue time; a bare date is the start/end of ' +
  'that day), usage_limit, per_user_limit, is_active.'

const routes: Routes = async (app) => {
  const { ctx } = app
  const { db, zone } = ctx

  app.get(
    '/venues/:venue/coupons',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'listVenueCoupons',
        summary: 'Coupons of a venue (owner, manager)',
        params: Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) }),
        response: { 200: Data(Type.Array(CouponSchema)), ...errorResponses },
      },
    },
    async (req) => {
      const { coupons } = await venueCoupons(db, signedIn(req), req.params.venue)
      return { data: coupons.map((c) => couponResource(c, zone)) }
    },
  )

  app.post(
    '/venues/:venue/coupons',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'createVenueCoupon',
        summary: 'Create a coupon for a venue (owner, manager)',
        description: FIELDS_DOC,
        params: Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) }),
        body: CreateCouponBody,
        response: { 201: Data(CouponSchema), ...errorResponses },
      },
    },
    async (req, reply) => {
      const { venueId } = await venueCoupons(db, signedIn(req), req.params.venue)
      const coupon = await createCoupon(db, zone, signedIn(req), venueId, req.body)
      return reply.code(201).send({ data: couponResource(coupon, zone) })
    },
  )

  app.get(
    '/admin/coupons',
    {
      onRequest: app.auth.roles('super_admin'),
      schema: {
        tags,
        security,
        operationId: 'listCoupons',
        summary: 'Every coupon, platform-wide ones included (super_admin)',
        response: { 200: Data(Type.Array(CouponSchema)), ...errorResponses },
      },
    },
    async () => ({ data: (await listCoupons(db, 'all')).map((c) => couponResource(c, zone)) }),
  )

  app.post(
    '/admin/coupons',
    {
      onRequest: app.auth.roles('super_admin'),
      schema: {
        tags,
        security,
        operationId: 'createCoupon',
        summary: 'Create a coupon; without venue_id it is valid at every venue (super_admin)',
        description: FIELDS_DOC,
        body: AdminCreateCouponBody,
        response: { 201: Data(CouponSchema), ...errorResponses },
      },
    },
    async (req, reply) => {
      const { venue_id, ...input } = req.body
      const coupon = await createCoupon(db, zone, signedIn(req), venue_id ?? null, input)
      return reply.code(201).send({ data: couponResource(coupon, zone) })
    },
  )

  app.put(
    '/coupons/:coupon',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'updateCoupon',
        summary: 'Update a coupon (partial; owner, manager; super_admin for platform-wide ones)',
        description: FIELDS_DOC,
        params: Type.Object({ coupon: Type.String() }),
        body: UpdateCouponBody,
        response: { 200: Data(CouponSchema), ...errorResponses },
      },
    },
    async (req) => {
      const id = pathId(req.params.coupon)
      return { data: couponResource(await updateCoupon(db, zone, signedIn(req), id, req.body), zone) }
    },
  )

  app.delete(
    '/coupons/:coupon',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'deleteCoupon',
        summary: 'Delete an unused coupon (a used one answers 409: deactivate it instead)',
        params: Type.Object({ coupon: Type.String() }),
        response: { 200: Message, ...errorResponses, 409: Message },
      },
    },
    async (req) => {
      await deleteCoupon(db, signedIn(req), pathId(req.params.coupon))
      return { message: 'Coupon deleted.' }
    },
  )

  app.post(
    '/coupons/validate',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'validateCoupon',
        summary: 'Check a coupon against a slot before booking',
        description:
          'court_id or indoor_game_id, date, start_time and end_time (HH:mm) price the slot; answers the ' +
          'discount and the amount after it, or 422 with errors.code saying why the coupon cannot be used.',
        body: ValidateBody,
        response: { 200: ValidateAnswer, ...errorResponses, 409: Message },
      },
    },
    async (req) => ({ data: await validateCoupon(ctx, signedIn(req), req.body) }),
  )
}

export default routes
