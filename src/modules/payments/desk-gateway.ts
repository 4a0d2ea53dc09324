import QRCode from 'qrcode'
import { Type } from 'typebox'
import type { AuthUser } from '../../lib/auth.ts'
import type { AppContext } from '../../lib/context.ts'
import type { Executor } from '../../lib/db.ts'
import { NotFound } from '../../lib/errors.ts'
import { type BookingKind, type GatewayMethod, openGatewayPaymentAtDesk } from '../booking-core/index.ts'
import type { Gateways } from './gateways/index.ts'
import { findPayment } from './repository.ts'
import { paymentResource } from './resource.ts'
import { PaymentSchema } from './schemas.ts'
import { startAtGateway } from './service.ts'

// Gateway money at the desk (docs/payments.md, "Gateway payments at the desk"): staff start a
// gateway payment for the balance due, the console shows its payment_url as a QR, the customer pays
// on their phone, and the booking is paid only when the gateway confirms it through the same
// callback and status checks as an online payment. A reference staff type never records money.

/** Where the customer's phone lands after paying a desk QR payment (a plain page, no sign-in). */
export const DESK_RETURN_PATH = '/api/payments/desk-return'

export const DeskPaymentIntent = Type.Object({
  data: Type.Object({
    payment: PaymentSchema,
    payment_url: Type.String({ description: "The gateway's payment page, for the customer's phone" }),
    qr_svg: Type.String({ description: 'payment_url as a QR code (an SVG document) for the desk to show' }),
  }),
})

/** A QR code of `text` as an SVG document. */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
}

/**
 * POST …/payments with gateway_1/2/3: the initiated desk payment (recorded by the caller, for the
 * booking's customer if it has one), opened at its gateway; 201 with payment_url and its QR.
 */
export async function startDeskGatewayPayment(
  ctx: AppContext,
  gateways: Gateways,
  user: AuthUser,
  kind: BookingKind,
  rawId: string,
  input: { amount: number | string; method: GatewayMethod },
) {
  const { payment, booking } = await openGatewayPaymentAtDesk(ctx, user, kind, rawId, {
    ...input,
    returnUrl: `${ctx.config.appUrl}${DESK_RETURN_PATH}`,
  })
  const paymentUrl = await startAtGateway(ctx, gateways, payment, `Booking ${booking.booking_number}`)
  return { payment: paymentResource(payment, ctx.zone), payment_url: paymentUrl, qr_svg: await qrSvg(paymentUrl) }
}

/** The payment a desk return page names, when it is a desk payment (else 404). */
export async function deskReturnPayment(db: Executor, id: number) {
  const row = await findPayment(db, id)
  if (!row || row.recorded_by === null) throw new NotFound()
  return row
}
