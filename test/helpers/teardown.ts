/**
 * Runs `fn` once this test process's files are done: the group module scripts/test.mjs writes
 * calls these after its last file (the shared Chromium, processes a failed test left running).
 */
export function atTeardown(fn: () => Promise<void> | void) {
  const key = Symbol.for('courtside.test.teardown')
  const registry = globalThis as unknown as Record<symbol, Array<() => Promise<void> | void>>
  registry[key] ??= []
  registry[key].push(fn)
}
