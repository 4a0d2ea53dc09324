import NepaliDateModule from 'nepali-date-converter'

// Bikram Sambat (BS), Nepal's official calendar, from AD calendar dates: receipts show the date in
// both and are numbered per Nepali fiscal year, which starts on Shrawan 1 (the 4th month, mid-July).
// The month lengths of BS years are not computed but published each year (Nepal Panchanga
// Nirnayak Samiti), so the conversion is a table: the pinned npm package nepali-date-converter
// (MIT), which covers 2000–2090 BS (1943–2034 AD). test/receipts/nepali-date.test.ts checks it
// against a table of known dates from other sources, fiscal-year boundaries included.
//
// Everything here takes and returns calendar dates as "YYYY-MM-DD" text, never instants: which
// day it is where the venue is is ctx.zone's business (ctx.zone.today(ctx.clock.now())).

// In Node the package is CommonJS: the default import is its module.exports, whose `default` is the
// class. The customer app's bundler (web/, the same conversion) takes its ES module, whose default
// export is the class itself. The type follows whichever resolution compiles this file.
type Loaded = typeof NepaliDateModule
type NepaliDateClass = Loaded extends { default: infer C } ? C : Loaded
const NepaliDate = ((NepaliDateModule as { default?: NepaliDateClass }).default ?? NepaliDateModule) as NepaliDateClass

/** First and last BS years the table knows. */
export const BS_MIN_YEAR = 2000
export const BS_MAX_YEAR = 2090
/** Shrawan, the month a Nepali fiscal year starts with (1-based). */
export const SHRAWAN = 4

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

function parts(date: string, what: string): [number, number, number] {
  const m = DATE.exec(date)
  if (!m) throw new RangeError(`Not a ${what} date (YYYY-MM-DD): ${date}`)
  return [Number(m[1]), Number(m[2]), Number(m[3])]
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** The BS date ("YYYY-MM-DD", months 1–12) of an AD calendar date ("YYYY-MM-DD"). */
export function toBs(adDate: string): string {
  const [y, m, d] = parts(adDate, 'AD')
  // The package reads the Date's local calendar fields back: noon of that local day is that day
  // in any time zone, whatever the process's TZ.
  const local = new Date(y, m - 1, d, 12)
  if (local.getFullYear() !== y || local.getMonth() !== m - 1 || local.getDate() !== d) {
    throw new RangeError(`Not an AD date: ${adDate}`)
  }
  let bs: InstanceType<NepaliDateClass>
  try {
    bs = new NepaliDate(local)
  } catch {
    throw new RangeError(`AD date outside ${BS_MIN_YEAR}–${BS_MAX_YEAR} BS: ${adDate}`)
  }
  const out = `${bs.getYear()}-${pad(bs.getMonth() + 1)}-${pad(bs.getDate())}`
  // Outside its table the package answers a wrong date instead of failing (1900-01-01 → 2043-04-08):
  // only an answer that converts back to the same AD date is one.
  if (bs.getYear() < BS_MIN_YEAR || bs.getYear() > BS_MAX_YEAR || fromBs(out) !== adDate) {
    throw new RangeError(`AD date outside ${BS_MIN_YEAR}–${BS_MAX_YEAR} BS: ${adDate}`)
  }
  return out
}

/** The AD date ("YYYY-MM-DD") of a BS date ("YYYY-MM-DD", months 1–12). */
export function fromBs(bsDate: string): string {
  const [y, m, d] = parts(bsDate, 'BS')
  if (y < BS_MIN_YEAR || y > BS_MAX_YEAR || m < 1 || m > 12 || d < 1 || d > 32) {
    throw new RangeError(`Not a BS date in ${BS_MIN_YEAR}–${BS_MAX_YEAR}: ${bsDate}`)
  }
  const { AD, BS } = new NepaliDate(y, m - 1, d).getDateObject()
  // The package rolls an overlong day into the next month (Ashad 32 of a 31-day Ashad): refuse it.
  if (BS.year !== y || BS.month !== m - 1 || BS.date !== d) throw new RangeError(`Not a BS date: ${bsDate}`)
  return `${AD.year}-${pad(AD.month + 1)}-${pad(AD.date)}`
}

/**
 * The Nepali fiscal year of an AD date, as receipts print it: "2082/83" from Shrawan 1, 2082 BS
 * (17 July 2025) to Ashad's last day of 2083 BS.
 */
export function fiscalYearOf(adDate: string): string {
  const [year, month] = toBs(adDate).split('-').map(Number)
  const start = month >= SHRAWAN ? year : year - 1
  return `${start}/${pad((start + 1) % 100)}`
}

/** The AD date a fiscal year ("2082/83") starts on: Shrawan 1 of its first BS year. */
export function fiscalYearStart(fiscalYear: string): string {
  const m = /^(\d{4})\/(\d{2})$/.exec(fiscalYear)
  if (!m || (Number(m[1]) + 1) % 100 !== Number(m[2])) throw new RangeError(`Not a fiscal year: ${fiscalYear}`)
  return fromBs(`${m[1]}-${pad(SHRAWAN)}-01`)
}
