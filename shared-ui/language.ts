import { useEffect, useState } from 'preact/hooks'
import type { Lang } from './format.ts'
import * as format from './format.ts'

// The front-ends' language and message catalogue, one store per app (the web app and the staff
// console each remember their choice under their own localStorage key). The first visit follows the
// browser's language; a switch updates `<html lang>` and the title, and re-renders every component
// that called `use()` (each app's root does).

export const LANGS: readonly Lang[] = ['en', 'ne']
/** What `<html lang>` says for each language (and the Accept-Language the apps send). */
export const HTML_LANG: Record<Lang, string> = { en: 'en', ne: 'ne-NP' }

export interface Language<K extends string> {
  /** The language shown now. */
  get(): Lang
  /** Switches the language everywhere, remembers it, and updates `<html lang>` and the title. */
  set(lang: Lang): void
  /** Calls `fn` on every switch; returns the unsubscribe. */
  onChange(fn: (lang: Lang) => void): () => void
  /** The current language, re-rendering the calling component when it changes. */
  use(): Lang
  /**
   * The message `key` in `lang`, `{name}` placeholders filled from `params` (numbers lakh grouped in
   * the language's digits). An unknown key shows itself (and the apps' catalogue tests fail).
   */
  translate(lang: Lang, key: K, params?: Record<string, string | number>): string
}

/** A language store over the catalogues (English first: a key Nepali lacks falls back to it). */
export function createLanguage<K extends string>(
  storageKey: string,
  catalogues: Record<Lang, Record<K, string>>,
  titleKey: K,
): Language<K> {
  let current: Lang = initial()
  const listeners = new Set<(lang: Lang) => void>()

  function initial(): Lang {
    try {
      const saved = globalThis.localStorage?.getItem(storageKey)
      if (saved === 'en' || saved === 'ne') return saved
    } catch {
      // Storage refused (private mode, sandboxed frame): fall through to the browser's language.
    }
    const preferred = globalThis.navigator?.languages ?? []
    return preferred.some((l) => l.toLowerCase().startsWith('ne')) ? 'ne' : 'en'
  }

  function translate(lang: Lang, key: K, params?: Record<string, string | number>): string {
    const text = catalogues[lang][key] ?? catalogues.en[key] ?? key
    if (!params) return text
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = params[name]
      if (value === undefined) return whole
      return typeof value === 'number' ? format.count(value, lang) : value
    })
  }

  function applyToDocument() {
    if (typeof document === 'undefined') return
    document.documentElement.lang = HTML_LANG[current]
    document.title = translate(current, titleKey)
  }

  function onChange(fn: (lang: Lang) => void): () => void {
    listeners.add(fn)
    return () => listeners.delete(fn)
  }

  applyToDocument()
  return {
    get: () => current,
    set(lang) {
      if (lang !== 'en' && lang !== 'ne') throw new RangeError(`Unknown language: ${lang}`)
      try {
        globalThis.localStorage?.setItem(storageKey, lang)
      } catch {
        // Not remembered, still switched.
      }
      if (lang === current) return
      current = lang
      applyToDocument()
      for (const fn of listeners) fn(lang)
    },
    onChange,
    use() {
      const [lang, setState] = useState(current)
      useEffect(() => {
        setState(current)
        return onChange(setState)
      }, [])
      return lang
    },
    translate,
  }
}
