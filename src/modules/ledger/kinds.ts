// The ledger's entry kinds and what each one is (docs/payments.md, "Ledger"). This map is the one
// place an entry kind is classified: the ledger's checks (a booking's own money), the reports
// (revenue and refunds) and the venue statement (its buckets) all read it. `EntryKind` is its keys,
// so an entry of a kind that is not classified here does not compile, and `ledger check` names any
// entry in the database whose kind is not here.

/**
 * What an entry is:
 * - `payment`: money received for a booking (it raises the booking's paid_amount);
 * - `refund`: a booking's money given back (it lowers paid_amount);
 * - `commission`: the platform's commission taken on a payment, or given back on a refund;
 * - `discount`: a discount the platform funds, credited to the venue;
 * - `payout`: money paid out to a venue;
 * - `topup`: money into a customer's wallet from outside (a gateway);
 * - `cash_back`: a refund that was due handed over: desk money over the counter, or gateway money
 *   taken at the desk sent back through its gateway;
 * - `opening`: money that predates the ledger.
 */
export type EntryClass = 'payment' | 'refund' | 'commission' | 'discount' | 'payout' | 'topup' | 'cash_back' | 'opening'

export const ENTRY_KINDS = {
  topup: 'topup',
  wallet_payment: 'payment',
  gateway_payment: 'payment',
  desk_payment: 'payment',
  refund_to_wallet: 'refund',
  refund_to_source: 'refund',
  desk_refund: 'refund',
  gateway_refund: 'refund',
  venue_credit: 'refund',
  cash_back: 'cash_back',
  gateway_refund_paid: 'cash_back',
  cash_back_moved: 'cash_back',
  opening_balance: 'opening',
  commission: 'commission',
  commission_refund: 'commission',
  platform_discount: 'discount',
  payout: 'payout',
} as const satisfies Record<string, EntryClass>

export type EntryKind = keyof typeof ENTRY_KINDS

export const entryKinds = Object.keys(ENTRY_KINDS) as EntryKind[]

export function classOf(kind: string): EntryClass | undefined {
  return Object.hasOwn(ENTRY_KINDS, kind) ? ENTRY_KINDS[kind as EntryKind] : undefined
}

/** The kinds of the given classes, in the map's order. */
export function kindsOf(...classes: EntryClass[]): EntryKind[] {
  return entryKinds.filter((k) => classes.includes(ENTRY_KINDS[k]))
}

/** The entries that move a booking's own money (its paid_amount): payments and refunds. */
export const BOOKING_MONEY_KINDS = kindsOf('payment', 'refund')

/** Entries on a venue's balance that are not revenue: the platform's commission and payouts. */
export const NOT_REVENUE_KINDS = kindsOf('commission', 'payout')

/** Entries that return money to customers. */
export const REFUND_KINDS = kindsOf('refund')

/** The venue statement's buckets (docs/payments.md, "What a venue sees"). */
export type StatementBucket = 'online_gross' | 'refunds' | 'commission' | 'payouts'

const BUCKET_OF_CLASS: Record<EntryClass, StatementBucket> = {
  payment: 'online_gross',
  discount: 'online_gross',
  topup: 'online_gross',
  cash_back: 'online_gross',
  opening: 'online_gross',
  refund: 'refunds',
  commission: 'commission',
  payout: 'payouts',
}

/** The statement bucket of a line on a venue's balance; a kind not in the map counts as gross. */
export function statementBucket(kind: string): StatementBucket {
  const c = classOf(kind)
  return c === undefined ? 'online_gross' : BUCKET_OF_CLASS[c]
}
