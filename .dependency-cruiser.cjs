// Import boundaries of docs/architecture.md, "Layers", checked by `npm run check:layers`
// (scripts/check-layers.mjs runs dependency-cruiser with this file, then the module-cycle and
// query-building checks). Paths are relative to the repository root.

const modules = '^src/modules/'
/** Route files: routes.ts, routes/*.ts, *-routes.ts. */
const routesFile = '^src/modules/[^/]+/routes(\\.ts$|/)|^src/modules/.+-routes\\.ts$'
/** Files that may speak Fastify: route files and a module's hooks.ts. */
const httpFile = `${routesFile}|^src/modules/[^/]+/hooks\\.ts$`
/** Files that may build queries: repository.ts, repository/*.ts, queries.ts, queries/*.ts. */
const queryFile = '^src/modules/[^/]+/(repository|queries)(\\.ts$|/)'

/**
 * The one list of exceptions (docs/architecture.md, "Layers", names them). Each entry lets `from`
 * (a path regex) break `rule` (a rule name below, or "query-building" for scripts/check-queries.mjs),
 * and says why.
 */
const exceptions = [
  {
    rule: 'fastify-outside-http',
    from: '^src/modules/index\\.ts$',
    reason: "The composition root registers every module's route plugins on the Fastify app: it is HTTP wiring.",
  },
]

function exempt(rule) {
  return exceptions.filter((e) => e.rule === rule).map((e) => e.from)
}

function pathNot(rule, ...own) {
  const all = [...own, ...exempt(rule)]
  return all.length ? all.join('|') : undefined
}

function rule(name, comment, from, to) {
  const notHere = pathNot(name, ...(from.pathNot ? [from.pathNot] : []))
  return { name, severity: 'error', comment, from: { ...from, ...(notHere ? { pathNot: notHere } : {}) }, to }
}

module.exports = {
  exceptions,
  forbidden: [
    rule(
      'lib-imports-module',
      'src/lib is plumbing: it never imports a feature module.',
      { path: '^src/lib/' },
      {
        path: modules,
      },
    ),
    rule(
      'module-internals',
      "A module uses another only through that module's index.ts (src/modules/index.ts, the composition root, is exempt).",
      { path: '^src/modules/([^/]+)/' },
      { path: modules, pathNot: '^src/modules/$1/|^src/modules/[^/]+/index\\.ts$' },
    ),
    rule(
      'index-exports-routes',
      "A module's index.ts lists what other modules may use; routes are registered only by src/modules/index.ts.",
      { path: '^src/modules/[^/]+/index\\.ts$' },
      { path: routesFile },
    ),
    rule(
      'fastify-outside-http',
      'Only route files and hooks.ts import fastify or @fastify/* (type-only imports too); services know nothing of HTTP.',
      { path: modules, pathNot: httpFile },
      { path: '(^|/)node_modules/(fastify|@fastify/)' },
    ),
    rule(
      'kysely-outside-repository',
      'Only repositories and read models import kysely values (sql, builders); services may `import type` its types to hand a transaction on.',
      { path: modules, pathNot: queryFile },
      { path: '(^|/)node_modules/kysely/', dependencyTypesNot: ['type-only', 'type-import'] },
    ),
    rule('no-circular', 'No file imports itself through others.', { path: '^src/' }, { circular: true }),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/|node_modules/(fastify|@fastify/|kysely/)',
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
}
