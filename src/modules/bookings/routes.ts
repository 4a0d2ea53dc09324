import type { FastifyInstance } from 'fastify'

// Routes of this feature are added by its issue.
export default async function routes(_app: FastifyInstance) {}
