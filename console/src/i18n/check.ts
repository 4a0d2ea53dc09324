// The catalogue check (test/console/i18n.test.ts, run in CI): what is wrong between the English
// catalogue and another language's. ne.ts's type already refuses a missing key at compile time;
// this also catches an empty text and a placeholder one side has and the other lacks.

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

/** Every problem of `other` against `en`, one line each; [] when there is none. */
export function catalogueProblems(en: Record<string, string>, other: Record<string, string>): string[] {
  const problems: string[] = []
  for (const key of Object.keys(en)) {
    const text = other[key]
    if (text === undefined) problems.push(`missing: ${key}`)
    else if (text.trim() === '') problems.push(`empty: ${key}`)
    else if (placeholders(text).join() !== placeholders(en[key]).join()) problems.push(`placeholders differ: ${key}`)
  }
  for (const key of Object.keys(other)) if (!Object.hasOwn(en, key)) problems.push(`not in English: ${key}`)
  return problems
}
