import { Type } from 'typebox'
import { namedEnum } from '../../lib/schemas.ts'

// Request shapes of split payment (docs/payments.md, "Split payment").

/** How a share is paid: the wallet, or eSewa (gateway_1), Khalti (gateway_2), Fonepay (gateway_3); never cash. */
export const SharePaymentMethodEnum = namedEnum('SharePaymentMethod', ['wallet', 'gateway_1', 'gateway_2', 'gateway_3'])

export const SplitBody = Type.Object({
  shares: Type.Integer({ minimum: 2, maximum: 20, description: 'How many equal shares (2 to 20)' }),
})

export const SharePayBody = Type.Object({
  method: SharePaymentMethodEnum.request,
  return_url: Type.Optional(
    Type.String({
      maxLength: 2048,
      description: 'Where the gateway callback redirects (as for /api/payments/initiate)',
    }),
  ),
})

export const BookingParams = Type.Object({ booking: Type.String() })
export const TokenParams = Type.Object({ token: Type.String({ maxLength: 64 }) })
