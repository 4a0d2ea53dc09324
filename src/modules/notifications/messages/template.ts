import { toPaisa } from '../../../lib/money.ts'
import type { BookingFacts, Format, Language } from './format.ts'

// The shape of a message template: one module per message kind (booking-confirmed.ts, …) exports a
// Template, one text per Language, each a pure function of what happened and the language's Format.

export interface MessageInput {
  /** The recipient's name, for the email's greeting. */
  name: string
  booking: BookingFacts
  /** The in-app notification's data (refund_amount, expires_at, pay_by, …), read as each kind needs. */
  data: Record<string, unknown>
}

export interface Message {
  /** The email's subject. */
  subject: string
  /** The text: the SMS is these lines; the email wraps them in a greeting and a footer. */
  lines: string[]
}

export type Template = Record<Language, (input: MessageInput, f: Format) => Message>

/** A money field of the notification's data ("1500.00") in paisa; 0 when absent. */
export function dataPaisa(data: Record<string, unknown>, key: string): number {
  const v = data[key]
  if (typeof v !== 'string' && typeof v !== 'number') return 0
  try {
    return toPaisa(v)
  } catch {
    return 0
  }
}

/** A text field of the notification's data; null when absent or not text. */
export function dataText(data: Record<string, unknown>, key: string): string | null {
  const v = data[key]
  return typeof v === 'string' && v !== '' ? v : null
}
