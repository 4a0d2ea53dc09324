import type { InvoiceLanguage } from './language.ts'
import { copyMarking } from './pdf.ts'
import { newPdf, write } from './pdf-text.ts'
import { amountInWords } from './words.ts'

// The platform's monthly commission invoice to a venue as a one-page A4 PDF (payouts'
// GET /api/venues/{venue}/commission-invoices/{id}/pdf; docs/payments.md, "The platform's VAT on
// commission"), drawn like a venue's own invoice (pdf.ts): the same fonts and script runs
// (pdf-text.ts), the amount in words (words.ts), the "Copy of Original (n)" marking. A tax invoice
// from the platform (its legal name and PAN) to the venue (legal name, address, PAN). In Nepali the
// labels and the amount in words are Nepali (the English words are printed too); numbers stay Latin.

/** What the PDF prints: amounts as the API writes them ("1234.50"), the total also in paisa. */
export interface CommissionInvoicePrint {
  invoice_number: string
  fiscal_year: string
  bs_month: string
  period_from: string
  period_to: string
  issued_on: string
  issued_on_bs: string
  seller: { name: string; pan_number: string | null }
  buyer: { legal_name: string; address: string; pan_number: string | null }
  /** Taxable amounts (VAT excluded): commission on online money, on money taken at the desk. */
  lines: { online: string; desk: string }
  taxable_amount: string
  vat: string
  total: string
  total_paisa: number
}

const LABELS = {
  en: {
    title: 'Tax Invoice',
    pan: 'PAN/VAT No.',
    number: 'Invoice No.',
    fiscalYear: 'Fiscal year',
    date: 'Date',
    period: 'Period',
    month: 'Nepali month',
    buyer: 'Buyer',
    buyerPan: 'Buyer PAN',
    buyerAddress: 'Buyer address',
    description: 'Description',
    amount: 'Amount',
    online: 'Commission on online payments (gateways and wallets)',
    desk: 'Commission on payments taken at the desk',
    taxable: 'Taxable amount',
    vat: 'VAT 13%',
    total: 'Total',
    inWords: 'In words',
    note: 'Commission charged to the venue for the period, net of commission given back on refunds.',
  },
  ne: {
    title: 'कर बीजक',
    pan: 'स्थायी लेखा / मू.अ.कर नं.',
    number: 'बीजक नं.',
    fiscalYear: 'आर्थिक वर्ष',
    date: 'मिति',
    period: 'अवधि',
    month: 'नेपाली महिना',
    buyer: 'खरिदकर्ता',
    buyerPan: 'खरिदकर्ताको स्थायी लेखा नं.',
    buyerAddress: 'खरिदकर्ताको ठेगाना',
    description: 'विवरण',
    amount: 'रकम',
    online: 'अनलाइन भुक्तानीमा कमिसन',
    desk: 'काउन्टरमा लिइएको भुक्तानीमा कमिसन',
    taxable: 'करयोग्य रकम',
    vat: 'मू.अ.कर १३%',
    total: 'जम्मा',
    inWords: 'अक्षरमा',
    note: 'यस अवधिमा भेन्युबाट लिइएको कमिसन, फिर्तामा फर्काइएको कमिसन घटाएर।',
  },
} as const

const npr = (amount: string) => `NPR ${amount}`

/** The PDF bytes of a commission invoice; `copy` is this print's number (0: the original). */
export function commissionInvoicePdf(
  inv: CommissionInvoicePrint,
  opts: { copy: number; lang: InvoiceLanguage },
): Promise<Buffer> {
  const L = LABELS[opts.lang]
  const { doc, done } = newPdf({
    size: 'A4',
    margin: 50,
    info: { Title: `Tax Invoice ${inv.invoice_number}`, Author: inv.seller.name, Creator: 'Courtside' },
  })

  const left = 50
  const right = doc.page.width - 50
  const width = right - left
  const marking = copyMarking(opts.copy)
  if (marking) write(doc, marking, { bold: true, size: 10 }, { x: left, y: 30 }, { width, align: 'right' })

  write(doc, inv.seller.name, { bold: true, size: 16 }, { x: left, y: 50 }, { width })
  if (inv.seller.pan_number) write(doc, `${L.pan}: ${inv.seller.pan_number}`, { size: 10 }, undefined, { width })
  doc.moveDown(1)
  write(doc, opts.lang === 'ne' ? `${L.title} / Tax Invoice` : L.title, { bold: true, size: 14 }, undefined, {
    width,
    align: 'center',
  })
  doc.moveDown(0.6)

  const field = (label: string, value: string) =>
    write(doc, `${label}: ${value}`, { size: 10 }, { x: left, y: doc.y }, { width })
  field(L.number, inv.invoice_number)
  field(L.fiscalYear, inv.fiscal_year)
  field(L.date, `${inv.issued_on_bs} BS / ${inv.issued_on} AD`)
  field(L.month, inv.bs_month)
  field(L.period, `${inv.period_from} – ${inv.period_to} AD`)
  field(L.buyer, inv.buyer.legal_name)
  if (inv.buyer.address) field(L.buyerAddress, inv.buyer.address)
  if (inv.buyer.pan_number) field(L.buyerPan, inv.buyer.pan_number)
  doc.moveDown(0.8)

  const rule = () => {
    doc
      .moveTo(left, doc.y + 1)
      .lineTo(right, doc.y + 1)
      .lineWidth(0.5)
      .stroke()
    doc.y += 5
  }
  const sum = (label: string, amount: string, bold = false, size = 10) => {
    const y = doc.y
    write(doc, label, { bold, size }, { x: left, y }, { width: width - 130 })
    const after = doc.y
    write(doc, amount, { bold, size }, { x: right - 125, y }, { width: 125, align: 'right' })
    doc.y = Math.max(after, doc.y)
    doc.x = left
  }
  sum(L.description, L.amount, true, 9)
  rule()
  sum(L.online, npr(inv.lines.online), false, 9)
  sum(L.desk, npr(inv.lines.desk), false, 9)
  rule()
  sum(L.taxable, npr(inv.taxable_amount))
  sum(L.vat, npr(inv.vat))
  sum(L.total, npr(inv.total), true)
  doc.moveDown(0.6)
  write(doc, `${L.inWords}: ${amountInWords(inv.total_paisa, 'en')}`, { size: 9 }, { x: left, y: doc.y }, { width })
  if (opts.lang === 'ne')
    write(doc, `${L.inWords}: ${amountInWords(inv.total_paisa, 'ne')}`, { size: 9 }, { x: left, y: doc.y }, { width })
  doc.moveDown(1)
  write(doc, L.note, { size: 8 }, { x: left, y: doc.y }, { width })
  doc.end()
  return done
}
