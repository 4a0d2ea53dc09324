import { dataText, type Template } from './template.ts'

// SeriesPaymentDue: a later week of the player's weekly series is not paid a day before its deadline.
export const seriesPaymentDue: Template = {
  en: ({ booking: b, data }, f) => {
    const by = dataText(data, 'pay_by')
    return {
      subject: `Pay for booking ${b.bookingNumber} (weekly series)`,
      lines: [
        `Your booking ${b.bookingNumber} (a weekly series) is not paid yet.${by ? ` Pay by ${f.moment(by)} or it will be released.` : ''}`,
        ...f.bookingLines(b),
        `Due: ${f.money(Math.max(b.total - b.paid, 0))}`,
      ],
    }
  },
  ne: ({ booking: b, data }, f) => {
    const by = dataText(data, 'pay_by')
    return {
      subject: `बुकिङ ${b.bookingNumber} को भुक्तानी गर्नुहोस् (साप्ताहिक शृङ्खला)`,
      lines: [
        `तपाईंको बुकिङ ${b.bookingNumber} (साप्ताहिक शृङ्खला) को भुक्तानी बाँकी छ।${by ? ` ${f.moment(by)} भित्र तिर्नुहोस्, नत्र यो छोडिनेछ।` : ''}`,
        ...f.bookingLines(b),
        `तिर्न बाँकी: ${f.money(Math.max(b.total - b.paid, 0))}`,
      ],
    }
  },
}
