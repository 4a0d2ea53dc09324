import * as format from '../../../shared-ui/format.ts'
import { createLanguage } from '../../../shared-ui/language.ts'
import { en } from './en.ts'
import { ne } from './ne.ts'

// The console's languages (docs/console.md, "Languages"): every string a translated page shows is
// a key of the English catalogue (en.ts); ne.ts has the same keys in Nepali (its type refuses a
// missing one, and test/console/i18n.test.ts checks every key the pages use). The choice is kept in
// localStorage under the console's own key; the first visit follows the browser's language. The
// app's root calls useLang(), so a switch re-renders every page. Numbers, money and dates come from
// the front-ends' shared formatting (shared-ui/format.ts): lakh grouping in both languages,
// Devanagari digits and the BS date beside the AD one in Nepali.

export type { Lang } from '../../../shared-ui/format.ts'
export type MessageKey = keyof typeof en

export { LANGS } from '../../../shared-ui/language.ts'

export const language = createLanguage<MessageKey>('courtside.console.lang', { en, ne }, 'app.title')

/** The language the console shows now. */
export const getLang = language.get
/** Switches the language everywhere, remembers it, and updates `<html lang>`. */
export const setLang = language.set
/** The current language, re-rendering the calling component when it changes. */
export const useLang = language.use
/** `t` in a given language (tests, and the switch that names each language in itself). */
export const translate = language.translate

/**
 * The message `key` in the current language, `{name}` placeholders filled from `params` (numbers in
 * the language's digits, lakh grouped). An unknown key shows itself (and the catalogue test fails).
 */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  return translate(getLang(), key, params)
}

/** Whether the English catalogue has `key`. */
export function hasMessage(key: string): key is MessageKey {
  return Object.hasOwn(en, key)
}

/** Latin digits in `text` as the getLang() language writes them ("18:30" → "१८:३०"). */
export function digits(text: string): string {
  return format.digits(text, getLang())
}

/** A count with lakh grouping in the getLang() language's digits. */
export function count(n: number): string {
  return format.count(n, getLang())
}

/** "Wed 25 Nov 2026 · 10 Mangsir 2083": the AD date with its weekday and the BS date beside. */
export function bothDates(isoDate: string): string {
  return format.date(isoDate, getLang(), { weekday: true })
}

/** The BS date alone ("10 Mangsir 2083" / "१० मंसिर २०८३"); '' outside the table's years. */
export function bsDate(isoDate: string): string {
  return format.bsDate(isoDate, getLang())
}

/** A venue's (or sport's, amenity's) name in the language shown: name_ne in Nepali when it has one. */
export function localName(item: { name: string; name_ne?: string | null }): string {
  return (getLang() === 'ne' && item.name_ne) || item.name
}

/** A weekday's short name, 0 = Sunday. */
export function weekday(day: number): string {
  return format.weekday(day, getLang())
}
