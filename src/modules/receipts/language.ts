import type { Locale } from '../../lib/i18n/locale.ts'

// Which language an invoice PDF is printed in. The one place the choice is made: `?lang=` (en or
// ne) first, so a desk can print a copy in either language; else `answers`, the language of the
// request's answers (lib/i18n/locale.ts requestLocale: the signed-in user's own locale, else
// Accept-Language, else English).

export type InvoiceLanguage = Locale

export function invoiceLanguage(query: string | undefined, answers: Locale): InvoiceLanguage {
  return query === 'ne' || query === 'en' ? query : answers
}
