import { createLanguage } from '../../../shared-ui/language.ts'
import { en } from './en.ts'
import type { DateOptions, Lang } from './format.ts'
import * as format from './format.ts'
import { ne } from './ne.ts'

// The customer app's languages (docs/web.md): every string the app shows is a key of the English
// catalogue (en.ts), and ne.ts has the same keys in Nepali (the compiler refuses a missing one).
// The choice is remembered in localStorage; the first visit follows the browser's language.
// Switching re-renders every component that called useLang() (the app's root does).

export type { DateOptions, Lang } from './format.ts'
export type MessageKey = keyof typeof en

export { HTML_LANG, LANGS } from '../../../shared-ui/language.ts'

export const language = createLanguage<MessageKey>('courtside.lang', { en, ne }, 'app.title')

/** The language strings are shown in now. */
export const getLang = language.get
/** Switches the language everywhere, remembers it, and updates `<html lang>`. */
export const setLang = language.set
/** Calls `fn` on every switch; returns the unsubscribe. */
export const onLangChange = language.onChange
/** The current language, re-rendering the calling component when it changes. */
export const useLang = language.use

/**
 * The message `key` in the current language, `{name}` placeholders filled from `params` (numbers
 * in Devanagari digits in Nepali). An unknown key shows itself (and the catalogue test fails).
 */
export function t(key: string, params?: Record<string, string | number>): string {
  return translate(getLang(), key, params)
}

/** `t` in a given language (tests, and the language switch that names each language in itself). */
export function translate(lang: Lang, key: string, params?: Record<string, string | number>): string {
  return language.translate(lang, key as MessageKey, params)
}

/** Whether the catalogue has `key` (the catalogue test checks every key the app uses). */
export function hasMessage(key: string): key is MessageKey {
  return Object.hasOwn(en, key)
}

/** "Rs 1,00,000.00" / "रु १,००,०००.००" from the API's decimal string. */
export function formatMoney(amount: string): string {
  return format.money(amount, getLang())
}

/** "26 Nov 2026 · 10 Mangsir 2083": the AD date with the Bikram Sambat date beside it. */
export function formatDate(isoDate: string, options?: DateOptions): string {
  return format.date(isoDate, getLang(), options)
}

/** The Bikram Sambat date alone ("10 Mangsir 2083"). */
export function formatBsDate(isoDate: string): string {
  return format.bsDate(isoDate, getLang())
}

/** An instant's clock time in Nepal: "18:30" / "१८:३०". */
export function formatTime(isoInstant: string): string {
  return format.time(isoInstant, getLang())
}

/** A weekday's short name, 0 = Sunday ("Thu" / "बिहि"). */
export function formatWeekday(day: number): string {
  return format.weekday(day, getLang())
}

/** A count with lakh grouping and the language's digits. */
export function formatNumber(n: number): string {
  return format.count(n, getLang())
}

/** Latin digits in `text` as the getLang() language writes them. */
export function formatDigits(text: string): string {
  return format.digits(text, getLang())
}
