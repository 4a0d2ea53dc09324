// Calendar days as the API speaks them (YYYY-MM-DD, venue time: venues are in Nepal).

const ZONE = 'Asia/Kathmandu'

/** Today in Nepal, from the device's clock. */
export function today(now: Date = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    now,
  )
}

/** `iso` plus `days` calendar days. */
export function addDays(iso: string, days: number): string {
  const [y, m, d] = iso.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

/** Whether `text` is a calendar date the API accepts. */
export function isIsoDate(text: string | null): text is string {
  return !!text && /^\d{4}-\d{2}-\d{2}$/.test(text)
}

/** "HH:mm" from the API's "HH:mm" or "HH:mm:ss". */
export function hhmm(time: string): string {
  return time.slice(0, 5)
}

/** Minutes since midnight of "HH:mm". */
export function minutes(time: string): number {
  const [h, m] = time.split(':').map(Number)
  return h * 60 + m
}
