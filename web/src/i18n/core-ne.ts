import type { coreEn } from './core-en.ts'

// Nepali strings of the booking core: the same keys as core-en.ts, which the compiler checks.
export const coreNe: Record<keyof typeof coreEn, string> = {
  'find.title': 'कोर्ट खोज्नुहोस्',
  'find.search': 'भेन्यु, सहर वा ठाउँ',
  'find.go': 'खोज्नुहोस्',
  'find.none': 'कुनै भेन्यु मिलेन।',
  'book.title': 'तपाईंको बुकिङ',
  'pay.title': 'भुक्तानी',
}
