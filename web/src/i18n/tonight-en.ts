// English strings of "Play tonight" (issue 47): the start page's free-time search and the venue
// cards (web/src/pages/find.tsx, web/src/components/venue-card.tsx). en.ts spreads them in;
// tonight-ne.ts has the same keys.
export const tonightEn = {
  'tonight.title': 'Play tonight',
  'tonight.titleToday': 'Play today',
  'tonight.titleTomorrow': 'Play tomorrow',
  'tonight.titleOn': 'Play on {date}',
  'tonight.intro': 'Courts and games free to book between {from} and {to}, soonest first.',
  'tonight.day': 'Day',
  'tonight.today': 'Today',
  'tonight.tomorrow': 'Tomorrow',
  'tonight.anyDay': 'Any day or time',
  'tonight.from': 'From',
  'tonight.to': 'Until',
  'tonight.duration': 'Playing for',
  'tonight.duration.30': '30 minutes',
  'tonight.duration.60': '1 hour',
  'tonight.duration.90': '1½ hours',
  'tonight.duration.120': '2 hours',
  'tonight.none':
    'Nothing is free to book between {from} and {to} on {date}. Try other times, another day or any sport.',
  'find.sort.soonest': 'Soonest free',

  'card.fromPrice': 'From {price} an hour',
  'card.noReviews': 'No reviews yet',
  'card.freeTimes': 'Free times',
  'card.moreTimes': 'All times',
} as const
