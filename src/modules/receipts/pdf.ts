import PDFDocument from 'pdfkit'
import type { Receipt } from './resource.ts'

// A receipt or credit note as a one-page A4 PDF (GET /api/receipts/{receipt} with
// Accept: application/pdf), drawn with pdfkit (pinned in package.json) in its built-in Helvetica:
// every text here is Latin, so no font file ships with the service.

const METHOD_LABEL: Record<string, string> = {
  gateway_1: 'eSewa',
  gateway_2: 'Khalti',
  gateway_3: 'Fonepay',
  wallet: 'Courtside wallet',
  cash: 'Cash',
}

const npr = (amount: string) => `NPR ${amount}`

/** The PDF bytes of a receipt. */
export function receiptPdf(r: Receipt): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: `${r.type === 'credit_note' ? 'Credit note' : 'Receipt'} ${r.receipt_number}`,
      Author: r.venue.legal_name,
      Creator: 'Courtside',
    },
  })
  const chunks: Buffer[] = []
  doc.on('data', (c: Buffer) => chunks.push(c))
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })

  const left = 50
  const right = doc.page.width - 50
  const width = right - left
  const title = r.type === 'credit_note' ? 'CREDIT NOTE' : r.vat_registered ? 'TAX INVOICE / RECEIPT' : 'RECEIPT'

  doc.font('Helvetica-Bold').fontSize(16).text(r.venue.legal_name, left, 50, { width })
  doc.font('Helvetica').fontSize(10).text(r.venue.address, { width })
  doc.text(`PAN: ${r.venue.pan_number ?? 'not registered'}${r.vat_registered ? ' (VAT registered)' : ''}`, { width })
  doc.moveDown(1.2)
  doc.font('Helvetica-Bold').fontSize(14).text(title, { width, align: 'center' })
  doc.moveDown(0.8)

  const field = (label: string, value: string) => {
    doc.font('Helvetica-Bold').fontSize(10).text(`${label}: `, { continued: true, width })
    doc.font('Helvetica').text(value, { width })
  }
  field('Number', r.receipt_number)
  field('Fiscal year', r.fiscal_year)
  field('Date', `${r.issued_on} AD / ${r.issued_on_bs} BS (${r.issued_at})`)
  field('Customer', r.customer_name)
  field('Booking', r.booking.booking_number)
  field('Payment', `#${r.payment_id}, ${METHOD_LABEL[r.method] ?? r.method}`)
  if (r.original_receipt) field('Refers to receipt', r.original_receipt.receipt_number)
  if (r.reason) field('Reason', r.reason)
  doc.moveDown(1)

  // The lines: description on the left, amount right-aligned.
  const amountWidth = 120
  const row = (description: string, amount: string, bold = false) => {
    const y = doc.y
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10)
    doc.text(description, left, y, { width: width - amountWidth - 10 })
    const after = doc.y
    doc.text(amount, right - amountWidth, y, { width: amountWidth, align: 'right' })
    doc.y = Math.max(after, doc.y)
    doc.x = left
  }
  const rule = () => {
    doc
      .moveTo(left, doc.y + 2)
      .lineTo(right, doc.y + 2)
      .lineWidth(0.5)
      .stroke()
    doc.y += 6
  }
  row('Description', 'Amount', true)
  rule()
  for (const line of r.lines) row(line.description, npr(line.amount))
  rule()
  if (r.taxable_amount !== null && r.vat_amount !== null) {
    row('Taxable amount', npr(r.taxable_amount))
    row('VAT 13%', npr(r.vat_amount))
  }
  row(r.type === 'credit_note' ? 'Total refunded' : 'Total received', npr(r.total), true)
  doc.moveDown(1.5)
  doc
    .font('Helvetica')
    .fontSize(8)
    .text(
      r.vat_registered
        ? 'Prices include 13% VAT.'
        : 'The venue is not VAT registered; no VAT is charged on this amount.',
      left,
      doc.y,
      { width },
    )
  doc.end()
  return done
}
