// The chart of accounts (docs/payments.md, "Ledger"). An account is named by its code; its kind is
// the code's shape. Balances are shown on the account's normal side: what the platform holds or is
// owed (debit-normal) or what it owes (credit-normal), so a healthy account shows a balance ≥ 0.

export type AccountKind =
  | 'customer_wallet'
  | 'venue_balance'
  | 'venue_desk'
  | 'venue_desk_sales'
  | 'venue_cash_back_due'
  | 'venue_gateway_refund_due'
  | 'gateway_clearing'
  | 'gateway_promotion'
  | 'discount'
  | 'commission'
  | 'vat_payable'
  | 'opening_balance'
  | 'payouts'

export const account = {
  /** What the platform owes a customer: their wallet (credit-normal). */
  wallet: (userId: number) => `wallet:${userId}`,
  /** What the platform owes a venue for online money taken on its behalf (credit-normal). */
  venueBalance: (venueId: number) => `venue:${venueId}:balance`,
  /** Cash the venue holds in its drawer, and counter payments typed before desk QR payments (debit-normal). */
  venueDesk: (venueId: number) => `venue:${venueId}:desk`,
  /** The venue's own takings at the desk, net of refunds (credit-normal). */
  venueDeskSales: (venueId: number) => `venue:${venueId}:desk_sales`,
  /** Desk money refunded and not yet handed back at the desk (credit-normal). */
  cashBackDue: (venueId: number) => `venue:${venueId}:cash_back_due`,
  /** Gateway money taken at the desk, refunded, and not yet sent back through the gateway (credit-normal). */
  gatewayRefundDue: (venueId: number) => `venue:${venueId}:gateway_refund_due`,
  /** Money a gateway has taken for the platform and owes it until settlement (debit-normal). */
  gatewayClearing: (method: string) => `gateway:${method}:clearing`,
  /** The part of a gateway payment the customer did not pay (a gateway's promotion), kept back on refunds (credit-normal). */
  gatewayPromotion: (method: string) => `gateway:${method}:promotion`,
  /** Discounts by who funds them (debit-normal: a cost). */
  venueDiscounts: (venueId: number) => `discount:venue:${venueId}`,
  platformDiscounts: () => 'discount:platform',
  /** Commission the platform earns (credit-normal). */
  commission: () => 'commission:platform',
  /** VAT the platform charged on its commission, owed to IRD (credit-normal). */
  vatPayable: () => 'vat:payable',
  /** Money paid out to venues (bank or wallet transfers made outside the service; credit-normal). */
  payouts: () => 'platform:payouts',
  /** The counterpart of money that predates the ledger or came from outside it (credit-normal). */
  openingBalances: () => 'platform:opening_balances',
}

const KINDS: Array<[RegExp, AccountKind]> = [
  [/^wallet:\d+$/, 'customer_wallet'],
  [/^venue:\d+:balance$/, 'venue_balance'],
  [/^venue:\d+:desk$/, 'venue_desk'],
  [/^venue:\d+:desk_sales$/, 'venue_desk_sales'],
  [/^venue:\d+:cash_back_due$/, 'venue_cash_back_due'],
  [/^venue:\d+:gateway_refund_due$/, 'venue_gateway_refund_due'],
  [/^gateway:[a-z0-9_]+:clearing$/, 'gateway_clearing'],
  [/^gateway:[a-z0-9_]+:promotion$/, 'gateway_promotion'],
  [/^discount:/, 'discount'],
  [/^commission:/, 'commission'],
  [/^vat:payable$/, 'vat_payable'],
  [/^platform:opening_balances$/, 'opening_balance'],
  [/^platform:payouts$/, 'payouts'],
]

export function kindOf(code: string): AccountKind | 'unknown' {
  for (const [re, kind] of KINDS) if (re.test(code)) return kind
  return 'unknown'
}

const DEBIT_NORMAL = new Set<AccountKind | 'unknown'>(['venue_desk', 'gateway_clearing', 'discount'])

/** The balance on the account's normal side, from the signed sum of its lines (debits positive). */
export function normalBalance(code: string, signedSum: number): number {
  return DEBIT_NORMAL.has(kindOf(code)) ? signedSum : -signedSum
}

/** Kinds whose normal balance may never be below zero (the property test and `ledger check`). */
export const NEVER_NEGATIVE = new Set<AccountKind | 'unknown'>([
  'customer_wallet',
  'venue_desk',
  'venue_cash_back_due',
  'venue_gateway_refund_due',
  'gateway_clearing',
])
