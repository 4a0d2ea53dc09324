import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { requestLocale } from '../../lib/i18n/locale.ts'
import { pathId } from '../../lib/ids.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, Message } from '../../lib/schemas.ts'
import bookRoutes from './book-routes.ts'
import { invoiceLanguage } from './language.ts'
import { receiptPdf } from './pdf.ts'
import { ReceiptSchema } from './resource.ts'
import {
  BookingReceiptsParams,
  BuyerDetailsBody,
  BuyerDetailsSchema,
  IndoorReceiptsParams,
  ReceiptParams,
  ReceiptPdfQuery,
} from './schemas.ts'
import {
  bookingReceipts,
  myInvoiceDetails,
  printReceipt,
  saveMyInvoiceDetails,
  setReceiptBuyer,
  showReceipt,
} from './service.ts'

// Invoices (receipts) and credit notes (docs/payments.md, "Receipts and IRD").

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
        summary: 'One invoice or credit note; with Accept: application/pdf a one-page PDF (each one a recorded print)',
        description: `${WHO} The PDF prints the title (Tax Invoice, Invoice, Credit Note), the seller's legal name, address and PAN, the number, the dates in BS and AD, the buyer (with PAN and address when known), the lines (quantity × rate), the taxable amount and 13% VAT for a VAT registered venue, the total and the amount in words. The first PDF is the original; every later one is marked "Copy of Original (n)". Language: \`?lang=ne|en\`, else the signed-in user's language (their profile's \`locale\`), else Accept-Language (ne: Nepali), else English.`,
        params: ReceiptParams,
        querystring: ReceiptPdfQuery,
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
      const user = signedIn(req)
      const id = pathId(req.params.receipt)
      reply.header('cache-control', 'private, no-store')
      if (wantsPdf(req.headers.accept)) {
        const lang = invoiceLanguage(req.query.lang, requestLocale(req))
        const { receipt, pdf } = await printReceipt(ctx, user, id, (r, copy) => receiptPdf(r, { copy, lang }))
        const file = receipt.receipt_number.replaceAll('/', '-')
        return (
          reply
            .type('application/pdf')
            .header('content-disposition', `inline; filename="${file}.pdf"`)
            // `as never`: the typed send() takes the 200 schema's JSON body; the PDF bytes bypass the
            // serializer and are sent as they are (the schema documents them as application/pdf).
            .send(pdf as never)
        )
      }
      return reply.type('application/json; charset=utf-8').send({ data: await showReceipt(ctx, user, id) })
    },
  )

  app.put(
    '/receipts/:receipt/buyer',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'setReceiptBuyer',
        summary: "The buyer's PAN and address on an invoice, added by the desk before its first print",
        description:
          "The venue's owner, managers, staff and super_admin; anyone else 403. 409 once the invoice has been " +
          'printed: an original never changes.',
        params: ReceiptParams,
        body: BuyerDetailsBody,
        response: { 200: Data(ReceiptSchema), 409: Message, ...errorResponses },
      },
    },
    async (req) => ({ data: await setReceiptBuyer(ctx, signedIn(req), pathId(req.params.receipt), req.body) }),
  )

  app.get(
    '/profile/invoice-details',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getMyInvoiceDetails',
        summary: "The PAN and address printed on the caller's invoices as the buyer",
        response: { 200: Data(BuyerDetailsSchema), ...errorResponses },
      },
    },
    async (req) => ({ data: await myInvoiceDetails(ctx, signedIn(req)) }),
  )

  app.put(
    '/profile/invoice-details',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'setMyInvoiceDetails',
        summary: "Set the PAN and address printed on the caller's invoices issued from now on",
        body: BuyerDetailsBody,
        response: { 200: Data(BuyerDetailsSchema), ...errorResponses },
      },
    },
    async (req) => ({ data: await saveMyInvoiceDetails(ctx, signedIn(req), req.body) }),
  )

  await app.register(bookRoutes)
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
