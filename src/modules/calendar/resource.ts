import { Type } from 'typebox'
import { named } from '../../lib/schemas.ts'

export const CalendarFeedSchema = named(
  'CalendarFeed',
  Type.Object({
    url: Type.String({
      description: 'Secret subscription URL of the iCalendar feed; anyone with it can read the feed',
      examples: ['https://courtside.example/api/calendar/6rS0pXl3K9b1Qw2Zt8mV4yH7cN5aJ0eD3fG6hU9iO2k.ics'],
    }),
  }),
)
