import { dataText, type Template } from './template.ts'

// WaitlistOffer: the slot a player waited for is free and held for them as a pending booking.
export const waitlistOffer: Template = {
  en: ({ booking: b, data }, f) => {
    const until = dataText(data, 'expires_at')
    return {
      subject: `The slot you waited for is free: ${b.venue}`,
      lines: [
        `The slot you waited for is free: booking ${b.bookingNumber} is held for you${until ? ` until ${f.moment(until)}` : ''}. Pay it to keep it.`,
        ...f.bookingLines(b),
        `To pay: ${f.money(Math.max(b.total - b.paid, 0))}`,
      ],
    }
  },
  ne: ({ booking: b, data }, f) => {
    const until = dataText(data, 'expires_at')
    return {
      subject: `तपाईंले पर्खेको समय खाली भयो: ${b.venue}`,
      lines: [
        `तपाईंले पर्खेको समय खाली भयो: बुकिङ ${b.bookingNumber} तपाईंका लागि${until ? ` ${f.moment(until)} सम्म` : ''} राखिएको छ। राख्न यसको भुक्तानी गर्नुहोस्।`,
        ...f.bookingLines(b),
        `तिर्नुपर्ने: ${f.money(Math.max(b.total - b.paid, 0))}`,
      ],
    }
  },
}
