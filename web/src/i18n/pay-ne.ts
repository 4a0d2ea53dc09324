import type { payEn } from './pay-en.ts'

// Nepali strings of paying a held booking, a slot's facts and the free-cancellation warning: the same
// keys as pay-en.ts, which the compiler checks.
export const payNe: Record<keyof typeof payEn, string> = {
  'slot.venue': 'भेन्यु',
  'slot.court': 'कोर्ट',
  'slot.game': 'इनडोर खेल',
  'slot.date': 'मिति',
  'slot.time': 'समय',
  'slot.price': 'मूल्य',
  'slot.firstWeekPrice': 'पहिलो हप्ताको मूल्य',
  'slot.payBy': '{date}, {time} भित्र भुक्तानी गर्नुहोस्',
  'slot.noRefundTitle': 'रद्द गर्नुभयो भने रकम फिर्ता हुँदैन।',
  'slot.noRefund':
    'यो बुकिङ {hours} घण्टाभन्दा कम समयमा सुरु हुन्छ, भेन्युको निःशुल्क रद्द गर्ने समयभित्र: रद्द गर्नुभयो भने तिरेको रकम फिर्ता हुँदैन।',

  'held.title': 'बुकिङ {number}',
  'held.payNow': 'अहिले तिर्नुहोस्',
  'held.payNowAmount': '{amount} अहिले तिर्नुहोस्',
  'held.paying': 'भुक्तानी सुरु हुँदैछ…',
  'held.due': 'तिर्न बाँकी: {amount}',
  'held.paid': 'तिरिएको: {amount}',
  'held.heldFor': 'यो समय तपाईंका लागि म्यादसम्म राखिएको छ; त्यतिबेलासम्म नतिरे छोडिन्छ।',
  'held.howToPay': 'कसरी तिर्ने',
  'held.open': 'बुकिङ हेर्नुहोस्',

  'gate.choice': 'तपाईंको छनोट',
  'series.summary': 'शृङ्खला',
  'series.summaryHint': 'हरेक हप्ताको मूल्य आफ्नै मितिअनुसार हुन्छ; भेन्युको बिदाको दिन पर्ने हप्ता महँगो हुन सक्छ।',
} as const
