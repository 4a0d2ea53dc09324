import { createRequire } from 'node:module'

// The package is CommonJS (module.exports = Sanscript) while its types declare a default export
// that Node's ESM does not give: it is required, typed by the one function used here.
const Sanscript = createRequire(import.meta.url)('@indic-transliteration/sanscript') as {
  t(data: string, from: string, to: string): string
}

// Searching in either script (docs/catalogue.md, "Names in Nepali"). A Devanagari query is
// transliterated to Latin (IAST, by @indic-transliteration/sanscript) and both it and the venue's
// Latin name are reduced to a consonant skeleton, since romanised Nepali spells its vowels, its
// aspirates and व/ब freely: "बानेश्वर" (bāneśvara) and "Baneshwor" are both "bnsbr".

const DEVANAGARI = /[\u0900-\u097F]/

/** Whether the text has any Devanagari letter. */
export function hasDevanagari(text: string): boolean {
  return DEVANAGARI.test(text)
}

/** Devanagari → IAST ("बानेश्वर" → "bāneśvara"); anything else is kept. */
export function toLatin(text: string): string {
  return Sanscript.t(text, 'devanagari', 'iast')
}

/**
 * The consonant skeleton of Latin text: lower case without accents; v and w as b, f as p, z as j,
 * q as k; everything but a-z and 0-9 dropped, then the vowels and h; a repeated letter once. The
 * SQL function latin_skeleton (migrations/044) is the same for the venues' columns, except that it
 * drops accented letters (Latin names rarely have them) where this strips the accent; anusvara (ṃ)
 * and candrabindu are written n first, as romanised Nepali writes them ("kalaṃkī" → Kalanki).
 */
export function latinSkeleton(text: string): string {
  const plain = text
    .toLowerCase()
    .replace(/ṃ|ṁ|m̐/g, 'n')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
  let out = ''
  for (const c of plain) {
    const mapped = SWAPS[c] ?? c
    if (!/[a-z0-9]/.test(mapped) || /[aeiouh]/.test(mapped)) continue
    if (out.endsWith(mapped)) continue
    out += mapped
  }
  return out
}

const SWAPS: Record<string, string> = { v: 'b', w: 'b', f: 'p', z: 'j', q: 'k' }

/** The skeleton of a Devanagari query, for matching Latin names ("" when there is no Devanagari). */
export function devanagariSkeleton(query: string): string {
  return hasDevanagari(query) ? latinSkeleton(toLatin(query)) : ''
}
