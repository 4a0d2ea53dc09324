import type { FastifyBaseLogger } from 'fastify'

// `req.log` made only when a request logs through it (Fastify's `childLoggerFactory`, app.ts).

type Bindings = Parameters<FastifyBaseLogger['child']>[0]
type ChildOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>
type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

/**
 * The per-request logger: the app logger bound to the request id, made the first time something
 * logs through it. Fastify makes a pino child for every request, which serialises its bindings at
 * once (a visible share of a cached request's CPU: docs/performance.md, "Why the hot paths look this
 * way"), and most requests never use it:
 * the request line is written by the app logger with the id (src/lib/ops.ts). A request that logs
 * (an error, a refused input) gets the child it always had, with the same bindings and options.
 * A class, so a request costs one small object (an object literal with accessors and closures cost
 * about as much as the child it saves).
 */
class LazyRequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private real(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options)
    return this.#child
  }

  get level(): string {
    return this.#child ? this.#child.level : (this.options.level ?? this.parent.level)
  }

  set level(level: string) {
    this.real().level = level
  }

  // pino's log methods are overloaded; each one is passed through with its arguments as given.
  private call(method: Method, args: unknown[]) {
    ;(this.real()[method] as (...a: unknown[]) => void)(...args)
  }

  fatal(...args: unknown[]) {
    this.call('fatal', args)
  }
  error(...args: unknown[]) {
    this.call('error', args)
  }
  warn(...args: unknown[]) {
    this.call('warn', args)
  }
  info(...args: unknown[]) {
    this.call('info', args)
  }
  debug(...args: unknown[]) {
    this.call('debug', args)
  }
  trace(...args: unknown[]) {
    this.call('trace', args)
  }
  silent(...args: unknown[]) {
    this.call('silent', args)
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real().child(bindings, options)
  }
}

/** Fastify's `childLoggerFactory` (app.ts). */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options)
}
