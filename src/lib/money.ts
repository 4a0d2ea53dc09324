// Money is integer paisa inside the service and a two-decimal string on the wire ("250.00").

/** 25000 -> "250.00" */
export function formatMoney(paisa: number | null | undefined): string {
  const p = Math.round(Number(paisa ?? 0))
  const sign = p < 0 ? '-' : ''
  const abs = Math.abs(p)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/**
 * "250", "250.5", 250.5 -> 25050. Never rounds: an amount with more than two decimals (`10.005`,
 * `"10.005"`) or that is not a plain decimal throws. A request's amounts are refused before they
 * get here, as a 422 on their field (`MoneyInput` in src/lib/schemas.ts, our `money` format).
 */
export function toPaisa(value: number | string): number {
  const text =
    typeof value === 'number'
      ? Number.isFinite(value) && Number(value.toFixed(2)) === value
        ? value.toFixed(2)
        : ''
      : value.trim()
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text)
  if (!m) throw new Error(`not a money amount with at most two decimals: ${value}`)
  const paisa = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'))
  return m[1] && paisa ? -paisa : paisa
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
