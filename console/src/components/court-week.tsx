import type { Schemas } from '../api.ts'
import { money } from '../format.ts'
import { digits, localName, type MessageKey, t } from '../i18n/index.ts'
import { hhmm, Section } from './forms.tsx'

// A court's week as saved (its schedule entries and active pricing rules, from the Court resource):
// the owner's onboarding summary and the super admin's review before approving a venue.

type Court = Schemas['Court']

/** A weekday's full name in the language shown, 0 = Sunday ("Sunday" / "आइतबार"). */
export const dayName = (day: number) => t(`day.${day}` as MessageKey)

/** A court's sport as the console shows it (its Nepali name in Nepali), else its free-text type. */
export function sportName(court: { sport?: Schemas['SportSummary'] | null; type: string }): string {
  return court.sport ? localName({ name: court.sport.label, name_ne: court.sport.name_ne }) : court.type
}

/** Slot lengths in order, named in the language shown ("60 minutes"); 60 is the default (issue 51). */
export const slotOptions = () =>
  ['15', '30', '45', '60', '90', '120'].map((m) => ({ value: m, label: t('courts.minutes', { n: Number(m) }) }))

/** "06:00–21:00" in the language's digits. */
const span = (from: string | null | undefined, to: string | null | undefined) => digits(`${hhmm(from)}–${hhmm(to)}`)

/** Each court's week as saved: hours (or closed, or the venue's hours) and the prices that apply. */
export function WeekSummary({ courts, title }: { courts: Court[]; title?: string }) {
  return (
    <Section title={title ?? t('week.title')}>
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
        {t('week.caption', { court: court.name, sport: sportName(court), price: money(court.price_per_hour) })}
      </caption>
      <thead>
        <tr>
          <th scope="col">{t('common.day')}</th>
          <th scope="col">{t('week.hours')}</th>
          <th scope="col">{t('week.prices')}</th>
        </tr>
      </thead>
      <tbody>
        {[0, 1, 2, 3, 4, 5, 6].map((day) => {
          const s = court.schedules.find((e) => e.day_of_week === day)
          const rules = court.pricing.filter((r) => r.is_active && (r.day_of_week === null || r.day_of_week === day))
          return (
            <tr key={day}>
              <th scope="row">{dayName(day)}</th>
              <td>{!s ? t('week.venueHours') : s.is_closed ? t('week.closed') : span(s.open_time, s.close_time)}</td>
              <td>
                {rules.length === 0
                  ? t('week.base', { price: money(court.price_per_hour) })
                  : rules.map((r) => `${span(r.start_time, r.end_time)} ${money(r.price_per_hour)}`).join('; ')}
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
