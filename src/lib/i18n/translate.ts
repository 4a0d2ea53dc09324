import { en, type MessageKey } from './en.ts'
import { clock12, digits, longDate, moment, moneyText } from './format.ts'
import type { Locale } from './locale.ts'
import { ne } from './ne.ts'

// Texts in a language (docs/languages.md). Two ways in, one catalogue:
// - t(locale, key, params) writes a catalogue text (the OTP, the sandbox pages);
// - translate(locale, english) takes a text the server wrote in English (an error message, a refund
//   quote, a notification) and writes it in `locale`: the English catalogue text it is an instance
//   of is found, its values read back out and written into that key's text in `locale`. English in
//   is English out, unchanged, so the contract's words stay exactly as they are; a text no key
//   describes stays English too (and the tests of each feature say which texts must not).

export const CATALOGUES: Record<Locale, Record<MessageKey, string>> = { en, ne }

type Kind = 'plain' | 'n' | 'money' | 'date' | 'time' | 'moment' | 'dur' | 'text' | 'field' | 'word'
export type Params = Record<string, string | number>

/** What each kind of value looks like in an English text. */
const SHAPES: Record<Kind, string> = {
  plain: '.+?',
  n: '-?\\d+(?:\\.\\d+)?',
  money: 'Rs -?[\\d,]+\\.\\d{2}',
  date: '\\d{4}-\\d{2}-\\d{2}',
  time: '\\d{1,2}:\\d{2}(?::\\d{2})?',
  moment: '\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}(?::\\d{2})?',
  dur: '\\d+(?:\\.\\d+)? (?:days?|hours?|minutes?|no-shows?)',
  text: '.*',
  field: '.+?',
  word: '.+?',
}

const PLACEHOLDER = /\{(\w+)(?::(\w+))?\}/g

/** The placeholders of a catalogue text, in order, with their kinds. */
export function placeholders(text: string): Array<{ name: string; kind: Kind }> {
  return [...text.matchAll(PLACEHOLDER)].map((m) => ({ name: m[1], kind: (m[2] ?? 'plain') as Kind }))
}

// Keys whose texts are parts of other texts' values, never whole texts of their own.
const PARTS = /^(unit|word|field|push|csv|method)\./

interface Pattern {
  key: MessageKey
  regex: RegExp
  slots: Array<{ name: string; kind: Kind }>
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function compile(key: MessageKey): Pattern {
  const text = en[key]
  const slots = placeholders(text)
  let source = ''
  let last = 0
  for (const m of text.matchAll(PLACEHOLDER)) {
    source += `${escapeRegex(text.slice(last, m.index))}(${SHAPES[(m[2] ?? 'plain') as Kind]})`
    last = (m.index ?? 0) + m[0].length
  }
  source += escapeRegex(text.slice(last))
  return { key, regex: new RegExp(`^${source}$`, 's'), slots }
}

let patterns: Pattern[] | undefined
function allPatterns(): Pattern[] {
  patterns ??= (Object.keys(en) as MessageKey[]).filter((k) => !PARTS.test(k)).map(compile)
  return patterns
}

const kindsOf = new Map<MessageKey, Map<string, Kind>>()
function kinds(key: MessageKey): Map<string, Kind> {
  let map = kindsOf.get(key)
  if (!map) {
    map = new Map(placeholders(en[key]).map((p) => [p.name, p.kind]))
    kindsOf.set(key, map)
  }
  return map
}

/** One value as `locale` writes a value of its kind. */
function writeValue(locale: Locale, kind: Kind, value: string): string {
  if (locale === 'en') return value
  switch (kind) {
    case 'n':
      return digits(value, locale)
    case 'money':
      return moneyText(value.replace(/^Rs /, ''), locale)
    case 'date':
      return longDate(value, locale)
    case 'time':
      return clock12(value, locale)
    case 'moment':
      return moment(value, locale)
    case 'dur': {
      const [amount, unit] = value.split(' ')
      const key = `unit.${unit.replace(/s$/, '')}` as MessageKey
      return `${digits(amount, locale)} ${CATALOGUES[locale][key] ?? unit}`
    }
    case 'text': {
      const lead = /^\s*/.exec(value)?.[0] ?? ''
      return value.trim() === '' ? value : lead + translate(locale, value.trim())
    }
    case 'field':
    case 'word':
      return CATALOGUES[locale][`${kind}.${value}` as MessageKey] ?? value
    default:
      return value
  }
}

/** The catalogue text `key` in `locale` with `params` filled in (numbers and dates as `locale` writes them). */
export function t(locale: Locale, key: MessageKey, params: Params = {}): string {
  const known = kinds(key)
  return CATALOGUES[locale][key].replace(/\{(\w+)(?::\w+)?\}/g, (whole, name: string) => {
    const value = params[name]
    if (value === undefined) return whole
    return writeValue(locale, known.get(name) ?? 'plain', String(value))
  })
}

/** Whole-text translation: the first key whose English text `text` is an instance of. */
function byKey(locale: Locale, text: string): string | null {
  for (const p of allPatterns()) {
    const m = p.regex.exec(text)
    if (!m) continue
    const params: Params = {}
    p.slots.forEach((s, i) => {
      params[s.name] = m[i + 1]
    })
    return t(locale, p.key, params)
  }
  return null
}

/**
 * An English text the server wrote, in `locale`: as a whole when a catalogue text describes it,
 * else sentence by sentence (a refund quote is several); a sentence nothing describes stays as it is.
 */
export function translate(locale: Locale, text: string): string {
  if (locale === 'en' || text === '') return text
  const whole = byKey(locale, text)
  if (whole !== null) return whole
  const sentences = text.split(/(?<=[.!?]) (?=[A-Z])/)
  if (sentences.length === 1) return text
  return sentences.map((s) => byKey(locale, s) ?? s).join(' ')
}

/** Whether the catalogue has `key`. */
export function hasMessage(key: string): key is MessageKey {
  return Object.hasOwn(en, key)
}
