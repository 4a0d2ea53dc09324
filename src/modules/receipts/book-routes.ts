import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { requestLocale } from '../../lib/i18n/index.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses } from '../../lib/schemas.ts'
import { MANAGER_ROLES, venueForStaff } from '../venues/index.ts'
import { bookCsv, invoiceRegister, salesBook } from './books.ts'
import { bookPdf } from './books-pdf.ts'
import { irdStatus, retryFailedReports, saveIrdSettings, venueTaxIdentity } from './ird.ts'
import {
  BookQuery,
  BookSchema,
  IrdSettingsBody,
  IrdStatusSchema,
  RegisterQuery,
  RegisterRowSchema,
  VenueParams,
} from './schemas.ts'

// A venue's tax books and its IRD (CBMS) account (docs/payments.md, "Receipts and IRD").

const tags = ['Receipts']
const security = [{ bearer: [] }]

const routes: Routes = async (app) => {
  const { ctx } = app
  const taxIdentity = (venueId: number) => venueTaxIdentity(ctx, venueId)

  app.get(
    '/venues/:venue/ird',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getVenueIrd',
        summary:
          "The venue's CBMS account (never its password) and the invoices CBMS has not taken (owner, super_admin)",
        params: VenueParams,
        response: { 200: Data(IrdStatusSchema), ...errorResponses },
      },
    },
    async (req) => {
      const venue = await venueForStaff(ctx, signedIn(req), req.params.venue, ['owner'])
      return { data: await irdStatus(ctx, venue.id) }
    },
  )

  app.put(
    '/venues/:venue/ird',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'setVenueIrd',
        summary:
          "Set the venue's IRD CBMS account; when enabled each new invoice and credit note is reported (owner, super_admin)",
        description:
          'The password is stored encrypted with the app key and never returned; it is required the first time and ' +
          "kept when left out later. 422 when enabling a venue that is not VAT registered, or when seller_pan is not the venue's PAN.",
        params: VenueParams,
        body: IrdSettingsBody,
        response: { 200: Data(IrdStatusSchema), ...errorResponses },
      },
    },
    async (req) => {
      const user = signedIn(req)
      const venue = await venueForStaff(ctx, user, req.params.venue, ['owner'])
      return { data: await saveIrdSettings(ctx, user.id, { id: venue.id, ...(await taxIdentity(venue.id)) }, req.body) }
    },
  )

  app.post(
    '/venues/:venue/ird/retry',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'retryVenueIrd',
        summary: 'Report the invoices CBMS has not taken again (owner, super_admin)',
        params: VenueParams,
        response: { 200: Data(Type.Object({ queued: Type.Integer() })), ...errorResponses },
      },
    },
    async (req) => {
      const venue = await venueForStaff(ctx, signedIn(req), req.params.venue, ['owner'])
      return { data: { queued: await retryFailedReports(ctx, venue.id) } }
    },
  )

  for (const [path, type, operationId, title] of [
    ['/venues/:venue/sales-book', 'receipt', 'getSalesBook', 'Sales book'],
    ['/venues/:venue/sales-return-book', 'credit_note', 'getSalesReturnBook', 'Sales return book'],
  ] as const) {
    app.get(
      path,
      {
        onRequest: app.auth.required,
        schema: {
          tags,
          security,
          operationId,
          summary: `The ${title.toLowerCase()} of a Nepali month in IRD's columns (owner, manager, super_admin)`,
          description:
            'Date (BS), number, buyer name, buyer PAN, total, non-taxable, taxable, VAT, and the totals. ' +
            'With Accept: text/csv a CSV, with Accept: application/pdf a PDF.',
          params: VenueParams,
          querystring: BookQuery,
          response: {
            200: {
              description: title,
              content: {
                'application/json': { schema: Data(BookSchema) },
                'text/csv': { schema: Type.String() },
                'application/pdf': { schema: Type.String({ format: 'binary' }) },
              },
            },
            ...errorResponses,
          },
        },
      },
      async (req, reply) => {
        const venue = await venueForStaff(ctx, signedIn(req), req.params.venue, MANAGER_ROLES)
        const book = await salesBook(ctx, venue.id, type, req.query.fiscal_year, req.query.month)
        const accept = req.headers.accept ?? ''
        const file = `${path.split('/').at(-1)}-${venue.slug}-${book.bs_month}`
        reply.header('cache-control', 'private, no-store')
        if (accept.includes('text/csv')) {
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${file}.csv"`)
            .send(bookCsv(book, type, requestLocale(req)))
        }
        if (accept.includes('application/pdf')) {
          const id = await taxIdentity(venue.id)
          const pdf = await bookPdf(book, { venue: id.legal_name?.trim() || id.name, pan: id.pan_number, title })
          // `as never`: the PDF bytes bypass the JSON serializer (the schema documents application/pdf).
          return reply
            .type('application/pdf')
            .header('content-disposition', `inline; filename="${file}.pdf"`)
            .send(pdf as never)
        }
        return reply.type('application/json; charset=utf-8').send({ data: book })
      },
    )
  }

  app.get(
    '/venues/:venue/invoices',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'listVenueInvoices',
        summary:
          "The invoice register of the e-billing directive: a fiscal year's (or month's) invoices and credit notes (owner, manager, super_admin)",
        params: VenueParams,
        querystring: RegisterQuery,
        response: { 200: Data(Type.Array(RegisterRowSchema)), ...errorResponses },
      },
    },
    async (req) => {
      const venue = await venueForStaff(ctx, signedIn(req), req.params.venue, MANAGER_ROLES)
      return { data: await invoiceRegister(ctx, venue.id, req.query.fiscal_year, req.query.month) }
    },
  )
}

export default routes
