// npm run ledger -- check   prints the trial balance and every disagreement between the balances
//                           the API shows and the ledger; exits 1 when the books do not balance or
//                           anything disagrees (docs/payments.md, "Ledger")
// npm run ledger -- check --json   the same as JSON
import { join } from 'node:path'
import { exitOnStartError, loadConfig } from '../config.ts'
import { openDatabase } from '../lib/db.ts'
import { checkLedger } from '../modules/ledger/index.ts'

const [command = 'check', ...flags] = process.argv.slice(2)
if (command !== 'check') {
  console.error(`unknown command "${command}"; use: npm run ledger -- check [--json]`)
  process.exit(2)
}

async function main() {
  const config = loadConfig()
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite'),
  })
  try {
    const result = await checkLedger(database.db)
    if (flags.includes('--json')) console.log(JSON.stringify(result, null, 2))
    else {
      console.log(`entries   ${result.entries}`)
      console.log(`debits    ${result.debits}`)
      console.log(`credits   ${result.credits}`)
      for (const a of result.accounts) console.log(`${a.balance.padStart(16)}  ${a.kind.padEnd(20)} ${a.account}`)
      for (const p of result.problems) console.log(`PROBLEM   ${p}`)
      console.log(result.balanced ? 'balanced: yes' : 'balanced: NO')
    }
    process.exitCode = result.balanced ? 0 : 1
  } finally {
    await database.close()
  }
}

main().catch(exitOnStartError)
