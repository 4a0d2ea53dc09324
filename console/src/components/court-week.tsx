import type { Schemas } from '../api.ts'
import { money } from '../format.ts'
import { DAY_NAMES, hhmm, Section } from './forms.tsx'

// A court's week as saved (its schedule entries and active pricing rules, from the Court resource):
// the owner's onboarding summary and the super admin's review before approving a venue.

type Court = Schemas['Court']

/** Each court's week as saved: hours (or closed, or the venue's hours) and the prices that apply. */
export function WeekSummary({ courts, title = 'The week as saved' }: { courts: Court[]; title?: string }) {
  return (
    <Section title={title}>
      {courts.map((c) => (
        <CourtWeek key={c.id} court={c} />
      ))}
    </Section>
  )
}

export function CourtWeek({ court }: { court: Court }) {
  return (
    <table class="week">
      <caption>
        {court.name} ({court.sport?.label ?? court.type}, base {money(court.price_per_hour)} per hour)
      </caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">Hours</th>
          <th scope="col">Prices per hour</th>
        </tr>
      </thead>
      <tbody>
        {DAY_NAMES.map((name, day) => {
          const s = court.schedules.find((e) => e.day_of_week === day)
          const rules = court.pricing.filter((r) => r.is_active && (r.day_of_week === null || r.day_of_week === day))
          return (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{!s ? "Venue's hours" : s.is_closed ? 'Closed' : `${hhmm(s.open_time)}–${hhmm(s.close_time)}`}</td>
              <td>
                {rules.length === 0
                  ? `${money(court.price_per_hour)} (base)`
                  : rules.map((r) => `${hhmm(r.start_time)}–${hhmm(r.end_time)} ${money(r.price_per_hour)}`).join('; ')}
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
