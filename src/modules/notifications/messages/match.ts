import { hasMessage, type Locale, t } from '../../../lib/i18n/index.ts'
import type { BookingFacts, Format } from './format.ts'
import { dataText, type MessageInput, type Template } from './template.ts'

// The open match's messages (docs/matches.md, "Notifications"): a player joined, the match is full,
// a player left, the pay deadline is near, a result waits for confirmation. Each names the match's
// sport and booking (venue, court, date, time); the in-app notification's data gives the sport and
// the player (player_name) who joined, left or reported.

/** The sport as `language` writes it (the catalogue's word.* key, else as the venue named it). */
function sportIn(language: Locale, data: MessageInput['data']): string {
  const sport = dataText(data, 'sport') ?? ''
  const key = `word.${sport}`
  return hasMessage(key) ? t(language, key) : sport
}

const who = (data: MessageInput['data'], fallback: string) => dataText(data, 'player_name') ?? fallback

function message(subject: string, sentence: string, b: BookingFacts, f: Format) {
  return { subject, lines: [sentence, ...f.bookingLines(b)] }
}

export const matchJoined: Template = {
  en: ({ booking: b, data }, f) =>
    message(
      `A player joined your ${sportIn('en', data)} match: ${b.venue}`,
      `${who(data, 'A player')} joined your ${sportIn('en', data)} match.`,
      b,
      f,
    ),
  ne: ({ booking: b, data }, f) =>
    message(
      `तपाईंको ${sportIn('ne', data)} खेलमा एक खेलाडी जोडिए: ${b.venue}`,
      `${who(data, 'एक खेलाडी')} तपाईंको ${sportIn('ne', data)} खेलमा जोडिनुभयो।`,
      b,
      f,
    ),
}

export const matchFull: Template = {
  en: ({ booking: b, data }, f) =>
    message(
      `Your ${sportIn('en', data)} match is full: ${b.venue}`,
      `Your ${sportIn('en', data)} match is full: every spot is taken.`,
      b,
      f,
    ),
  ne: ({ booking: b, data }, f) =>
    message(
      `तपाईंको ${sportIn('ne', data)} खेल भरियो: ${b.venue}`,
      `तपाईंको ${sportIn('ne', data)} खेल भरियो: सबै ठाउँ लिइसकियो।`,
      b,
      f,
    ),
}

export const matchPlayerLeft: Template = {
  en: ({ booking: b, data }, f) =>
    message(
      `A player left your ${sportIn('en', data)} match: ${b.venue}`,
      `${who(data, 'A player')} left your ${sportIn('en', data)} match; a spot is open again.`,
      b,
      f,
    ),
  ne: ({ booking: b, data }, f) =>
    message(
      `तपाईंको ${sportIn('ne', data)} खेलबाट एक खेलाडी निस्किए: ${b.venue}`,
      `${who(data, 'एक खेलाडी')} तपाईंको ${sportIn('ne', data)} खेलबाट निस्कनुभयो; एउटा ठाउँ फेरि खाली छ।`,
      b,
      f,
    ),
}

export const matchDeadlineNear: Template = {
  en: ({ booking: b, data }, f) =>
    message(
      `Your ${sportIn('en', data)} match still has open spots: ${b.venue}`,
      `Your ${sportIn('en', data)} match still has open spots and its pay deadline is near: unpaid shares cancel the booking.`,
      b,
      f,
    ),
  ne: ({ booking: b, data }, f) =>
    message(
      `तपाईंको ${sportIn('ne', data)} खेलमा अझै ठाउँ खाली छ: ${b.venue}`,
      `तपाईंको ${sportIn('ne', data)} खेलमा अझै ठाउँ खाली छ र भुक्तानीको अन्तिम समय नजिक छ: नतिरिएका भाग रहे बुकिङ रद्द हुन्छ।`,
      b,
      f,
    ),
}

export const matchResultToConfirm: Template = {
  en: ({ booking: b, data }, f) =>
    message(
      `Confirm the result of your ${sportIn('en', data)} match: ${b.venue}`,
      `${who(data, 'A player')} reported the result of your ${sportIn('en', data)} match. Please confirm it in the app.`,
      b,
      f,
    ),
  ne: ({ booking: b, data }, f) =>
    message(
      `तपाईंको ${sportIn('ne', data)} खेलको नतिजा पुष्टि गर्नुहोस्: ${b.venue}`,
      `${who(data, 'एक खेलाडी')} ले तपाईंको ${sportIn('ne', data)} खेलको नतिजा पठाउनुभयो। एपमा यसलाई पुष्टि गर्नुहोस्।`,
      b,
      f,
    ),
}
