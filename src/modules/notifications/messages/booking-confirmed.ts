import type { Template } from './template.ts'

// BookingConfirmed and IndoorGameBookingConfirmed: the booking is paid (or free) and confirmed.
export const bookingConfirmed: Template = {
  en: ({ booking: b }, f) => ({
    subject: `Booking ${b.bookingNumber} confirmed: ${b.venue}`,
    lines: [
      `Your booking ${b.bookingNumber} is confirmed.`,
      ...f.bookingLines(b),
      `Paid: ${f.money(b.paid)}`,
      ...(b.total > b.paid ? [`Due at the venue: ${f.money(b.total - b.paid)}`] : []),
    ],
  }),
  ne: ({ booking: b }, f) => ({
    subject: `बुकिङ ${b.bookingNumber} पक्का भयो: ${b.venue}`,
    lines: [
      `तपाईंको बुकिङ ${b.bookingNumber} पक्का भयो।`,
      ...f.bookingLines(b),
      `तिरिएको: ${f.money(b.paid)}`,
      ...(b.total > b.paid ? [`स्थलमा तिर्न बाँकी: ${f.money(b.total - b.paid)}`] : []),
    ],
  }),
}
