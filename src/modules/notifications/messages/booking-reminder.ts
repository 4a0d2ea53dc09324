import type { Template } from './template.ts'

// BookingReminder: the day before play (a confirmed booking, or a pending one paid at the venue).
export const bookingReminder: Template = {
  en: ({ booking: b }, f) => ({
    subject: `Reminder: ${b.venue}, ${f.date(b.date)}, ${f.timeRange(b.start, b.end)}`,
    lines: [
      `Reminder: your booking ${b.bookingNumber} is coming up.`,
      ...f.bookingLines(b),
      `Paid: ${f.money(b.paid)}`,
      ...(b.total > b.paid ? [`Due at the venue: ${f.money(b.total - b.paid)}`] : []),
    ],
  }),
  ne: ({ booking: b }, f) => ({
    subject: `सम्झना: ${b.venue}, ${f.date(b.date)}, ${f.timeRange(b.start, b.end)}`,
    lines: [
      `सम्झना: तपाईंको बुकिङ ${b.bookingNumber} नजिकिँदै छ।`,
      ...f.bookingLines(b),
      `तिरिएको: ${f.money(b.paid)}`,
      ...(b.total > b.paid ? [`स्थलमा तिर्न बाँकी: ${f.money(b.total - b.paid)}`] : []),
    ],
  }),
}
