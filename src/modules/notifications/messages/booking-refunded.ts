import { dataPaisa, dataText, type Template } from './template.ts'

// BookingRefunded (the venue refunded a payment) and a late payment's BookingCancelled (money that
// arrived for a booking no longer there, credited to the wallet): money went back to the player.
const WHERE_EN: Record<string, string> = {
  wallet: 'to your Courtside wallet',
  desk: 'at the venue’s desk: collect it there',
  source: 'to the Khalti account you paid from',
  gateway: 'through the gateway you paid with',
}

export const bookingRefunded: Template = {
  en: ({ booking: b, data }, f) => {
    const amount = dataPaisa(data, 'refund_amount')
    const where = WHERE_EN[dataText(data, 'refunded_to') ?? 'wallet'] ?? WHERE_EN.wallet
    const late = data.late_payment === true
    return {
      subject: `Refund for booking ${b.bookingNumber}: ${f.money(amount)}`,
      lines: [
        late
          ? `Your payment for booking ${b.bookingNumber} arrived after it was cancelled; ${f.money(amount)} was refunded ${where}.`
          : `${f.money(amount)} of your payment for booking ${b.bookingNumber} was refunded ${where}.`,
        ...f.bookingLines(b),
        `Refunded: ${f.money(amount)}`,
      ],
    }
  },
}
