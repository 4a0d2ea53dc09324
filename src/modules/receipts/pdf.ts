import type { InvoiceLanguage } from './language.ts'
import { newPdf, write } from './pdf-text.ts'
import type { Receipt } from './resource.ts'
import { amountInWords } from './words.ts'

// An invoice or credit note as a one-page A4 PDF (GET /api/receipts/{receipt} with
// Accept: application/pdf), drawn with pdfkit (pinned in package.json): Latin text in its built-in
// Helvetica, Devanagari in the bundled Noto Sans Devanagari (pdf-text.ts). In Nepali the labels
// and the amount in words are Nepali (the English words are printed too); numbers stay Latin.

const LABELS = {
  en: {
    'Tax Invoice': 'Tax Invoice',
    Invoice: 'Invoice',
    'Credit Note': 'Credit Note',
    pan: 'PAN',
    vatPan: 'PAN/VAT No.',
    number: 'Invoice No.',
    cnNumber: 'Credit Note No.',
    fiscalYear: 'Fiscal year',
    date: 'Date',
    buyer: 'Buyer',
    buyerPan: 'Buyer PAN',
    buyerAddress: 'Buyer address',
    booking: 'Booking',
    payment: 'Payment',
    against: 'Against invoice',
    againstDate: 'Invoice date',
    reason: 'Reason',
    description: 'Description',
    qty: 'Qty',
    unit: 'Unit',
    rate: 'Rate',
    amount: 'Amount',
    taxable: 'Taxable amount',
    vat: 'VAT 13%',
    total: 'Total',
    paidByCustomer: 'Paid by the customer',
    paidByPlatform: 'Paid by Courtside (platform coupon)',
    refunded: 'Refunded to the customer',
    inWords: 'In words',
    vatNote: 'Prices include 13% VAT.',
    noVatNote: 'The seller is not VAT registered; no VAT is charged.',
  },
  ne: {
    'Tax Invoice': 'कर बीजक',
    Invoice: 'बीजक',
    'Credit Note': 'क्रेडिट नोट',
    pan: 'स्थायी लेखा नं.',
    vatPan: 'स्थायी लेखा / मू.अ.कर नं.',
    number: 'बीजक नं.',
    cnNumber: 'क्रेडिट नोट नं.',
    fiscalYear: 'आर्थिक वर्ष',
    date: 'मिति',
    buyer: 'खरिदकर्ता',
    buyerPan: 'खरिदकर्ताको स्थायी लेखा नं.',
    buyerAddress: 'खरिदकर्ताको ठेगाना',
    booking: 'बुकिङ',
    payment: 'भुक्तानी',
    against: 'सम्बन्धित बीजक',
    againstDate: 'बीजक मिति',
    reason: 'कारण',
    description: 'विवरण',
    qty: 'परिमाण',
    unit: 'एकाइ',
    rate: 'दर',
    amount: 'रकम',
    taxable: 'करयोग्य रकम',
    vat: 'मू.अ.कर १३%',
    total: 'जम्मा',
    paidByCustomer: 'ग्राहकले तिरेको',
    paidByPlatform: 'कोर्टसाइडले तिरेको (कुपन)',
    refunded: 'ग्राहकलाई फिर्ता',
    inWords: 'अक्षरमा',
    vatNote: 'मूल्यमा १३% मू.अ.कर समावेश छ।',
    noVatNote: 'बिक्रेता मू.अ.कर दर्ता भएको छैन; मू.अ.कर लगाइएको छैन।',
  },
} as const

const npr = (amount: string) => `NPR ${amount}`

/** "Copy of Original (n)" for the n-th copy; the original (0) has no marking. */
export const copyMarking = (copy: number) => (copy > 0 ? `Copy of Original (${copy})` : null)

/** The PDF bytes of an invoice or credit note; `copy` is this print's number (0: the original). */
export function receiptPdf(r: Receipt, opts: { copy: number; lang: InvoiceLanguage }): Promise<Buffer> {
  const L = LABELS[opts.lang]
  const { doc, done } = newPdf({
    size: 'A4',
    margin: 50,
    info: { Title: `${r.title} ${r.receipt_number}`, Author: r.venue.legal_name, Creator: 'Courtside' },
  })

  const left = 50
  const right = doc.page.width - 50
  const width = right - left
  const marking = copyMarking(opts.copy)
  if (marking) write(doc, marking, { bold: true, size: 10 }, { x: left, y: 30 }, { width, align: 'right' })

  write(doc, r.venue.legal_name, { bold: true, size: 16 }, { x: left, y: 50 }, { width })
  write(doc, r.venue.address, { size: 10 }, undefined, { width })
  // A venue without a PAN prints none (never "not registered").
  if (r.venue.pan_number)
    write(doc, `${r.vat_registered ? L.vatPan : L.pan}: ${r.venue.pan_number}`, { size: 10 }, undefined, { width })
  doc.moveDown(1)
  const title = L[r.title as 'Tax Invoice' | 'Invoice' | 'Credit Note'] ?? r.title
  write(doc, opts.lang === 'ne' ? `${title} / ${r.title}` : title, { bold: true, size: 14 }, undefined, {
    width,
    align: 'center',
  })
  doc.moveDown(0.6)

  const field = (label: string, value: string) =>
    write(doc, `${label}: ${value}`, { size: 10 }, { x: left, y: doc.y }, { width })
  field(r.type === 'credit_note' ? L.cnNumber : L.number, r.receipt_number)
  field(L.fiscalYear, r.fiscal_year)
  field(L.date, `${r.issued_on_bs} BS / ${r.issued_on} AD (${r.issued_at})`)
  field(L.buyer, r.customer_name)
  if (r.buyer_pan) field(L.buyerPan, r.buyer_pan)
  if (r.buyer_address) field(L.buyerAddress, r.buyer_address)
  field(L.booking, r.booking.booking_number)
  field(L.payment, `${r.method_label} (#${r.payment_id})`)
  if (r.original_receipt) {
    field(L.against, r.original_receipt.receipt_number)
    field(L.againstDate, `${r.original_receipt.issued_on_bs} BS / ${r.original_receipt.issued_on} AD`)
  }
  if (r.reason) field(L.reason, r.reason)
  doc.moveDown(0.8)

  // The lines: description, quantity, unit, rate, amount.
  const cols = [
    { x: left, w: 235, align: 'left' as const },
    { x: left + 240, w: 45, align: 'right' as const },
    { x: left + 290, w: 50, align: 'left' as const },
    { x: left + 340, w: 75, align: 'right' as const },
    { x: left + 420, w: width - 420, align: 'right' as const },
  ]
  const row = (cells: string[], bold = false) => {
    const y = doc.y
    let bottom = y
    cells.forEach((cell, i) => {
      write(doc, cell, { bold, size: 9 }, { x: cols[i].x, y }, { width: cols[i].w, align: cols[i].align })
      bottom = Math.max(bottom, doc.y)
    })
    doc.x = left
    doc.y = bottom + 2
  }
  const rule = () => {
    doc
      .moveTo(left, doc.y + 1)
      .lineTo(right, doc.y + 1)
      .lineWidth(0.5)
      .stroke()
    doc.y += 5
  }
  const sum = (label: string, amount: string, bold = false) => {
    const y = doc.y
    write(doc, label, { bold, size: 10 }, { x: left, y }, { width: width - 130 })
    const after = doc.y
    write(doc, amount, { bold, size: 10 }, { x: right - 125, y }, { width: 125, align: 'right' })
    doc.y = Math.max(after, doc.y)
    doc.x = left
  }
  row([L.description, L.qty, L.unit, L.rate, L.amount], true)
  rule()
  for (const line of r.lines) row([line.description, String(line.quantity), line.unit, line.rate, line.amount])
  rule()
  if (r.taxable_amount !== null && r.vat !== null) {
    sum(L.taxable, npr(r.taxable_amount))
    sum(L.vat, npr(r.vat))
  }
  sum(L.total, npr(r.total), true)
  if (r.type === 'receipt' && r.platform_share !== '0.00') {
    sum(L.paidByCustomer, npr(r.customer_paid))
    sum(L.paidByPlatform, npr(r.platform_share))
  }
  if (r.type === 'credit_note' && r.refunded_amount !== null) sum(L.refunded, npr(r.refunded_amount), true)
  doc.moveDown(0.6)
  const paisa = Math.round(Number(r.total) * 100)
  write(doc, `${L.inWords}: ${r.amount_in_words}`, { size: 9 }, { x: left, y: doc.y }, { width })
  if (opts.lang === 'ne')
    write(doc, `${L.inWords}: ${amountInWords(paisa, 'ne')}`, { size: 9 }, { x: left, y: doc.y }, { width })
  doc.moveDown(1)
  write(doc, r.vat_registered ? L.vatNote : L.noVatNote, { size: 8 }, { x: left, y: doc.y }, { width })
  doc.end()
  return done
}
