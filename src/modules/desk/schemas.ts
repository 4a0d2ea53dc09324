import { Type } from 'typebox'
import { DateInput } from '../../lib/schemas.ts'

export const VenueParams = Type.Object({ venue: Type.String({ description: 'Venue id or slug' }) })

export const BoardQuery = Type.Object({
  date: Type.Optional(Type.String({ ...DateInput, description: 'YYYY-MM-DD (venue time); default today' })),
})
