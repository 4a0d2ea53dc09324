import type { Schemas } from '../../api.ts'
import { t } from '../../i18n/index.ts'

// Payment methods as the reports show them (shared by the page and the lazily loaded chart).

export type Summary = Schemas['ReportSummary']
export type RevenueDay = Summary['by_day'][number]
export type Method = keyof Summary['revenue']['by_method']

export const METHODS: Method[] = ['cash', 'wallet', 'gateway_1', 'gateway_2', 'gateway_3', 'other']

export const METHOD_LABELS: Record<Method, string> = {
  cash: 'Cash',
  wallet: 'Wallet',
  gateway_1: 'eSewa',
  gateway_2: 'Khalti',
  gateway_3: 'Fonepay',
  other: 'Other',
}

/** A method's name in the console's language (eSewa, Khalti and Fonepay are their own names in both). */
export function methodLabel(method: string): string {
  return (METHODS as string[]).includes(method) ? t(`method.${method as Method}`) : method
}

/** Distinct hues, each at least 3:1 against the white card (WCAG 1.4.11 for graphics). */
export const METHOD_COLOURS: Record<Method, string> = {
  cash: '#2e7d32',
  wallet: '#0b57d0',
  gateway_1: '#00796b',
  gateway_2: '#5c2d91',
  gateway_3: '#c62828',
  other: '#6b7480',
}
