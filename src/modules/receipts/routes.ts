import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { pathId } from '../../lib/ids.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses } from '../../lib/schemas.ts'
import { receiptPdf } from './pdf.ts'
import { ReceiptSchema } from './resource.ts'
import { BookingReceiptsParams, IndoorReceiptsParams, ReceiptParams } from './schemas.ts'
import { bookingReceipts, showReceipt } from './service.ts'

// Receipts and credit notes (docs/payments.md, "Receipts and VAT").

const tags = ['Receipts']
const security = [{ bearer: [] }]
const WHO = "The booking's customer, the venue's owner, managers and staff, and super_admin; anyone else 403."
const List = Data(Type.Array(ReceiptSchema))

const routes: Routes = async (app) => {
  const { ctx } = app

  app.get(
    '/bookings/:booking/receipts',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'listBookingReceipts',
        summary: "A court booking's receipts and credit notes, oldest first",
        description: `One receipt per payment received (gateway, wallet, desk), one credit note per refund. ${WHO}`,
        params: BookingReceiptsParams,
        response: { 200: List, ...errorResponses },
      },
    },
    async (req) => ({ data: await bookingReceipts(ctx, signedIn(req), 'court', pathId(req.params.booking)) }),
  )

  app.get(
    '/indoor-game-bookings/:indoorGameBooking/receipts',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'listIndoorGameBookingReceipts',
        summary: "An indoor game booking's receipts and credit notes, oldest first",
        description: `One receipt per payment received (gateway, wallet, desk), one credit note per refund. ${WHO}`,
        params: IndoorReceiptsParams,
        response: { 200: List, ...errorResponses },
      },
    },
    async (req) => ({
      data: await bookingReceipts(ctx, signedIn(req), 'indoor', pathId(req.params.indoorGameBooking)),
    }),
  )

  app.get(
    '/receipts/:receipt',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getReceipt',
        summary: 'One receipt or credit note; with Accept: application/pdf a one-page PDF',
        description: `${WHO} The PDF prints the venue's legal name, address and PAN, the number, the date in AD and BS, the customer, the lines, the total and, for a VAT registered venue, the taxable amount and 13% VAT.`,
        params: ReceiptParams,
        response: {
          200: {
            description: 'The receipt',
            content: {
              'application/json': { schema: Data(ReceiptSchema) },
              'application/pdf': { schema: Type.String({ format: 'binary', description: 'A one-page PDF' }) },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (req, reply) => {
      const receipt = await showReceipt(ctx, signedIn(req), pathId(req.params.receipt))
      reply.header('cache-control', 'private, no-store')
      if (wantsPdf(req.headers.accept)) {
        const file = receipt.receipt_number.replaceAll('/', '-')
        return (
          reply
            .type('application/pdf')
            .header('content-disposition', `inline; filename="${file}.pdf"`)
            // `as never`: the typed send() takes the 200 schema's JSON body; the PDF bytes bypass the
            // serializer and are sent as they are (the schema documents them as application/pdf).
            .send((await receiptPdf(receipt)) as never)
        )
      }
      return reply.type('application/json; charset=utf-8').send({ data: receipt })
    },
  )
}

/** Whether the Accept header asks for the PDF rather than JSON (a listed PDF not ranked below JSON). */
function wantsPdf(accept: string | undefined): boolean {
  if (!accept) return false
  const q = (type: string) => {
    for (const part of accept.toLowerCase().split(',')) {
      const [media, ...params] = part.trim().split(';')
      if (media.trim() !== type) continue
      const weight = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return weight ? Number(weight.slice(2)) || 0 : 1
    }
    return -1
  }
  const pdf = q('application/pdf')
  return pdf > 0 && pdf >= q('application/json')
}

export default routes
