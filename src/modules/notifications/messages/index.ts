import { bookingCancelled } from './booking-cancelled.ts'
import { bookingConfirmed } from './booking-confirmed.ts'
import { bookingRefunded } from './booking-refunded.ts'
import { bookingReminder } from './booking-reminder.ts'
import { DEFAULT_LANGUAGE, FORMATS, LANGUAGES, type Language } from './format.ts'
import { matchDeadlineNear, matchFull, matchJoined, matchPlayerLeft, matchResultToConfirm } from './match.ts'
import { seriesPaymentDue } from './series-payment-due.ts'
import type { MessageInput, Template } from './template.ts'
import { waitlistOffer } from './waitlist-offer.ts'

// The booking messages sent by SMS and email besides the in-app notification (issue 47;
// docs/bookings.md, "Messages by SMS and email"), and the open match's (issue 48, docs/matches.md): which notifications have one, and its text in the
// recipient's language.

export type { BookingFacts, Language } from './format.ts'
export type { MessageInput } from './template.ts'

export type MessageKind =
  | 'booking_confirmed'
  | 'booking_cancelled'
  | 'booking_refunded'
  | 'waitlist_offer'
  | 'series_payment_due'
  | 'booking_reminder'
  | 'match_joined'
  | 'match_full'
  | 'match_player_left'
  | 'match_deadline_near'
  | 'match_result_to_confirm'

const TEMPLATES: Record<MessageKind, Template> = {
  booking_confirmed: bookingConfirmed,
  booking_cancelled: bookingCancelled,
  booking_refunded: bookingRefunded,
  waitlist_offer: waitlistOffer,
  series_payment_due: seriesPaymentDue,
  booking_reminder: bookingReminder,
  match_joined: matchJoined,
  match_full: matchFull,
  match_player_left: matchPlayerLeft,
  match_deadline_near: matchDeadlineNear,
  match_result_to_confirm: matchResultToConfirm,
}

/**
 * The message a notification (its class name, without the namespace, and its data) is also sent
 * as, or null when it is only in-app. A BookingCancelled about a payment that arrived after the
 * cancel (late_payment) tells of money refunded, not of a cancel.
 */
export function messageKindOf(type: string, data: Record<string, unknown>): MessageKind | null {
  if (bookingIdOf(data) === null || (data.booking_type !== 'court' && data.booking_type !== 'indoor')) return null
  switch (type) {
    case 'BookingConfirmed':
    case 'IndoorGameBookingConfirmed':
      return 'booking_confirmed'
    case 'BookingCancelled':
      return data.late_payment === true ? 'booking_refunded' : 'booking_cancelled'
    case 'BookingRefunded':
      return 'booking_refunded'
    case 'WaitlistOffer':
      return 'waitlist_offer'
    case 'SeriesPaymentDue':
      return 'series_payment_due'
    case 'BookingReminder':
      return 'booking_reminder'
    case 'MatchJoined':
      return 'match_joined'
    case 'MatchFull':
      return 'match_full'
    case 'MatchPlayerLeft':
      return 'match_player_left'
    case 'MatchDeadlineNear':
      return 'match_deadline_near'
    case 'MatchResultToConfirm':
      return 'match_result_to_confirm'
    default:
      return null
  }
}

/** The booking a notification's data names (booking_id), or null. */
export function bookingIdOf(data: Record<string, unknown>): number | null {
  const id = Number(data.booking_id)
  return Number.isSafeInteger(id) && id > 0 ? id : null
}

/** A user's language for messages: their own when the service has it in a language it writes, else English. */
export function languageOf(preferred: string | null | undefined): Language {
  return LANGUAGES.find((l) => l === preferred) ?? DEFAULT_LANGUAGE
}

export interface RenderedMessage {
  subject: string
  sms: string
  mail: string
}

/** The message of `kind` in `language`: the SMS text, and the email's subject and body. */
export function renderMessage(kind: MessageKind, language: Language, input: MessageInput): RenderedMessage {
  const f = FORMATS[language]
  const { subject, lines } = TEMPLATES[kind][language](input, f)
  return {
    subject,
    sms: lines.join('\n'),
    mail: [f.greeting(input.name), '', ...lines, '', ...f.mailFooter].join('\n'),
  }
}
