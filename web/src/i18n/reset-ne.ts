import type { resetEn } from './reset-en.ts'

// Nepali strings of "forgot password" and "List your venue": the same keys as reset-en.ts, which the compiler checks.
export const resetNe: Record<keyof typeof resetEn, string> = {
  'reset.link': 'पासवर्ड बिर्सनुभयो?',
  'reset.title': 'पासवर्ड फेर्नुहोस्',
  'reset.intro':
    'हामी तपाईंको खाताको मोबाइल नम्बर वा इमेलमा एक पटक प्रयोग हुने कोड पठाउँछौं। त्यसैले तपाईं नयाँ पासवर्ड रोज्न सक्नुहुन्छ।',
  'reset.verify': 'कोडले साइन इन गर्नुहोस्',
  'reset.choose': 'कोड मिल्यो। १५ मिनेटभित्र नयाँ पासवर्ड रोज्नुहोस्।',
  'reset.newPassword': 'नयाँ पासवर्ड',
  'reset.save': 'नयाँ पासवर्ड सुरक्षित गर्नुहोस्',
  'reset.done': 'तपाईंको नयाँ पासवर्ड सुरक्षित भयो। तपाईं साइन इन हुनुभयो।',
  'listVenue.link': 'आफ्नो भेन्यु राख्नुहोस्',
}
