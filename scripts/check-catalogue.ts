// npm run check:catalogue: the server's message catalogue (src/lib/i18n, docs/languages.md) has every
// English key in Nepali, no key English lacks, the same placeholders in both and no empty text.
// Prints one line per problem and exits 1 when there is any (CI runs it: .ci/run).
// Usage: tsx scripts/check-catalogue.ts [dir]   (dir holds en.ts and ne.ts; tests pass a copy)
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

type Catalogue = Record<string, string>

const names = (text: string) => [...text.matchAll(/\{(\w+)(?::\w+)?\}/g)].map((m) => m[1]).sort()

/** The problems of a Nepali catalogue against the English one, one line each. */
export function catalogueProblems(en: Catalogue, ne: Catalogue): string[] {
  const problems: string[] = []
  for (const [key, text] of Object.entries(en)) {
    if (!Object.hasOwn(ne, key)) {
      problems.push(`missing in ne: ${key}`)
      continue
    }
    if (typeof ne[key] !== 'string' || ne[key].trim() === '') problems.push(`empty in ne: ${key}`)
    else if (names(text).join() !== names(ne[key]).join()) {
      problems.push(
        `placeholders differ: ${key} (en {${names(text).join('}, {')}}, ne {${names(ne[key]).join('}, {')}})`,
      )
    }
  }
  for (const key of Object.keys(ne)) if (!Object.hasOwn(en, key)) problems.push(`not in en: ${key}`)
  return problems
}

async function main() {
  const dir = resolve(process.argv[2] ?? resolve(import.meta.dirname, '..', 'src', 'lib', 'i18n'))
  const en = (await import(pathToFileURL(resolve(dir, 'en.ts')).href)).en as Catalogue
  const ne = (await import(pathToFileURL(resolve(dir, 'ne.ts')).href)).ne as Catalogue
  const problems = catalogueProblems(en, ne)
  for (const p of problems) console.error(`check:catalogue: ${p}`)
  if (problems.length > 0) process.exit(1)
  console.log(`check:catalogue: ${Object.keys(en).length} keys, en and ne agree`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
