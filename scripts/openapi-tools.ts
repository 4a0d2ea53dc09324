import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript'
import ts from 'typescript'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { openDatabase } from '../src/lib/db.ts'

// The OpenAPI document and the typed client's types, built in-process (no server, no network):
// `npm run client` and `npm run lint:openapi` (scripts/openapi.ts) and the client tests use these.

/** Where the generated types live (docs/openapi.md). */
export const CLIENT_TYPES = 'src/client/schema.d.ts'
export const REGENERATE = 'npm run client'

/** The document /docs/json serves, from an app on an empty in-memory database with jobs off. */
export async function buildDocument(env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_URL: 'http://127.0.0.1:8000',
    LOG_LEVEL: 'silent',
    JOBS_ENABLED: 'false',
    CACHE_TTL_MS: '0',
    DATA_DIR: '.tmp/openapi',
    ...env,
  })
  const database = await openDatabase({})
  const app = await buildApp({ config, database, logger: false })
  try {
    await app.ready()
    return JSON.parse(JSON.stringify(app.swagger()))
  } finally {
    await app.close()
    await database.close()
  }
}

/** Examples change with the day (a tomorrow date); types do not depend on them. */
function withoutExamples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutExamples)
  if (typeof node !== 'object' || node === null) return node
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => k !== 'example' && k !== 'examples')
      .map(([k, v]) => [k, k === 'properties' ? propertiesWithoutExamples(v) : withoutExamples(v)]),
  )
}
// Inside `properties` the keys are field names: a field called `example` is kept.
const propertiesWithoutExamples = (props: unknown) =>
  Object.fromEntries(Object.entries(props as Record<string, unknown>).map(([k, v]) => [k, withoutExamples(v)]))

const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'))

/** openapi-typescript's output for the document: the content of src/client/schema.d.ts. */
export async function clientTypes(doc: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(withoutExamples(doc) as OpenAPI3, {
    alphabetize: false,
    // A file field of a multipart form (`format: binary`) is a Blob (or File) to send, not a string.
    transform: (schema) => (schema.format === 'binary' ? BLOB : undefined),
  })
  return `${COMMENT_HEADER}${astToString(ast)}`
}
