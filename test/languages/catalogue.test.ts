import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { catalogueProblems } from '../../scripts/check-catalogue.ts'
import { validationErrors } from '../../src/lib/errors.ts'
import { en } from '../../src/lib/i18n/en.ts'
import { translate } from '../../src/lib/i18n/index.ts'
import { ne } from '../../src/lib/i18n/ne.ts'

// The server's message catalogue (src/lib/i18n; docs/languages.md) and its CI check
// (npm run check:catalogue, run by .ci/run): a key missing in ne fails the build.

const ROOT = join(import.meta.dirname, '..', '..')
const I18N = join(ROOT, 'src', 'lib', 'i18n')

/** Runs the check as CI does, on the catalogue in `dir`. */
function runCheck(dir?: string) {
  const args = ['tsx', 'scripts/check-catalogue.ts', ...(dir ? [dir] : [])]
  return spawnSync('npx', args, { cwd: ROOT, encoding: 'utf8' })
}

test('the check passes on the catalogue as it is', () => {
  assert.deepEqual(catalogueProblems(en, ne), [])
  const run = runCheck()
  assert.equal(run.status, 0, run.stderr)
  assert.match(run.stdout, /en and ne agree/)
})

test('the check fails the build on a key missing in ne, naming it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catalogue-'))
  try {
    cpSync(I18N, dir, { recursive: true })
    const text = readFileSync(join(dir, 'ne.ts'), 'utf8')
    const without = text.replace(/^\s*'validation\.between':.*\n/m, '')
    assert.notEqual(without, text, 'the key was taken out of the copy')
    writeFileSync(join(dir, 'ne.ts'), without)
    const run = runCheck(dir)
    assert.equal(run.status, 1, run.stdout)
    assert.match(run.stderr, /missing in ne: validation\.between/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('the check names an extra key, an empty text and different placeholders', () => {
  assert.deepEqual(catalogueProblems({ a: 'A {x}', b: 'B', c: 'C' }, { a: 'ए {y}', b: ' ', c: 'सी', d: 'डी' }), [
    'placeholders differ: a (en {x}, ne {y})',
    'empty in ne: b',
    'not in en: d',
  ])
})

test('English stays byte for byte; every validation message the service writes has its Nepali', () => {
  const samples = validationErrors([
    { keyword: 'required', instancePath: '', params: { missingProperty: 'start_time' } },
    { keyword: 'type', instancePath: '/amount', params: { type: 'number' } },
    { keyword: 'type', instancePath: '/count', params: { type: 'integer' } },
    { keyword: 'type', instancePath: '/flag', params: { type: 'boolean' } },
    { keyword: 'type', instancePath: '/list', params: { type: 'array' } },
    { keyword: 'type', instancePath: '/obj', params: { type: 'object' } },
    { keyword: 'type', instancePath: '/name', params: { type: 'string' } },
    { keyword: 'minLength', instancePath: '/password', params: { limit: 8 } },
    { keyword: 'maxLength', instancePath: '/title', params: { limit: 255 } },
    { keyword: 'minimum', instancePath: '/per_page', params: { limit: 1 } },
    { keyword: 'maximum', instancePath: '/per_page2', params: { limit: 100 } },
    { keyword: 'minItems', instancePath: '/players', params: { limit: 1 } },
    { keyword: 'maxItems', instancePath: '/players2', params: { limit: 20 } },
    { keyword: 'enum', instancePath: '/locale', params: {} },
    { keyword: 'multipleOf', instancePath: '/step', params: { multipleOf: 30 } },
    { keyword: 'format', instancePath: '/price', params: { format: 'money' } },
    { keyword: 'format', instancePath: '/email', params: { format: 'email' } },
    { keyword: 'format', instancePath: '/date', params: { format: 'date' } },
    { keyword: 'format', instancePath: '/uuid', params: { format: 'uuid' } },
    { keyword: 'format', instancePath: '/url', params: { format: 'uri' } },
    { keyword: 'format', instancePath: '/other', params: { format: 'ipv4' } },
    { keyword: 'pattern', instancePath: '/amount2', params: { pattern: 'x' } },
    { keyword: 'not', instancePath: '/odd', params: {} },
  ])
  for (const [field, [message]] of Object.entries(samples)) {
    assert.equal(translate('en', message), message)
    const nepali = translate('ne', message)
    assert.notEqual(nepali, message, `${field}: ${message}`)
    assert.doesNotMatch(nepali, /\b(The|field|must|is|be)\b/, `${field}: ${nepali}`)
  }
  // A text no key describes stays as it was written.
  assert.equal(translate('ne', 'Something new happened.'), 'Something new happened.')
  // Values keep their meaning: numbers in Devanagari, money with lakh grouping, dates with BS.
  assert.equal(translate('ne', 'Rs 1,50,000.00 was refunded earlier.'), 'रु १,५०,०००.०० पहिले नै फिर्ता गरिएको थियो।')
  assert.equal(translate('ne', 'Rs 150,000.00 was refunded earlier.'), 'रु १,५०,०००.०० पहिले नै फिर्ता गरिएको थियो।')
  assert.equal(
    translate('ne', 'The court is closed for maintenance (06:00–08:30): flooded.'),
    'मर्मतका लागि कोर्ट बन्द छ (बिहान ६:००–बिहान ८:३०): flooded।',
  )
})
