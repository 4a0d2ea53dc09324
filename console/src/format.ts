// Money as "Rs 1,200.00" and venue-local times. The service already renders wall-clock times
// (HH:mm) and instants (ISO with the venue's offset) in the venue's zone, so nothing here converts.

/** "1200.00" or 1200 → "Rs 1,200.00". String arithmetic: no float rounding. */
export function money(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'Rs 0.00'
  const text = typeof value === 'number' ? value.toFixed(2) : value
  const negative = text.startsWith('-')
  const [whole = '0', frac = ''] = text.replace(/^-/, '').split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${negative ? '-' : ''}Rs ${grouped}.${(frac + '00').slice(0, 2)}`
}

/** "2026-11-25T18:15:00+05:45" → "18:15" (the venue-local clock time as the service wrote it). */
export function clockTime(instant: string | null | undefined): string {
  if (!instant) return ''
  const m = /T(\d{2}:\d{2})/.exec(instant)
  return m ? m[1] : instant
}

/**
 * An instant as the API writes it, "2026-11-25 18:15:00" or with its offset
 * "2026-11-25T18:15:00+05:45" (both venue time) → "2026-11-25 18:15".
 */
export function venueMinute(instant: string | null | undefined): string {
  return instant ? instant.slice(0, 16).replace('T', ' ') : ''
}

/** "2026-11-25" → "Wed 25 Nov 2026". */
export function longDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number)
  const day = new Date(Date.UTC(y, m - 1, d))
  return day.toLocaleDateString('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  })
}

/** The date `days` after `date` (YYYY-MM-DD, calendar arithmetic). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

/** Minutes since midnight of "HH:mm". */
export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number)
  return h * 60 + m
}

/** "HH:mm" of minutes since midnight. */
export function timeOf(minutes: number): string {
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`
}

export const STATUS_LABELS: Record<string, string> = {
  pending: 'Awaiting payment',
  confirmed: 'Confirmed',
  playing: 'Playing',
  completed: 'Completed',
  cancelled: 'Cancelled',
  no_show: 'No-show',
}
