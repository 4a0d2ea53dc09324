// English strings of paying a held booking (a hold, a waitlist offer, a series week), of a slot's
// facts and of the free-cancellation warning (web/src/components/slot-facts.tsx,
// web/src/pages/account/booking.tsx). en.ts spreads them in; pay-ne.ts has the same keys.
export const payEn = {
  'slot.venue': 'Venue',
  'slot.court': 'Court',
  'slot.game': 'Indoor game',
  'slot.date': 'Date',
  'slot.time': 'Time',
  'slot.price': 'Price',
  'slot.firstWeekPrice': 'Price of the first week',
  'slot.payBy': 'Pay by {time}, {date}',
  'slot.noRefundTitle': 'Not refundable if you cancel.',
  'slot.noRefund':
    'This booking starts in less than {hours} hours, inside the venue’s free-cancellation window: cancelling it will not refund what you pay.',

  'held.title': 'Booking {number}',
  'held.payNow': 'Pay now',
  'held.payNowAmount': 'Pay now {amount}',
  'held.paying': 'Starting the payment…',
  'held.due': 'Still to pay: {amount}',
  'held.paid': 'Paid: {amount}',
  'held.heldFor': 'This slot is held for you until the deadline; unpaid by then, it is released.',
  'held.howToPay': 'How to pay',
  'held.open': 'See the booking',

  'gate.choice': 'Your choice',
  'series.summary': 'The series',
  'series.summaryHint': 'Each week is priced on its own date; a week on a venue holiday may cost more.',
} as const
