import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'
import { caller, paidBooking, taxWorld } from './helpers.ts'

// Issue 49's "Done when": the invoice PDF rendered to PNG (poppler's pdftoppm, 150 dpi) and the
// picture read back with tesseract OCR for the required words. This checks what a printer would put
// on paper, not the PDF's text layer (invoices.test.ts reads that). Both tools are Debian packages
// (poppler-utils, tesseract-ocr with -eng and -nep) that .ci/run installs; without them this fails.

const run = promisify(execFile)

async function tool(cmd: string, args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(cmd, args)
    return `${stdout}${stderr}`
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      assert.fail(
        `${cmd} is not installed: apt-get install -y poppler-utils tesseract-ocr tesseract-ocr-eng tesseract-ocr-nep`,
      )
    }
    throw err
  }
}

let dir: string
let app: App
let call: ReturnType<typeof caller>
before(async () => {
  await tool('pdftoppm', ['-v'])
  const langs = await tool('tesseract', ['--list-langs'])
  for (const lang of ['eng', 'nep']) {
    assert.ok(
      langs.split(/\s+/).includes(lang),
      `tesseract has no "${lang}" data: apt-get install -y tesseract-ocr-${lang}`,
    )
  }
  dir = await mkdtemp(join(tmpdir(), 'cs-pdfpng-'))
  app = await build(undefined, {}, { clock: new ManualClock(FIXED_NOW) })
  call = caller(app)
})
after(async () => {
  await app?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

let n = 0
/** Page 1 of the PDF as a PNG, then the OCR text of that picture in the given tesseract languages. */
async function ocr(pdf: Buffer, lang: string): Promise<string> {
  const base = join(dir, `r${++n}`)
  await writeFile(`${base}.pdf`, pdf)
  await tool('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', '-singlefile', `${base}.pdf`, base])
  const png = await readFile(`${base}.png`)
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], 'pdftoppm wrote a PNG')
  return tool('tesseract', [`${base}.png`, 'stdout', '-l', lang])
}

/** Lower case, one space between words: OCR breaks lines and spacing where the layout does. */
const plain = (s: string) => s.toLowerCase().replace(/\s+/g, ' ')

function has(text: string, expected: string) {
  assert.ok(plain(text).includes(plain(expected)), `"${expected}" is not in the OCR text: ${text}`)
}

const pdf = async (id: number, who: { headers: Record<string, string> }, query = '') => {
  const res = await call('GET', `/api/receipts/${id}${query}`, who, undefined, { accept: 'application/pdf' })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.headers['content-type'], 'application/pdf')
  return res.rawPayload
}

test('the English invoice on paper: title, receipt number, seller PAN, amount in words; the second print a copy', async () => {
  const w = await taxWorld(app)
  const { invoice } = await paidBooking(app, w, 3, { start: '10:00', end: '12:00' })
  assert.equal(invoice.amount_in_words, 'Three Thousand Rupees Only')

  const first = await ocr(await pdf(invoice.id, w.buyer), 'eng')
  has(first, 'Tax Invoice')
  has(first, invoice.receipt_number)
  has(first, '601234567')
  has(first, 'Three Thousand Rupees Only')
  assert.ok(!plain(first).includes('copy of original'), `the first print is the original: ${first}`)

  const second = await ocr(await pdf(invoice.id, w.staff), 'eng')
  has(second, 'Copy of Original (1)')
  has(second, 'Tax Invoice')
  has(second, invoice.receipt_number)
})

// Devanagari reads reliably in tesseract's Nepali model for the body text (the buyer's name, the
// amount in words); the bold 14 pt title line "कर बीजक / Tax Invoice", two scripts on one line, comes
// out garbled, so the title is checked on the English PDF above and not here.
test('the Nepali invoice on paper: receipt number, seller PAN, Devanagari name and both amounts in words', async () => {
  const w = await taxWorld(app, { customerName: 'राम बहादुर श्रेष्ठ' })
  const { invoice } = await paidBooking(app, w, 4)
  assert.equal(invoice.amount_in_words, 'One Thousand Five Hundred Rupees Only')

  const text = await ocr(await pdf(invoice.id, w.buyer, '?lang=ne'), 'nep+eng')
  has(text, invoice.receipt_number)
  has(text, '601234567')
  has(text, 'One Thousand Five Hundred Rupees Only')
  has(text, 'राम बहादुर श्रेष्ठ')
  has(text, 'एक हजार पाँच सय रुपैयाँ मात्र')
  has(text, 'खरिदकर्ता')
})
