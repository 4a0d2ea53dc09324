import createClient, { type Client, type ClientOptions } from 'openapi-fetch'
import type { paths } from './schema.d.ts'

// A typed Courtside client: openapi-fetch over the types openapi-typescript generates from the
// OpenAPI document (schema.d.ts; regenerate with `npm run client`, see docs/openapi.md).
//
//   const api = createCourtsideClient('https://courtside.example.org', token)
//   const { data, error } = await api.POST('/api/bookings', { body: { court_id: 1, date, start_time, end_time } })

export type { components, operations, paths } from './schema.d.ts'
export type CourtsideClient = Client<paths>

/** A client for the API at `baseUrl` (no trailing /api); with `token`, every request is signed in. */
export function createCourtsideClient(
  baseUrl: string,
  token?: string,
  options: Omit<ClientOptions, 'baseUrl'> = {},
): CourtsideClient {
  const headers = new Headers(options.headers as HeadersInit | undefined)
  headers.set('accept', 'application/json')
  if (token) headers.set('authorization', `Bearer ${token}`)
  return createClient<paths>({ ...options, baseUrl: baseUrl.replace(/\/+$/, ''), headers })
}
