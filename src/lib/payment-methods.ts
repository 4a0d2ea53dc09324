// Payment method codes as people know them (docs/reports.md, "Exports"): owners read eSewa, Khalti
// and Fonepay, never gateway_1/2/3; machines keep the code.

export const METHOD_NAMES: Readonly<Record<string, string>> = {
  gateway_1: 'eSewa',
  gateway_2: 'Khalti',
  gateway_3: 'Fonepay',
  wallet: 'Wallet',
  cash: 'Cash',
}

/** A payment method's name ("gateway_1" → "eSewa"); '' for none, the code itself when unknown. */
export function methodName(code: string | null | undefined): string {
  if (!code) return ''
  return METHOD_NAMES[code] ?? code
}

/**
 * Text with the gateway codes in it written with their names: ledger descriptions were written with
 * the code ("Payment ESW-1 through gateway_1"), and statements show them to owners.
 */
export function withMethodNames(text: string): string {
  return text.replace(/\bgateway_[123]\b/g, (code) => METHOD_NAMES[code] ?? code)
}
