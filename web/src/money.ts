// Money as the API writes it: decimal strings in rupees with two decimals. Sums are done in whole
// paisa (integers), never in floating-point rupees.

/** "1500.00" → 150000 paisa. */
export function toPaisa(amount: string | number): number {
  const text = typeof amount === 'number' ? amount.toFixed(2) : amount.trim()
  const negative = text.startsWith('-')
  const [whole, fraction = ''] = text.replace(/^[-+]/, '').split('.')
  const paisa = Number(whole) * 100 + Number((fraction + '00').slice(0, 2))
  return negative ? -paisa : paisa
}

/** 150000 paisa → "1500.00". */
export function fromPaisa(paisa: number): string {
  const sign = paisa < 0 ? '-' : ''
  const abs = Math.abs(paisa)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/**
 * What a slot costs: its hourly price × its minutes / 60, rounded to whole paisa half up, as the
 * service prices each slot of a booking (docs/catalogue.md, "Price of a slot").
 */
export function slotPrice(pricePerHour: string, slotMinutes: number): number {
  return Math.round((toPaisa(pricePerHour) * slotMinutes) / 60)
}
