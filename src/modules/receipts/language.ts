// Which language an invoice PDF is printed in. The one place the choice is made: today `?lang=`
// (en or ne) and else the Accept-Language header (its highest-ranked language, `ne` or `ne-NP`
// meaning Nepali); a user's own locale can be added here as the next source.

export type InvoiceLanguage = 'en' | 'ne'

export function invoiceLanguage(query: string | undefined, acceptLanguage: string | undefined): InvoiceLanguage {
  if (query === 'ne' || query === 'en') return query
  if (!acceptLanguage) return 'en'
  let best: { tag: string; q: number } | undefined
  for (const part of acceptLanguage.toLowerCase().split(',')) {
    const [tag, ...params] = part.trim().split(';')
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const q = weight ? Number(weight.slice(2)) || 0 : 1
    if (tag && q > 0 && (!best || q > best.q)) best = { tag: tag.trim(), q }
  }
  return best && (best.tag === 'ne' || best.tag.startsWith('ne-')) ? 'ne' : 'en'
}
