import type { Book } from './books.ts'
import { newPdf, write } from './pdf-text.ts'

// The sales book or sales-return book of a month as an A4 landscape PDF (Accept: application/pdf).

export function bookPdf(book: Book, heading: { venue: string; pan: string | null; title: string }): Promise<Buffer> {
  const { doc, done } = newPdf({
    size: 'A4',
    layout: 'landscape',
    margin: 40,
    info: { Title: heading.title, Creator: 'Courtside' },
  })
  const left = 40
  const width = doc.page.width - 80
  write(doc, heading.venue, { bold: true, size: 14 }, { x: left, y: 40 }, { width })
  if (heading.pan) write(doc, `PAN: ${heading.pan}`, { size: 10 }, undefined, { width })
  write(
    doc,
    `${heading.title}: fiscal year ${book.fiscal_year}, month ${book.month} (${book.bs_month} BS)`,
    { size: 11 },
    undefined,
    {
      width,
    },
  )
  doc.moveDown(0.8)
  // A4 landscape less the margins is 762 points wide.
  const widths = [65, 100, 100, 150, 70, 70, 70, 65, 65]
  const aligns = ['left', 'left', 'left', 'left', 'left', 'right', 'right', 'right', 'right'] as const
  const row = (cells: Array<string | null>, bold = false) => {
    if (doc.y > doc.page.height - 60) doc.addPage()
    const y = doc.y
    let x = left
    let bottom = y
    cells.forEach((cell, i) => {
      write(doc, cell ?? '', { bold, size: 8 }, { x, y }, { width: widths[i] - 4, align: aligns[i] })
      bottom = Math.max(bottom, doc.y)
      x += widths[i]
    })
    doc.x = left
    doc.y = bottom + 3
  }
  row(['Date (BS)', 'Number', 'Against', 'Buyer', 'Buyer PAN', 'Total', 'Non-taxable', 'Taxable', 'VAT'], true)
  for (const r of book.rows) {
    row([r.date_bs, r.number, r.ref_number, r.buyer_name, r.buyer_pan, r.total, r.non_taxable, r.taxable, r.vat])
  }
  row(['Total', '', '', '', '', book.totals.total, book.totals.non_taxable, book.totals.taxable, book.totals.vat], true)
  doc.end()
  return done
}
