import { translate } from '../../../lib/i18n/index.ts'
import { dataPaisa, dataText, type Template } from './template.ts'

// BookingCancelled: the booking was cancelled (by the player, the venue, a block, or an unpaid hold
// running out); what the cancel refunded, if anything, is its amount.
export const bookingCancelled: Template = {
  en: ({ booking: b, data }, f) => {
    const refund = dataPaisa(data, 'refund_amount')
    const reason = dataText(data, 'cancel_reason')
    return {
      subject: `Booking ${b.bookingNumber} cancelled: ${b.venue}`,
      lines: [
        `Your booking ${b.bookingNumber} was cancelled.${reason ? ` Reason: ${reason}.` : ''}`,
        ...f.bookingLines(b),
        refund > 0 ? `Refunded: ${f.money(refund)}` : `Refunded: ${f.money(0)} (booking total ${f.money(b.total)})`,
      ],
    }
  },
  ne: ({ booking: b, data }, f) => {
    const refund = dataPaisa(data, 'refund_amount')
    const reason = dataText(data, 'cancel_reason')
    return {
      subject: `बुकिङ ${b.bookingNumber} रद्द भयो: ${b.venue}`,
      lines: [
        `तपाईंको बुकिङ ${b.bookingNumber} रद्द गरियो।${reason ? ` कारण: ${translate('ne', reason)}।` : ''}`,
        ...f.bookingLines(b),
        refund > 0 ? `फिर्ता: ${f.money(refund)}` : `फिर्ता: ${f.money(0)} (बुकिङको जम्मा ${f.money(b.total)})`,
      ],
    }
  },
}
