import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import type { App } from '../../src/app.ts'
import type { Receipt } from '../../src/modules/receipts/resource.ts'
import { book, fixedSlot, type World, world } from '../bookings/helpers.ts'
import { createUser, type TestUser } from '../helpers/factories.ts'

// Shared by the invoice tests: a venue with its tax identity, reading a PDF's text back with pdf.js.

// pdf.js reads the metrics of the 14 standard fonts (pdfkit's Helvetica) from its own package.
const standardFontDataUrl = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`

/** A PDF's text, page by page; `between` joins the text items of a page. */
export async function pdfText(bytes: Buffer, between = ''): Promise<{ pages: number; text: string }> {
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
    standardFontDataUrl,
  }).promise
  let text = ''
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent()
    text += `${content.items.map((i) => ('str' in i ? i.str : '')).join(between)}\n`
  }
  const pages = doc.numPages
  await doc.destroy()
  return { pages, text }
}

export type Who = { headers: Record<string, string> } | undefined

export const caller =
  (app: App) =>
  (
    method: 'GET' | 'POST' | 'PATCH' | 'PUT',
    url: string,
    who: Who,
    payload?: unknown,
    headers?: Record<string, string>,
  ) =>
    app.inject({
      method,
      url,
      headers: { ...who?.headers, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    })

/** A world whose venue has a tax identity (VAT registered unless told) and a customer named as given. */
export async function taxWorld(
  app: App,
  opts: { vat?: boolean; pan?: string | null; wallet?: number; price?: number; customerName?: string } = {},
): Promise<World & { buyer: TestUser }> {
  const w = await world(app, { price: opts.price })
  const call = caller(app)
  const set = await call('PATCH', `/api/venues/${w.venue.id}`, w.owner, {
    pan_number: opts.pan === undefined ? '601234567' : opts.pan,
    legal_name: 'Baneshwor Futsal Pvt. Ltd.',
    vat_registered: opts.vat ?? true,
  })
  assert.equal(set.statusCode, 200, set.body)
  const buyer = await createUser(app, { name: opts.customerName ?? 'Sita Sharma', wallet: opts.wallet ?? 1_000_000 })
  return { ...w, customer: buyer, buyer }
}

/** Books and pays (wallet) a booking for the world's customer: the booking and its invoice. */
export async function paidBooking(
  app: App,
  w: World,
  day: number,
  slot: { start?: string; end?: string; extra?: Record<string, unknown> } = {},
) {
  const booked = await book(app, w.customer, fixedSlot(w.court.id, day, slot.start, slot.end, slot.extra))
  assert.equal(booked.statusCode, 201, booked.body)
  const booking = booked.json().data
  const paid = await caller(app)('POST', '/api/payments/initiate', w.customer, {
    booking_id: booking.id,
    method: 'wallet',
  })
  assert.equal(paid.statusCode, 200, paid.body)
  const list = await receiptsOf(app, w, booking.id)
  return { booking, invoice: list[0], paymentId: paid.json().data.payment.id as number }
}

export async function receiptsOf(app: App, w: Pick<World, 'customer'>, bookingId: number): Promise<Receipt[]> {
  const res = await caller(app)('GET', `/api/bookings/${bookingId}/receipts`, w.customer)
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data
}
