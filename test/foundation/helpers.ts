import { type ChildProcess, spawn } from 'node:child_process'
import { nodeArgs } from '../helpers/entry.ts'

// Running the real entry points (server, CLIs) as separate processes.

export interface Exit {
  code: number | null
  stdout: string
  stderr: string
  ms: number
}

/** The environment of a child: this one's, without any database settings, plus `env`. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env }
  for (const key of [
    'DATABASE_URL',
    'TEST_DATABASE_URL',
    'TEST_TEMPLATE_DB',
    'TEST_PGLITE_DUMP',
    'NODE_TEST_CONTEXT',
  ]) {
    delete base[key]
  }
  return { ...base, LOG_LEVEL: 'info', JOBS_ENABLED: 'false', HOST: '127.0.0.1', PORT: '0', ...env }
}

export function start(script: string, env: Record<string, string>): ChildProcess & { output: () => Exit } {
  const began = Date.now()
  const child = spawn(process.execPath, nodeArgs(script), {
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ChildProcess & { output: () => Exit }
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (d) => {
    stdout += d
  })
  child.stderr!.on('data', (d) => {
    stderr += d
  })
  child.output = () => ({ code: child.exitCode, stdout, stderr, ms: Date.now() - began })
  return child
}

/** Resolves when the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

/** Runs `script` to its end. */
export async function run(script: string, env: Record<string, string>): Promise<Exit> {
  const child = start(script, env)
  await exited(child)
  return child.output()
}

/** Resolves once the child has printed `pattern` on stdout (or rejects when it exits first). */
export function waitFor(child: ChildProcess & { output: () => Exit }, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (pattern.test(child.output().stdout)) {
        child.stdout!.off('data', check)
        resolve()
      }
    }
    child.stdout!.on('data', check)
    child.once('exit', () => reject(new Error(`exited before ${pattern}: ${child.output().stderr}`)))
    check()
  })
}
