import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { catalogueProblems } from '../../console/src/i18n/check.ts'
import { en } from '../../console/src/i18n/en.ts'
import { ne } from '../../console/src/i18n/ne.ts'
import { walk } from './browser.ts'

// The console's catalogues (docs/console.md, "Languages"): Nepali has every English key, with the
// same placeholders, and every key a page asks for is in the catalogue.

const root = new URL('../../console/src', import.meta.url).pathname

test('the Nepali catalogue has every English key, none empty, with the same placeholders', () => {
  assert.deepEqual(catalogueProblems(en, ne), [])
})

test('the check fails on a missing, an empty or a mistyped Nepali text', () => {
  const { 'cashUp.title': _gone, ...missing } = ne
  assert.deepEqual(catalogueProblems(en, missing), ['missing: cashUp.title'])
  assert.deepEqual(catalogueProblems(en, { ...ne, 'reports.range': ' ' }), ['empty: reports.range'])
  assert.deepEqual(catalogueProblems(en, { ...ne, 'cashUp.short': 'दराजमा {rakam} कम छ।' }), [
    'placeholders differ: cashUp.short',
  ])
})

test('every key the console asks for is in the catalogue', () => {
  const used = new Set<string>()
  for (const file of walk(root).filter((f) => /\.tsx?$/.test(f))) {
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z]+\.[a-zA-Z0-9_.]+)'/g)) used.add(m[1])
    // Keys picked by value: `method.${m}`, `kind.${k}`, `day.${w}`: each prefix must be in use.
    for (const m of text.matchAll(/\bt\(\s*`([a-zA-Z]+)\.\$\{/g)) used.add(`${m[1]}.*`)
  }
  assert.ok(used.size > 150, `keys found: ${used.size}`)
  for (const key of used) {
    if (key.endsWith('.*')) {
      const prefix = key.slice(0, -1)
      assert.ok(
        Object.keys(en).some((k) => k.startsWith(prefix)),
        `no key starts ${prefix}`,
      )
    } else assert.ok(Object.hasOwn(en, key), `not in the catalogue: ${key}`)
  }
})
