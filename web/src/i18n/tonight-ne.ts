import type { tonightEn } from './tonight-en.ts'

// Nepali strings of "Play tonight": the same keys as tonight-en.ts, which the compiler checks.
export const tonightNe: Record<keyof typeof tonightEn, string> = {
  'tonight.title': 'आज बेलुका खेल्नुहोस्',
  'tonight.titleToday': 'आज खेल्नुहोस्',
  'tonight.titleTomorrow': 'भोलि खेल्नुहोस्',
  'tonight.titleOn': '{date} मा खेल्नुहोस्',
  'tonight.intro': '{from} देखि {to} सम्म बुक गर्न खाली कोर्ट र खेलहरू, चाँडो सुरु हुने पहिले।',
  'tonight.day': 'दिन',
  'tonight.today': 'आज',
  'tonight.tomorrow': 'भोलि',
  'tonight.anyDay': 'जुनसुकै दिन वा समय',
  'tonight.from': 'देखि',
  'tonight.to': 'सम्म',
  'tonight.duration': 'खेल्ने समय',
  'tonight.duration.30': '३० मिनेट',
  'tonight.duration.60': '१ घण्टा',
  'tonight.duration.90': '१½ घण्टा',
  'tonight.duration.120': '२ घण्टा',
  'tonight.none': '{date} मा {from} देखि {to} सम्म बुक गर्न केही खाली छैन। अर्को समय, अर्को दिन वा जुनसुकै खेल छान्नुहोस्।',
  'find.sort.soonest': 'चाँडो खाली हुने',

  'card.fromPrice': 'प्रति घण्टा {price} देखि',
  'card.noReviews': 'अहिलेसम्म समीक्षा छैन',
  'card.freeTimes': 'खाली समय',
  'card.moreTimes': 'सबै समय',
}
