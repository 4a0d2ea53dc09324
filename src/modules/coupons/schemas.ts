import { Type } from 'typebox'
import {
  DateInput,
  DateTime,
  DateTimeInput,
  IdParam,
  Money,
  MoneyInput,
  Nullable,
  named,
  namedEnum,
  TimeInput,
} from '../../lib/schemas.ts'

/** percent: `value` is a percentage of the price; fixed: an NPR amount off. */
export const CouponTypeEnum = namedEnum('CouponType', ['percent', 'fixed'])

export const CouponSchema = named(
  'Coupon',
  Type.Object({
    id: Type.Integer(),
    venue_id: Nullable(Type.Integer({ description: 'null for a platform-wide coupon' })),
    code: Type.String(),
    type: CouponTypeEnum.response,
    value: Type.String({ description: 'percent: "12.50" means 12.5 %; fixed: an NPR amount' }),
    max_discount: Nullable(Money),
    min_amount: Nullable(Money),
    starts_at: Nullable(DateTime),
    expires_at: Nullable(DateTime),
    usage_limit: Nullable(Type.Integer()),
    per_user_limit: Nullable(Type.Integer()),
    used_count: Type.Integer(),
    is_active: Type.Boolean(),
    created_at: DateTime,
  }),
)

const WhenInput = Type.String({
  ...DateTimeInput,
  description: 'YYYY-MM-DD or YYYY-MM-DD HH:mm[:ss], venue time (a date alone: start or end of that day)',
})

const fields = {
  code: Type.String({ minLength: 3, maxLength: 50, pattern: '^[A-Za-z0-9_-]+$' }),
  type: CouponTypeEnum.request,
  value: MoneyInput,
  max_discount: Type.Optional(Nullable(MoneyInput)),
  min_amount: Type.Optional(Nullable(MoneyInput)),
  starts_at: Type.Optional(Nullable(WhenInput)),
  expires_at: Type.Optional(Nullable(WhenInput)),
  // minimum 0 here (≥ 1 is checked in the service): with type coercion a 0 would otherwise be
  // coerced into the null branch and silently clear the limit.
  usage_limit: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  per_user_limit: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  is_active: Type.Optional(Type.Boolean()),
}

export const CreateCouponBody = Type.Object(fields)
export const AdminCreateCouponBody = Type.Object({ ...fields, venue_id: Type.Optional(Nullable(IdParam)) })
export const UpdateCouponBody = Type.Object({
  ...fields,
  code: Type.Optional(fields.code),
  type: Type.Optional(fields.type),
  value: Type.Optional(fields.value),
})

export const ValidateBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 50 }),
  court_id: Type.Optional(IdParam),
  indoor_game_id: Type.Optional(IdParam),
  date: DateInput,
  start_time: TimeInput,
  end_time: TimeInput,
})

export const ValidateAnswer = Type.Object({
  data: Type.Object({
    valid: Type.Literal(true),
    code: Type.String(),
    discount_amount: Money,
    final_amount: Money,
  }),
})
