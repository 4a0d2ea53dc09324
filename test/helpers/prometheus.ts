// A small, strict parser of the Prometheus text exposition format 0.0.4, so a test can check that
// /metrics is well formed, not only that it contains some words. It rejects: samples of a family
// without a preceding # TYPE, unknown types, bad metric or label names, bad escapes, duplicate
// labels or series, unparsable values, and histograms whose buckets are not cumulative or do not
// end in le="+Inf" equal to _count.

export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

export interface Family {
  name: string
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped'
  help?: string
  samples: Sample[]
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped'])

export function parsePrometheus(text: string): Map<string, Family> {
  const families = new Map<string, Family>()
  const seen = new Set<string>()
  const lines = text.split('\n')
  if (lines.at(-1) !== '') throw new Error('exposition must end with a newline')
  lines.forEach((line, i) => {
    const where = `line ${i + 1}: ${line}`
    if (line === '') return
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line)
      if (!m) return // other comments are allowed
      const [, kind, name, rest] = m
      if (!NAME.test(name)) throw new Error(`bad metric name: ${where}`)
      const fam = families.get(name) ?? { name, type: 'untyped' as const, samples: [] }
      if (kind === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`bad type: ${where}`)
        if (fam.samples.length) throw new Error(`TYPE after samples: ${where}`)
        fam.type = rest as Family['type']
      } else fam.help = rest
      families.set(name, fam)
      return
    }
    const { name, labels, rest } = parseSeries(line, where)
    const parts = rest.trim().split(/\s+/)
    if (parts.length < 1 || parts.length > 2 || parts[0] === '') throw new Error(`bad sample: ${where}`)
    const value = parseValue(parts[0], where)
    if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new Error(`bad timestamp: ${where}`)
    const fam = familyOf(families, name)
    if (!fam) throw new Error(`sample without # TYPE: ${where}`)
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`
    if (seen.has(key)) throw new Error(`duplicate series: ${where}`)
    seen.add(key)
    fam.samples.push({ name, labels, value })
  })
  for (const fam of families.values()) if (fam.type === 'histogram') checkHistogram(fam)
  return families
}

function familyOf(families: Map<string, Family>, name: string): Family | undefined {
  const exact = families.get(name)
  if (exact && exact.type !== 'histogram' && exact.type !== 'summary') return exact
  const m = /^(.*)_(bucket|sum|count)$/.exec(name)
  if (m) {
    const fam = families.get(m[1])
    if (fam?.type === 'histogram' || (fam?.type === 'summary' && m[2] !== 'bucket')) return fam
  }
  return exact?.type === 'summary' ? exact : undefined
}

function parseSeries(line: string, where: string) {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{|\s)/.exec(line)
  if (!m) throw new Error(`bad metric name: ${where}`)
  const name = m[1]
  const labels: Record<string, string> = {}
  let i = name.length
  if (line[i] === '{') {
    i++
    while (line[i] !== '}') {
      const lm = /^([^=\s]+)="/.exec(line.slice(i))
      if (!lm || !LABEL.test(lm[1])) throw new Error(`bad label name: ${where}`)
      if (lm[1] in labels) throw new Error(`duplicate label: ${where}`)
      i += lm[0].length
      let value = ''
      for (;;) {
        const c = line[i]
        if (c === undefined) throw new Error(`unterminated label value: ${where}`)
        i++
        if (c === '"') break
        if (c === '\\') {
          const e = line[i++]
          if (e === 'n') value += '\n'
          else if (e === '\\' || e === '"') value += e
          else throw new Error(`bad escape: ${where}`)
        } else value += c
      }
      labels[lm[1]] = value
      if (line[i] === ',') i++
      else if (line[i] !== '}') throw new Error(`bad label list: ${where}`)
    }
    i++
  }
  if (line[i] !== ' ') throw new Error(`missing value: ${where}`)
  return { name, labels, rest: line.slice(i) }
}

function parseValue(raw: string, where: string): number {
  if (raw === '+Inf') return Number.POSITIVE_INFINITY
  if (raw === '-Inf') return Number.NEGATIVE_INFINITY
  if (raw === 'NaN') return Number.NaN
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw)) throw new Error(`bad value: ${where}`)
  return Number(raw)
}

function checkHistogram(fam: Family) {
  const series = new Map<string, { buckets: Array<[number, number]>; count?: number; sum?: number }>()
  for (const s of fam.samples) {
    const { le, ...rest } = s.labels
    const key = JSON.stringify(Object.entries(rest).sort())
    const entry = series.get(key) ?? { buckets: [] }
    series.set(key, entry)
    if (s.name.endsWith('_bucket')) {
      if (le === undefined) throw new Error(`${fam.name}: bucket without le`)
      entry.buckets.push([parseValue(le, `le="${le}"`), s.value])
    } else if (s.name.endsWith('_count')) entry.count = s.value
    else if (s.name.endsWith('_sum')) entry.sum = s.value
  }
  for (const [key, e] of series) {
    const sorted = [...e.buckets].sort((a, b) => a[0] - b[0])
    sorted.forEach(([, v], i) => {
      if (i > 0 && v < sorted[i - 1][1]) throw new Error(`${fam.name}${key}: buckets not cumulative`)
    })
    const inf = sorted.at(-1)
    if (!inf || inf[0] !== Number.POSITIVE_INFINITY) throw new Error(`${fam.name}${key}: no le="+Inf" bucket`)
    if (e.count !== inf[1]) throw new Error(`${fam.name}${key}: _count differs from the +Inf bucket`)
    if (e.sum === undefined) throw new Error(`${fam.name}${key}: no _sum`)
  }
}

/** The value of the first sample named `name` whose labels include `labels`, or undefined. */
export function sampleValue(
  families: Map<string, Family>,
  family: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const fam = families.get(family)
  const s = fam?.samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v))
  return s?.value
}
