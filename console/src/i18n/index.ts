import { useEffect, useState } from 'preact/hooks'
import type { Lang } from '../../../shared-ui/format.ts'
import * as format from '../../../shared-ui/format.ts'
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

export const LANGS: readonly Lang[] = ['en', 'ne']
const CATALOGUES: Record<Lang, Record<MessageKey, string>> = { en, ne }
const STORAGE_KEY = 'courtside.console.lang'
const HTML_LANG: Record<Lang, string> = { en: 'en', ne: 'ne-NP' }

let current: Lang = initial()
const listeners = new Set<(lang: Lang) => void>()
applyToDocument()

function initial(): Lang {
  try {
    const saved = globalThis.localStorage?.getItem(STORAGE_KEY)
    if (saved === 'en' || saved === 'ne') return saved
  } catch {
    // Storage refused: fall through to the browser's language.
  }
  const preferred = globalThis.navigator?.languages ?? []
  return preferred.some((l) => l.toLowerCase().startsWith('ne')) ? 'ne' : 'en'
}

function applyToDocument() {
  if (typeof document === 'undefined') return
  document.documentElement.lang = HTML_LANG[current]
  document.title = t('app.title')
}

/** The language the console shows now. */
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

/** The current language, re-rendering the calling component when it changes. */
export function useLang(): Lang {
  const [lang, setState] = useState(current)
  useEffect(() => {
    setState(current)
    listeners.add(setState)
    return () => {
      listeners.delete(setState)
    }
  }, [])
  return lang
}

/**
 * The message `key` in the current language, `{name}` placeholders filled from `params` (numbers in
 * the language's digits, lakh grouped). An unknown key shows itself (and the catalogue test fails).
 */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  return translate(current, key, params)
}

/** `t` in a given language (tests, and the switch that names each language in itself). */
export function translate(lang: Lang, key: MessageKey, params?: Record<string, string | number>): string {
  const text = CATALOGUES[lang][key] ?? en[key] ?? key
  if (!params) return text
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name]
    if (value === undefined) return whole
    return typeof value === 'number' ? format.count(value, lang) : value
  })
}

/** Whether the English catalogue has `key`. */
export function hasMessage(key: string): key is MessageKey {
  return Object.hasOwn(en, key)
}

/** Latin digits in `text` as the current language writes them ("18:30" → "१८:३०"). */
export function digits(text: string): string {
  return format.digits(text, current)
}

/** A count with lakh grouping in the current language's digits. */
export function count(n: number): string {
  return format.count(n, current)
}

/** "Wed 25 Nov 2026 · 10 Mangsir 2083": the AD date with its weekday and the BS date beside. */
export function bothDates(isoDate: string): string {
  return format.date(isoDate, current, { weekday: true })
}

/** The BS date alone ("10 Mangsir 2083" / "१० मंसिर २०८३"); '' outside the table's years. */
export function bsDate(isoDate: string): string {
  return format.bsDate(isoDate, current)
}

/** A venue's (or sport's, amenity's) name in the language shown: name_ne in Nepali when it has one. */
export function localName(item: { name: string; name_ne?: string | null }): string {
  return (current === 'ne' && item.name_ne) || item.name
}

/** A weekday's short name, 0 = Sunday. */
export function weekday(day: number): string {
  return format.weekday(day, current)
}
