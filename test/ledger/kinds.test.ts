import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import type { App } from '../../src/app.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import {
  BOOKING_MONEY_KINDS,
  checkLedger,
  ENTRY_KINDS,
  entryKinds,
  NOT_REVENUE_KINDS,
  REFUND_KINDS,
  statementBucket,
} from '../../src/modules/ledger/index.ts'
import { insertEntry } from '../../src/modules/ledger/repository.ts'
import { build } from '../helpers/app.ts'
import { FIXED_NOW } from '../helpers/factories.ts'

// The ledger owns the classification of entry kinds (src/modules/ledger/kinds.ts): every kind the
// code posts is in it (`EntryKind` is its keys, so post() refuses another at compile time; this
// test reads the sources too), the sets the checks, reports and statement use come from it, and
// `ledger check` names an entry in the books whose kind it does not know.

const clock = new ManualClock(FIXED_NOW)
let app: App
before(async () => {
  app = await build(undefined, {}, { clock })
})
after(() => app.close())

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name)
    if (d.isDirectory()) return sources(path)
    return d.name.endsWith('.ts') ? [path] : []
  })
}

test('every entry kind posted in src/ is classified', () => {
  // An entry is written `kind: '…'` followed by its `occurredAt` (post(), creditWallet, debitWallet).
  const posted = new Set<string>()
  for (const file of sources('src')) {
    for (const m of readFileSync(file, 'utf8').matchAll(/kind: '([a-z_]+)',\s*occurredAt\b/g)) posted.add(m[1])
  }
  assert.ok(posted.size >= 10, [...posted].join())
  const unclassified = [...posted].filter((k) => !Object.hasOwn(ENTRY_KINDS, k))
  assert.deepEqual(unclassified, [])
})

test('the sets the ledger check, the reports and the statement use', () => {
  assert.deepEqual([...BOOKING_MONEY_KINDS].sort(), [
    'desk_payment',
    'desk_refund',
    'gateway_payment',
    'gateway_refund',
    'refund_to_source',
    'refund_to_wallet',
    'venue_credit',
    'wallet_payment',
  ])
  assert.deepEqual([...NOT_REVENUE_KINDS].sort(), ['commission', 'commission_refund', 'payout'])
  assert.deepEqual([...REFUND_KINDS].sort(), [
    'desk_refund',
    'gateway_refund',
    'refund_to_source',
    'refund_to_wallet',
    'venue_credit',
  ])
  const buckets = Object.fromEntries(entryKinds.map((k) => [k, statementBucket(k)]))
  assert.deepEqual(buckets, {
    topup: 'online_gross',
    wallet_payment: 'online_gross',
    gateway_payment: 'online_gross',
    desk_payment: 'online_gross',
    refund_to_wallet: 'refunds',
    refund_to_source: 'refunds',
    desk_refund: 'refunds',
    gateway_refund: 'refunds',
    venue_credit: 'refunds',
    cash_back: 'online_gross',
    gateway_refund_paid: 'online_gross',
    cash_back_moved: 'online_gross',
    opening_balance: 'online_gross',
    commission: 'commission',
    commission_refund: 'commission',
    platform_discount: 'online_gross',
    payout: 'payouts',
  })
})

test('ledger check names an entry whose kind is not classified', async () => {
  const before = await checkLedger(app.ctx.db)
  assert.deepEqual(before.problems, [])
  // Written inside a transaction that is rolled back, so the books stay clean for the file's end check.
  const rollback = new Error('rollback')
  const problems: string[] = []
  await assert.rejects(
    app.ctx.db.transaction().execute(async (trx) => {
      await insertEntry(
        trx,
        {
          kind: 'mystery_kind',
          occurredAt: clock.now(),
          description: 'An entry of a kind nobody classified',
          paymentId: null,
          bookingType: null,
          bookingId: null,
          venueId: null,
          userId: null,
          createdBy: null,
        },
        [
          ['platform:opening_balances', 100],
          ['commission:platform', -100],
        ],
      )
      const check = await checkLedger(trx)
      assert.equal(check.balanced, false)
      problems.push(...check.problems)
      throw rollback
    }),
    (e) => e === rollback,
  )
  assert.deepEqual(problems, ['entry kind mystery_kind (1 entries) is not classified (src/modules/ledger/kinds.ts)'])
  assert.deepEqual((await checkLedger(app.ctx.db)).problems, [])
})
