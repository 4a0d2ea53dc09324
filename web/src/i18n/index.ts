import { useEffect, useState } from 'preact/hooks'
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

export const LANGS: readonly Lang[] = ['en', 'ne']
const CATALOGUES: Record<Lang, Record<MessageKey, string>> = { en, ne }
const STORAGE_KEY = 'courtside.lang'
/** What `<html lang>` says for each language. */
export const HTML_LANG: Record<Lang, string> = { en: 'en', ne: 'ne-NP' }

let current: Lang = initial()
const listeners = new Set<(lang: Lang) => void>()
applyToDocument()

function initial(): Lang {
  try {
    const saved = globalThis.localStorage?.getItem(STORAGE_KEY)
    if (saved === 'en' || saved === 'ne') return saved
  } catch {
    // Storage refused (private mode, sandboxed frame): fall through to the browser's language.
  }
  const preferred = globalThis.navigator?.languages ?? []
  return preferred.some((l) => l.toLowerCase().startsWith('ne')) ? 'ne' : 'en'
}

function applyToDocument() {
  if (typeof document === 'undefined') return
  document.documentElement.lang = HTML_LANG[current]
  document.title = t('app.title')
}

/** The language strings are shown in now. */
export function getLang(): Lang {
  return current
}

/** Switches the language everywhere, remembers it, and updates `<html lang>`. */
export function setLang(lang: Lang) {
  if (lang !== 'en' && lang !== 'ne') throw new RangeError(`Unknown language: ${lang}`)
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, lang)
  } catch {
    // Not remembered, still switched.
  }
  if (lang === current) return
  current = lang
  applyToDocument()
  for (const fn of listeners) fn(lang)
}

/** Calls `fn` on every switch; returns the unsubscribe. */
export function onLangChange(fn: (lang: Lang) => void): () => void {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

/** The current language, re-rendering the calling component when it changes. */
export function useLang(): Lang {
  const [lang, setState] = useState(current)
  useEffect(() => {
    setState(current)
    return onLangChange(setState)
  }, [])
  return lang
}

/**
 * The message `key` in the current language, `{name}` placeholders filled from `params` (numbers
 * in Devanagari digits in Nepali). An unknown key shows itself (and the catalogue test fails).
 */
export function t(key: string, params?: Record<string, string | number>): string {
  return translate(current, key, params)
}

/** `t` in a given language (tests, and the language switch that names each language in itself). */
export function translate(lang: Lang, key: string, params?: Record<string, string | number>): string {
  const text = CATALOGUES[lang][key as MessageKey] ?? en[key as MessageKey] ?? key
  if (!params) return text
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name]
    if (value === undefined) return whole
    return typeof value === 'number' ? format.count(value, lang) : value
  })
}

/** Whether the catalogue has `key` (the catalogue test checks every key the app uses). */
export function hasMessage(key: string): key is MessageKey {
  return Object.hasOwn(en, key)
}

/** "Rs 1,00,000.00" / "रु १,००,०००.००" from the API's decimal string. */
export function formatMoney(amount: string): string {
  return format.money(amount, current)
}

/** "26 Nov 2026 · 10 Mangsir 2083": the AD date with the Bikram Sambat date beside it. */
export function formatDate(isoDate: string, options?: DateOptions): string {
  return format.date(isoDate, current, options)
}

/** The Bikram Sambat date alone ("10 Mangsir 2083"). */
export function formatBsDate(isoDate: string): string {
  return format.bsDate(isoDate, current)
}

/** An instant's clock time in Nepal: "18:30" / "१८:३०". */
export function formatTime(isoInstant: string): string {
  return format.time(isoInstant, current)
}

/** A weekday's short name, 0 = Sunday ("Thu" / "बिहि"). */
export function formatWeekday(day: number): string {
  return format.weekday(day, current)
}

/** A count with lakh grouping and the language's digits. */
export function formatNumber(n: number): string {
  return format.count(n, current)
}

/** Latin digits in `text` as the current language writes them. */
export function formatDigits(text: string): string {
  return format.digits(text, current)
}
