import { dataPaisa, dataText, type Template } from './template.ts'

// BookingRefunded (the venue refunded a payment) and a late payment's BookingCancelled (money that
// arrived for a booking no longer there, credited to the wallet): money went back to the player.
const WHERE_EN: Record<string, string> = {
  wallet: 'to your Courtside wallet',
  desk: 'at the venue’s desk: collect it there',
  source: 'to the Khalti account you paid from',
  gateway: 'through the gateway you paid with',
}

const WHERE_NE: Record<string, string> = {
  wallet: 'तपाईंको Courtside वालेटमा',
  desk: 'स्थलको काउन्टरमा: त्यहीँबाट लिनुहोस्',
  source: 'तपाईंले तिरेको Khalti खातामा',
  gateway: 'तपाईंले तिरेकै गेटवेबाट',
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
  ne: ({ booking: b, data }, f) => {
    const amount = dataPaisa(data, 'refund_amount')
    const where = WHERE_NE[dataText(data, 'refunded_to') ?? 'wallet'] ?? WHERE_NE.wallet
    const late = data.late_payment === true
    return {
      subject: `बुकिङ ${b.bookingNumber} को रकम फिर्ता: ${f.money(amount)}`,
      lines: [
        late
          ? `बुकिङ ${b.bookingNumber} को तपाईंको भुक्तानी यो रद्द भएपछि आइपुग्यो; ${f.money(amount)} ${where} फिर्ता गरियो।`
          : `बुकिङ ${b.bookingNumber} का लागि तपाईंले तिरेको मध्ये ${f.money(amount)} ${where} फिर्ता गरियो।`,
        ...f.bookingLines(b),
        `फिर्ता: ${f.money(amount)}`,
      ],
    }
  },
}
