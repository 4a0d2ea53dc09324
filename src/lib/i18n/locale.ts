import type { FastifyRequest } from 'fastify'
import type { Executor } from '../db.ts'

// Which language a text the server writes is in (docs/languages.md). Two questions, one function each:
// - a request's answer (an error, a refund quote, a sandbox page): the signed-in user's own language,
//   else the request's Accept-Language, else English;
// - a message to a person (a notification, push, SMS, mail): that person's stored language.

export type Locale = 'en' | 'ne'
export const LOCALES: readonly Locale[] = ['en', 'ne']
export const DEFAULT_LOCALE: Locale = 'en'

/** `value` when it names a language the server writes, else null. */
export function asLocale(value: unknown): Locale | null {
  return LOCALES.find((l) => l === value) ?? null
}

/**
 * The language an Accept-Language header asks for: the first of its ranges (by q, then order) that
 * is Nepali ("ne", "ne-NP") or English ("en", "en-US"); English when none is.
 */
export function acceptedLocale(header: string | string[] | undefined): Locale {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '')
  const ranges = text
    .split(',')
    .map((part, order) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';')
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined)
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), order }
    })
    .filter((r) => r.tag !== '' && r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order)
  for (const r of ranges) {
    const primary = r.tag.split('-')[0]
    const locale = asLocale(primary)
    if (locale) return locale
  }
  return DEFAULT_LOCALE
}

/** The language of a request's answer: the token user's own, else Accept-Language, else English. */
export function requestLocale(req: FastifyRequest): Locale {
  return req.user?.locale ?? acceptedLocale(req.headers['accept-language'])
}

/** The stored language of user `userId` (English for an unknown user). */
export async function recipientLocale(db: Executor, userId: number): Promise<Locale> {
  const row = await db.selectFrom('users').select('locale').where('id', '=', userId).executeTakeFirst()
  return asLocale(row?.locale) ?? DEFAULT_LOCALE
}
