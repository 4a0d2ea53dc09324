import type { FastifyRequest } from 'fastify'

export const MAX_PER_PAGE = 100

export interface PageParams {
  page: number
  perPage: number
  offset: number
}

export function pageParams(query: { page?: number; per_page?: number }, defaultPerPage = 15): PageParams {
  const perPage = Math.min(Math.max(query.per_page ?? defaultPerPage, 1), MAX_PER_PAGE)
  const page = Math.max(query.page ?? 1, 1)
  return { page, perPage, offset: (page - 1) * perPage }
}

/** The path of a request URL (what precedes the query string). */
export function pathOf(url: string): string {
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}

/** The Laravel paginator envelope: data, links (absolute URLs) and meta. */
export function paginated<T>(req: FastifyRequest, appUrl: string, items: T[], total: number, params: PageParams) {
  const lastPage = Math.max(Math.ceil(total / params.perPage), 1)
  const path = `${appUrl}${pathOf(req.url)}`
  const query = new URLSearchParams()
  if (typeof req.query === 'object' && req.query !== null) {
    for (const [name, value] of Object.entries(req.query)) query.set(name, String(value))
  }
  const urlFor = (page: number) => {
    query.set('page', String(page))
    return `${path}?${query.toString()}`
  }
  const from = items.length ? params.offset + 1 : null
  return {
    data: items,
    links: {
      first: urlFor(1),
      last: urlFor(lastPage),
      prev: params.page > 1 ? urlFor(params.page - 1) : null,
      next: params.page < lastPage ? urlFor(params.page + 1) : null,
    },
    meta: {
      current_page: params.page,
      from,
      last_page: lastPage,
      path,
      per_page: params.perPage,
      to: from === null ? null : params.offset + items.length,
      total,
    },
  }
}
