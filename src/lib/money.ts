// Money is integer paisa inside the service and a two-decimal string on the wire ("250.00").

/** 25000 -> "250.00" */
export function formatMoney(paisa: number | null | undefined): string {
  const p = Math.round(Number(paisa ?? 0))
  const sign = p < 0 ? '-' : ''
  const abs = Math.abs(p)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** "250", "250.5", 250.5 -> 25050. Rounds to the nearest paisa; throws on non-numeric input. */
export function toPaisa(value: number | string): number {
  const s = typeof value === 'number' ? value.toFixed(4) : value.trim()
  if (!/^-?\d+(\.\d+)?$/.test(s)) throw new Error(`not a money amount: ${value}`)
  const neg = s.startsWith('-')
  const [whole, frac = ''] = s.replace('-', '').split('.')
  const cents = Number(whole) * 100 + Number((frac + '000').slice(0, 2))
  const rounded = Number((frac + '000')[2]) >= 5 ? cents + 1 : cents
  return neg ? -rounded : rounded
}

/** Decimal number form (for the few fields the contract marks "decimal number"). */
export function moneyNumber(paisa: number | null | undefined): number {
  return Math.round(Number(paisa ?? 0)) / 100
}

/** 120000 -> "Rs 1,200.00": money in words shown to people (notifications, messages). */
export function formatRupees(paisa: number | null | undefined): string {
  const [whole, frac] = formatMoney(paisa).split('.')
  const sign = whole.startsWith('-') ? '-' : ''
  const digits = whole.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `Rs ${sign}${digits}.${frac}`
}
