import { fileURLToPath } from 'node:url'
import PDFDocument from 'pdfkit'

// Text in two scripts on one pdfkit page: Latin in the built-in Helvetica, Devanagari (Nepali
// names, the Nepali PDF's labels and amount in words) in the bundled Noto Sans Devanagari
// (fonts/README.md). A string is cut into runs of one script and written run after run.

/** The font file, from src/ and from dist/ alike (the repository's src/modules/receipts/fonts). */
export const DEVANAGARI_FONT = fileURLToPath(
  new URL('../../../src/modules/receipts/fonts/NotoSansDevanagari-Regular.woff', import.meta.url),
)

const DEVA = 'Devanagari'

/** Devanagari letters, signs and the joiners and dotted circle they use. */
const isDevanagari = (c: string) => /[\u0900-\u097F\u1CD0-\u1CFF\uA8E0-\uA8FF\u25CC]|\u200C|\u200D/.test(c)

/** The runs of one script; spaces stay with the run they are in (the Devanagari subset has no Latin punctuation). */
export function scriptRuns(text: string): Array<{ deva: boolean; text: string }> {
  const runs: Array<{ deva: boolean; text: string }> = []
  for (const c of text) {
    const neutral = /\s/.test(c)
    const deva = isDevanagari(c)
    const last = runs.at(-1)
    if (last && (neutral || last.deva === deva)) last.text += c
    else runs.push({ deva, text: c })
  }
  return runs
}

export interface TextOptions {
  width?: number
  align?: 'left' | 'center' | 'right'
}

/** Registers the Devanagari font with a new document. */
export function registerFonts(doc: PDFKit.PDFDocument) {
  doc.registerFont(DEVA, DEVANAGARI_FONT)
}

/** Writes `text` at (x, y), or where the cursor is, switching fonts per script run. */
export function write(
  doc: PDFKit.PDFDocument,
  text: string,
  style: { bold?: boolean; size: number },
  at?: { x: number; y: number },
  opts: TextOptions = {},
) {
  const runs = scriptRuns(text)
  if (runs.length === 0) runs.push({ deva: false, text: '' })
  runs.forEach((run, i) => {
    doc.font(run.deva ? DEVA : style.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(style.size)
    const continued = i < runs.length - 1
    if (i === 0 && at) doc.text(run.text, at.x, at.y, { ...opts, continued })
    else doc.text(run.text, { ...opts, continued })
  })
}

/**
 * A new PDF document with the bundled fonts registered, and the promise of its bytes once `end()`
 * is called on it.
 */
export function newPdf(options: PDFKit.PDFDocumentOptions): { doc: PDFKit.PDFDocument; done: Promise<Buffer> } {
  const doc = new PDFDocument(options)
  registerFonts(doc)
  const chunks: Buffer[] = []
  doc.on('data', (c: Buffer) => chunks.push(c))
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  return { doc, done }
}
