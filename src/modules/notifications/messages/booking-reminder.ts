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
}
