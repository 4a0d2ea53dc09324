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
}
