import { adDate } from '../../../../shared-ui/format.ts'
import { getLang } from '../../i18n/index.ts'

// Calendar months as "YYYY-MM" (string and UTC-calendar arithmetic: nothing depends on this
// device's time zone).

/** The first and last day of `month` (YYYY-MM), YYYY-MM-DD. */
export function monthRange(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number)
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate()
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` }
}

/** The month `n` months after `month`. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1 + n, 1)).toISOString().slice(0, 7)
}

/** "2026-11" → "November 2026" ("नोभेम्बर २०२६" in Nepali). */
export function monthLabel(month: string): string {
  if (getLang() === 'ne') return adDate(`${month}-01`, 'ne').split(' ').slice(1).join(' ')
  const [y, m] = month.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString('en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  })
}
