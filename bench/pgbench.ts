// The database's own limit for booking creation: pgbench running the service's booking INSERT.
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'

/**
 * The booking INSERT's shapes (src/modules/bookings/repository.ts): a customer's own booking, its
 * unpaid cap counted inside it ('insert-held:'), and the plain one of a desk booking ('insert:').
 */
export type InsertShape = 'insert-held:' | 'insert:'

/**
 * The SQL of a booking INSERT of `shape` as the service sends it: the reused statement checked in
 * by test/foundation/sql-snapshot.test.ts (which fails when src/modules/bookings/repository.ts
 * builds anything else). Returns the statement and its column list (the order of $1…$n).
 */
export function serviceBookingInsert(shape: InsertShape): { sql: string; columns: string[] } {
  const text = readFileSync('test/foundation/__snapshots__/sql/reused-bookings.sql', 'utf8')
  const block = text.split('-- shape: ').find((b) => b.startsWith(shape))
  if (!block) throw new Error(`no ${shape} booking INSERT in test/foundation/__snapshots__/sql/reused-bookings.sql`)
  const newline = block.indexOf('\n')
  const columns = block.slice(shape.length, newline).split(',')
  return { sql: block.slice(newline + 1).trim(), columns }
}

/** A booking row the server created (its columns as JSON values), whose values pgbench repeats. */
export type SampleRow = Record<string, string | number | boolean | null>

/**
 * A pgbench script of the service's INSERT: each client books distinct hourly slots on its own
 * block of `perClient` courts from `firstCourt` (court after court, then the next hour), on the day
 * given as the variable `day`, so no two transactions of a run ask for one slot. The customer is a
 * random one of the bench's players. The other columns take the values the server wrote into
 * `sample` (the same type, status, amounts, hold), as parameters, like the service sends them;
 * the number prefix ("BK-2026-") and the court of the advisory lock are parameters too, and, in the
 * held shape, the cap's customer, limit (never reached) and now, and the hold (written last, chosen by
 * the customer's phone).
 *
 * The courts must be numbered venue after venue (court = (venue - 1) * courtsPerVenue + k).
 * start_time/end_time are `make_time(:h, 0, 0)`: pgbench variables are numbers, not strings.
 */
export function bookingScript(
  sample: SampleRow,
  o: {
    firstCourt: number
    perClient: number
    courtsPerVenue: number
    players: [number, number]
    /** The cap's now, as an instant and as the venue's wall clock ("YYYY-MM-DD HH:mm:ss"). */
    now: Date
    wall: string
  },
  shape: InsertShape,
): { script: string; defines: string[] } {
  const { sql, columns } = serviceBookingInsert(shape)
  const defines: string[] = []
  const byColumn: Record<string, string> = {
    user_id: ':uid',
    created_by: ':uid',
    court_id: ':court',
    venue_id: ':venue',
    date: ':day',
    start_time: 'make_time(:h, 0, 0)',
    end_time: 'make_time(:h1, 0, 0)',
  }
  const value = (column: string) => {
    if (byColumn[column]) return byColumn[column]
    const v = sample[column]
    if (v === null || v === undefined) return 'NULL'
    defines.push(`c_${column}=${v}`)
    return `:c_${column}`
  }
  const prefix = String(sample.booking_number).replace(/\d+$/, '')
  defines.push(`prefix=${prefix}`)
  // After the columns: the number's prefix, the court of its lock, then the cap's customer, limit
  // (never reached: pgbench measures the work, not the refusal), now and now on the wall clock,
  // then the hold chosen by the customer's phone (its customer, the hold verified and not: the
  // sample's hold for both).
  const after = [':prefix', ':court']
  if (shape === 'insert-held:') {
    defines.push('c_max=1000000000', `c_now=${o.now.toISOString()}`, `c_wall=${o.wall}`)
    const hold = value('hold_expires_at')
    after.push(':uid', ':c_max', ':c_now', ':c_wall', ':uid', hold, hold)
  }
  let statement = sql.replace(/\$(\d+)/g, (_, k: string) => {
    const i = Number(k) - 1
    if (i < columns.length) return value(columns[i])
    if (i - columns.length < after.length) return after[i - columns.length]
    throw new Error(`booking INSERT: unexpected parameter $${k}`)
  })
  statement = statement.trim().replace(/;?$/, ';')
  const script = `-- bench/run.ts: the service's booking INSERT, ${shape} (test/foundation/__snapshots__/sql/reused-bookings.sql)
\\set n :n + 1
\\set court ${o.firstCourt} + :client_id * ${o.perClient} + (:n - 1) % ${o.perClient}
\\set venue (:court - 1) / ${o.courtsPerVenue} + 1
\\set h 6 + (:n - 1) / ${o.perClient}
\\set h1 :h + 1
\\set uid random(${o.players[0]}, ${o.players[1]})
${statement}
`
  return { script, defines: ['n=0', ...defines] }
}

export interface PgbenchResult {
  tps: number
  latencyMs: number
  transactions: number
  failed: number
}

/** pgbench -M prepared (the server's pool sends named prepared statements too) for `seconds`. */
export function runPgbench(
  url: string,
  scriptPath: string,
  script: { script: string; defines: string[] },
  clients: number,
  seconds: number,
  day: string,
): Promise<PgbenchResult> {
  writeFileSync(scriptPath, script.script)
  const argv = [
    '-n',
    '-M',
    'prepared',
    `-c${clients}`,
    `-j${Math.min(clients, 2)}`,
    `-T${seconds}`,
    '-f',
    scriptPath,
    ...[...script.defines, `day=${day}`].flatMap((d) => ['-D', d]),
    url,
  ]
  return new Promise((resolve, reject) => {
    const child = spawn(process.env.PGBENCH ?? 'pgbench', argv, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
    })
    child.stderr.on('data', (d) => {
      out += d
    })
    child.on('error', reject)
    child.on('exit', (code) => {
      const tps = /tps = ([\d.]+)/.exec(out)
      const latency = /latency average = ([\d.]+) ms/.exec(out)
      const done = /number of transactions actually processed: (\d+)/.exec(out)
      const failed = /number of failed transactions: (\d+)/.exec(out)
      if (code !== 0 || !tps) return reject(new Error(`pgbench ${argv.join(' ')} failed (${code}):\n${out}`))
      resolve({
        tps: Number(tps[1]),
        latencyMs: latency ? Number(latency[1]) : 0,
        transactions: done ? Number(done[1]) : 0,
        failed: failed ? Number(failed[1]) : 0,
      })
    })
  })
}
