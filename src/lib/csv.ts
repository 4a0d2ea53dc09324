import { hasMessage, type Locale, t } from './i18n/index.ts'
import { toBs } from './nepali-date.ts'

// The CSV files people open in Excel (docs/reports.md, "Exports"): every export writes its cells
// through here. UTF-8 with a byte-order mark (without it Excel reads the bytes as the local code
// page and garbles Devanagari), CRLF line ends and RFC 4180 quoting; text people typed never runs
// as a formula; phones stay text without a visible apostrophe; dates have their BS date beside.
// The header row is in the reader's language (docs/languages.md): the English column names as they
// always were, or the catalogue's `csv.*` words for a Nepali reader.

/** The byte-order mark: the first thing in every CSV file. */
export const BOM = '\uFEFF'

/** What a spreadsheet would run as a formula when a cell starts with it. */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * One CSV cell: quoted when it holds a comma, quote or line break. Text people typed (`text`:
 * names, notes, references) that a spreadsheet would read as a formula (=, +, -, @, tab or CR
 * first) gets a leading apostrophe; values we write (amounts, codes, dates) never start so.
 */
export function cell(value: string | number | null | undefined, text = false): string {
  let s = value === null || value === undefined ? '' : String(value)
  if (text && FORMULA_START.test(s)) s = `'${s}`
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

/** A Nepali number in international form: +977, then the national number. */
const NEPAL = /^\+977[\s-]?(\d[\d\s-]*)$/

/**
 * A phone as Excel keeps it: text, never a formula, without an apostrophe where none is needed.
 * "+9779812345678" would start with + (Excel runs it as a formula, and the apostrophe the other
 * cells get would show), so a Nepali number is written "(+977) 9812345678": it starts with a
 * parenthesis, is not a number (Excel keeps it as text and does not drop a leading zero), and
 * still dials. Any other phone is a typed text cell (`cell(phone, true)`).
 */
export function phoneCell(phone: string | null | undefined): string {
  if (!phone) return ''
  const nepal = NEPAL.exec(phone.trim())
  if (nepal) return `(+977) ${nepal[1]!.replace(/[\s-]+/g, '')}`
  return cell(phone, true)
}

/** A calendar date's Bikram Sambat date, "YYYY-MM-DD" in BS ("2083-08-14"); '' outside the table's years. */
export function bsDate(adDate: string | null | undefined): string {
  if (!adDate) return ''
  try {
    return toBs(adDate.slice(0, 10))
  } catch {
    return ''
  }
}

/** One CSV line of already written cells, CRLF ended. */
export function line(cells: readonly string[]): string {
  return `${cells.join(',')}\r\n`
}

/** A column's name in `locale`: the English name itself, else the catalogue's `csv.<name>` when it has one. */
export function columnName(column: string, locale: Locale = 'en'): string {
  const key = `csv.${column}`
  return locale === 'en' || !hasMessage(key) ? column : t(locale, key)
}

/** The header line of a file: the BOM, then the column names (in `locale`; English by default). */
export function header(columns: readonly string[], locale: Locale = 'en'): string {
  if (locale === 'en') return BOM + line(columns)
  return BOM + line(columns.map((c) => cell(columnName(c, locale))))
}
