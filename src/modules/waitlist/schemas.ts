import { Type } from 'typebox'
import { DateInput, IdParam, TimeInput } from '../../lib/schemas.ts'

// Request shapes of the waitlist routes.

export const EntryParams = Type.Object({ entry: Type.String({ description: 'Waitlist entry id' }) })

export const JoinBody = Type.Object({
  court_id: IdParam,
  date: DateInput,
  start_time: TimeInput,
  end_time: TimeInput,
})
