import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { NotFound } from '../../lib/errors.ts'
import { requestLocale } from '../../lib/i18n/index.ts'
import { pathId } from '../../lib/ids.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, Message, Nullable } from '../../lib/schemas.ts'
import { commissionInvoicePdf, invoiceLanguage } from '../receipts/index.ts'
import { MANAGER_ROLES, resolveVenue, venueForStaff } from '../venues/index.ts'
import {
  commissionInvoiceResource,
  commissionInvoicesOf,
  issueCommissionInvoices,
  printCommissionInvoice,
} from './commission-invoices.ts'
import { listPayouts, payoutAccountOf, setPayoutAccount } from './repository.ts'
import {
  CommissionBody,
  CommissionInvoiceParams,
  CommissionInvoicePdfQuery,
  CommissionInvoiceSchema,
  CommissionSchema,
  DueSchema,
  IssueCommissionInvoicesBody,
  PayoutAccountSchema,
  PayoutBody,
  PayoutSchema,
  StatementQuery,
  StatementSchema,
  VenueParams,
} from './schemas.ts'
import {
  checkPayoutAccount,
  dueVenues,
  payoutResource,
  recordPayout,
  STATEMENT_COLUMNS,
  setVenueCommission,
  statement,
  statementCsv,
  venueCommission,
} from './service.ts'

const tags = ['Payouts']
const security = [{ bearer: [] }]

const routes: Routes = async (app) => {
  const { ctx } = app
  const adminVenue = async (key: string) => {
    const venue = await resolveVenue(ctx.db, key)
    if (!venue) throw new NotFound()
    return venue
  }

  app.get(
    '/admin/venues/:venue/commission',
    {
      onRequest: app.auth.roles('super_admin'),
      schema: {
        tags,
        security,
        operationId: 'getVenueCommission',
        summary: "A venue's commission rates (super_admin)",
        params: VenueParams,
        response: { 200: Data(CommissionSchema), ...errorResponses },
      },
    },
    async (req) => ({ data: await venueCommission(ctx, (await adminVenue(req.params.venue)).id) }),
  )

  app.patch(
    '/admin/venues/:venue/commission',
    {
      onRequest: app.auth.roles('super_admin'),
      schema: {
        tags,
        security,
        operationId: 'setVenueCommission',
        summary: "Set a venue's commission on online money (and optionally on desk money) (super_admin)",
        description:
          'percent: 0–100 with two decimals, or null for the platform default (PLATFORM_COMMISSION_PERCENT). ' +
          'Commission is taken when a payment settles and given back in proportion when it is refunded; a new ' +
          'rate applies to payments from now on. desk_percent (default null: none) charges desk money too, as an ' +
          'amount the venue owes the platform.',
        params: VenueParams,
        body: CommissionBody,
        response: { 200: Data(CommissionSchema), ...errorResponses },
      },
    },
    async (req) => ({ data: await setVenueCommission(ctx, (await adminVenue(req.params.venue)).id, req.body) }),
  )

  app.get(
    '/venues/:venue/statement',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getVenueStatement',
        summary:
          "A venue's statement of its balance with the platform for a range of days (owner, manager, super_admin)",
        description:
          'Days are venue-local and inclusive, at most 366. `closing_balance = opening_balance + online_gross − refunds − ' +
          "commission − payouts`, the venue's ledger balance at the end of `to`. Each line is one movement of the " +
          'balance, oldest first. desk_gross and desk_refunds sum the desk money the venue took itself. With ' +
          '`Accept: text/csv` the lines as CSV (UTF-8 with a byte-order mark; a header row, then an opening-balance row; ' +
          'amounts as plain decimals; date_bs the Bikram Sambat date beside the AD date).',
        params: VenueParams,
        querystring: StatementQuery,
        response: {
          200: {
            description: 'The statement',
            content: {
              'application/json': { schema: Data(StatementSchema) },
              'text/csv': {
                schema: Type.String({ description: STATEMENT_COLUMNS.join(',') }),
              },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (req, reply) => {
      const venue = await venueForStaff(ctx, signedIn(req), req.params.venue, MANAGER_ROLES)
      const s = await statement(ctx, venue, req.query.from, req.query.to)
      reply.header('cache-control', 'no-store')
      if ((req.headers.accept ?? '').includes('text/csv')) {
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="statement-${venue.slug}-${s.from}-${s.to}.csv"`)
          .send(statementCsv(s, requestLocale(req)))
      }
      return reply.type('application/json; charset=utf-8').send({ data: s })
    },
  )

  app.post(
    '/admin/venues/:venue/payouts',
    {
      onRequest: app.auth.roles('super_admin'),
      schema: {
        tags,
        security,
        operationId: 'recordPayout',
        summary:
          'Record a payout to a venue, at most what is available (balance less reserve); a reference is recorded once per venue (super_admin)',
        params: VenueParams,
        body: PayoutBody,
        response: { 201: Data(PayoutSchema), 409: Message, ...errorResponses },
      },
    },
    async (req, reply) => {
      const venue = await adminVenue(req.params.venue)
      const payout = await recordPayout(ctx, signedIn(req), venue.id, req.body)
      return reply.code(201).send({ data: payoutResource(ctx, payout) })
    },
  )

  app.get(
    '/venues/:venue/payouts',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'listVenuePayouts',
        summary: 'Payouts made to a venue, newest first (owner, manager, super_admin)',
        params: VenueParams,
        response: { 200: Data(Type.Array(PayoutSchema)), ...errorResponses },
      },
    },
    async (req) => {
      const venue = await venueForStaff(ctx, signedIn(req), req.params.venue, MANAGER_ROLES)
      return { data: (await listPayouts(ctx.db, venue.id)).map((p) => payoutResource(ctx, p)) }
    },
  )

  app.post(
    '/admin/commission-invoices',
    {
      onRequest: app.auth.roles('super_admin'),
      schema: {
        tags,
        security,
        operationId: 'issueCommissionInvoices',
        summary:
          "Issue the platform's commission invoices of an ended Nepali month to every venue charged commission in it (super_admin)",
        description:
          'Idempotent: a venue that has its invoice for the month gets no second one; the answer lists the invoices ' +
          'issued now. A job issues the last ended month every few hours anyway. 422 for a month not yet ended.',
        body: IssueCommissionInvoicesBody,
        response: { 201: Data(Type.Array(CommissionInvoiceSchema)), ...errorResponses },
      },
    },
    async (req, reply) => {
      const issued = await issueCommissionInvoices(ctx, req.body.fiscal_year, req.body.month)
      return reply.code(201).send({ data: issued.map(commissionInvoiceResource) })
    },
  )

  app.get(
    '/venues/:venue/commission-invoices',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'listCommissionInvoices',
        summary: "The platform's commission invoices to a venue, oldest first (owner, manager, super_admin)",
        params: VenueParams,
        response: { 200: Data(Type.Array(CommissionInvoiceSchema)), ...errorResponses },
      },
    },
    async (req) => {
      const venue = await venueForStaff(ctx, signedIn(req), req.params.venue, MANAGER_ROLES)
      return { data: await commissionInvoicesOf(ctx, venue.id) }
    },
  )

  app.get(
    '/venues/:venue/commission-invoices/:id/pdf',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getCommissionInvoicePdf',
        summary: "One of the platform's commission invoices to a venue as a one-page PDF (owner, manager, super_admin)",
        description:
          'A Tax Invoice from the platform (PLATFORM_LEGAL_NAME, PLATFORM_PAN) to the venue (its legal name as issued, ' +
          'address, PAN): the number, fiscal year, dates in BS and AD, the month invoiced, the lines (commission on online ' +
          'payments, on payments taken at the desk), the taxable amount, 13% VAT, the total and the amount in words. The ' +
          'first PDF is the original; every later one is marked "Copy of Original (n)" (each print recorded). Language: ' +
          "`?lang=ne|en`, else the signed-in user's language, else Accept-Language, else English. 403 for anyone but the " +
          "venue's owner, managers and super_admin; 404 for an invoice that is not this venue's.",
        params: CommissionInvoiceParams,
        querystring: CommissionInvoicePdfQuery,
        response: {
          200: {
            description: 'The commission invoice',
            content: {
              'application/pdf': { schema: Type.String({ format: 'binary', description: 'A one-page PDF' }) },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (req, reply) => {
      const lang = invoiceLanguage(req.query.lang, requestLocale(req))
      const { print, pdf } = await printCommissionInvoice(
        ctx,
        signedIn(req),
        req.params.venue,
        pathId(req.params.id),
        (print, copy) => commissionInvoicePdf(print, { copy, lang }),
      )
      return (
        reply
          .header('cache-control', 'private, no-store')
          .type('application/pdf')
          .header('content-disposition', `inline; filename="${print.invoice_number.replaceAll('/', '-')}.pdf"`)
          // `as never`: the PDF bytes bypass the serializer (the schema documents them as application/pdf).
          .send(pdf as never)
      )
    },
  )

  app.get(
    '/admin/payouts/due',
    {
      onRequest: app.auth.roles('super_admin'),
      schema: {
        tags,
        security,
        operationId: 'listPayoutsDue',
        summary:
          'Venues with a balance with the platform, largest first (owing ones last), with reserve, available and payout details (super_admin)',
        response: { 200: Data(Type.Array(DueSchema)), ...errorResponses },
      },
    },
    async () => ({ data: await dueVenues(ctx) }),
  )

  app.get(
    '/venues/:venue/payout-account',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'getPayoutAccount',
        summary: "Where the venue's payouts go (owner, super_admin)",
        params: VenueParams,
        response: { 200: Data(Nullable(PayoutAccountSchema)), ...errorResponses },
      },
    },
    async (req) => {
      const venue = await venueForStaff(ctx, signedIn(req), req.params.venue, ['owner'])
      return { data: await payoutAccountOf(ctx.db, venue.id) }
    },
  )

  app.put(
    '/venues/:venue/payout-account',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'setPayoutAccount',
        summary: "Set where the venue's payouts go: a bank account, or an eSewa or Khalti merchant id (owner)",
        params: VenueParams,
        body: PayoutAccountSchema,
        response: { 200: Data(PayoutAccountSchema), ...errorResponses },
      },
    },
    async (req) => {
      const venue = await venueForStaff(ctx, signedIn(req), req.params.venue, ['owner'])
      checkPayoutAccount(req.body)
      const value = {
        type: req.body.type,
        account_name: req.body.account_name.trim(),
        bank_name: req.body.bank_name?.trim() || null,
        account_number: req.body.account_number?.trim() || null,
        merchant_id: req.body.merchant_id?.trim() || null,
      }
      await setPayoutAccount(ctx.db, venue.id, value)
      return { data: value }
    },
  )
}

export default routes
