import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify'

// Route plugins are typed by their TypeBox schemas: `req.body`, `req.params` and `req.query` have
// the types of the route's schema, so a handler needs no cast and hands its service exactly what
// the schema validated (`Static<typeof Schema>` on the service side).

/** A feature's route plugin: `const routes: Routes = async (app) => { … }`. */
export type Routes = FastifyPluginAsyncTypebox

/** The app a route plugin (or a helper that declares routes for it) receives. */
export type RouteApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>
