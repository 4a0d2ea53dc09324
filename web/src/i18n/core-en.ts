// English strings of the booking core: finding a venue, its page, booking and paying (web/src/pages
// find, venue, book, payment-return). en.ts spreads them in; core-ne.ts has the same keys.
export const coreEn = {
  'find.title': 'Find a court',
  'find.search': 'Venue, city or area',
  'find.go': 'Search',
  'find.none': 'No venue matches.',
  'book.title': 'Your booking',
  'pay.title': 'Payment',
} as const
