import { hasMessage, type Locale, t } from './i18n/index.ts'

// Payment method codes as people know them (docs/reports.md, "Exports"): owners read eSewa, Khalti
// and Fonepay, never gateway_1/2/3; machines keep the code.

export const METHOD_NAMES: Readonly<Record<string, string>> = {
  gateway_1: 'eSewa',
  gateway_2: 'Khalti',
  gateway_3: 'Fonepay',
  wallet: 'Wallet',
  cash: 'Cash',
}

/**
 * A payment method's name ("gateway_1" → "eSewa"); '' for none, the code itself when unknown. In
 * Nepali (a CSV whose header is Nepali) the catalogue's `method.*` name: नगद, वालेट; the gateways
 * keep their brand names.
 */
export function methodName(code: string | null | undefined, locale: Locale = 'en'): string {
  if (!code) return ''
  if (locale !== 'en') {
    const key = `method.${code}`
    if (hasMessage(key)) return t(locale, key)
  }
  return METHOD_NAMES[code] ?? code
}

/**
 * Text with the gateway codes in it written with their names: ledger descriptions were written with
 * the code ("Payment ESW-1 through gateway_1"), and statements show them to owners.
 */
export function withMethodNames(text: string): string {
  return text.replace(/\bgateway_[123]\b/g, (code) => METHOD_NAMES[code] ?? code)
}
