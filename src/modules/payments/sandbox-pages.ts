import { type Locale, moneyText, t } from '../../lib/i18n/index.ts'
import { paisaToRupees } from './gateways/http.ts'

// The text the in-service sandbox (sandbox-routes.ts) answers with: amounts written the way each
// gateway writes them, and its HTML pages.

export type Outcome = 'success' | 'failure' | 'lost'

/** eSewa's way of writing an amount in its success `data`: "1,200.0", "950.5". */
export function esewaAmountText(paisa: number): string {
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 2 }).format(paisa / 100)
}

/** A Java double's text, as Fonepay writes P_AMT ("20.0", "1350.5"). */
export const doubleText = (paisa: number) =>
  Number.isInteger(paisa / 100) ? (paisa / 100).toFixed(1) : String(paisa / 100)

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** A whole sandbox page, in the payer's language. */
export function htmlPage(title: string, body: string, locale: Locale = 'en'): string {
  return `<!doctype html><html lang="${locale === 'ne' ? 'ne-NP' : 'en'}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;max-width:28rem;margin:3rem auto"><h1>${escapeHtml(title)}</h1>${body}</body></html>`
}

/** The Pay / Cancel body: two forms back to this same URL (by the gateway's method) with `simulate` set. */
export function choiceHtml(
  amount: number,
  params: Record<string, string>,
  method: 'GET' | 'POST',
  locale: Locale = 'en',
): string {
  const form = (outcome: Outcome, label: string) => {
    const inputs = Object.entries({ ...params, simulate: outcome })
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(String(v))}">`)
      .join('')
    return `<form method="${method}" style="display:inline">${inputs}<button>${label}</button></form>`
  }
  return (
    `<p>${t(locale, 'sandbox.test')}</p><p>${t(locale, 'sandbox.amount')} <strong>${locale === 'en' ? `Rs ${paisaToRupees(amount)}` : moneyText(paisaToRupees(amount), locale)}</strong></p>` +
    `<p>${form('success', t(locale, 'sandbox.pay'))} &nbsp; ${form('failure', t(locale, 'sandbox.cancel'))}</p>` +
    `<p><small>${form('lost', t(locale, 'sandbox.lost'))}</small></p>`
  )
}
