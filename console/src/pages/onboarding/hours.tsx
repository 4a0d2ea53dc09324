import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { CheckField, DAY_NAMES, hhmm, Outcome, rupees, Section, useForm } from '../../components/forms.tsx'
import { Field, Notice, SelectField } from '../../components/ui.tsx'

// Issue 51: opening hours and prices are two separate things. Opening hours are set per weekday
// (PUT /api/courts/{court}/schedule, the whole week at once); a price band is peak or off-peak on
// chosen weekdays between two times (POST /api/courts/{court}/pricing) and must lie within the
// opening hours of every chosen court on every chosen day, said before anything is saved.

type Court = Schemas['Court']
export interface VenueHours {
  opening_time: string
  closing_time: string
}

/** A court's hours on a weekday: its schedule entry, else the venue's hours; null when closed. */
export function hoursOn(court: Court, venue: VenueHours, day: number): { opens: string; closes: string } | null {
  const s = court.schedules.find((e) => e.day_of_week === day)
  if (s?.is_closed) return null
  return {
    opens: hhmm(s?.open_time ?? venue.opening_time),
    closes: hhmm(s?.close_time ?? venue.closing_time),
  }
}

/** Why a band from–to on `day` does not fit a court's opening hours, or null when it does. */
export function bandProblem(court: Court, venue: VenueHours, day: number, from: string, to: string): string | null {
  const hours = hoursOn(court, venue, day)
  if (!hours) return `${court.name} is closed on ${DAY_NAMES[day]}: a price band needs opening hours that day.`
  if (from < hours.opens || to > hours.closes) {
    return (
      `${DAY_NAMES[day]} ${from}–${to} is outside the opening hours of ${court.name} ` +
      `(${hours.opens}–${hours.closes}). Choose times within the opening hours, or change the opening hours first.`
    )
  }
  return null
}

const toggle = (list: number[], id: number, on: boolean) =>
  on ? [...list, id].sort((a, b) => a - b) : list.filter((x) => x !== id)

function CourtChecks({
  courts,
  chosen,
  onChange,
  error,
  id,
}: {
  courts: Court[]
  chosen: number[]
  onChange: (next: number[]) => void
  error?: string
  id: string
}) {
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Courts</legend>
      {courts.map((c) => (
        <CheckField
          key={c.id}
          label={c.name}
          checked={chosen.includes(c.id)}
          onChange={(e) => onChange(toggle(chosen, c.id, e.currentTarget.checked))}
        />
      ))}
      {error && (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  )
}

type DayRow = { open: boolean; opens: string; closes: string }

/** Opening hours per weekday, for the chosen courts (the whole week is saved at once). */
export function OpeningHoursForm({
  courts,
  venue,
  onSaved,
}: {
  courts: Court[]
  venue: VenueHours
  onSaved: () => void
}) {
  const [chosen, setChosen] = useState<number[]>(courts.map((c) => c.id))
  const [rows, setRows] = useState<DayRow[]>(() =>
    DAY_NAMES.map((_, day) => {
      const h = courts[0] ? hoursOn(courts[0], venue, day) : null
      return h
        ? { open: true, ...h }
        : { open: false, opens: hhmm(venue.opening_time), closes: hhmm(venue.closing_time) }
    }),
  )
  const f = useForm({})
  const [problem, setProblem] = useState<string | null>(null)
  const set = (day: number, change: Partial<DayRow>) =>
    setRows((all) => all.map((r, i) => (i === day ? { ...r, ...change } : r)))

  async function save(e: Event) {
    e.preventDefault()
    const bad = rows.findIndex((r) => r.open && !(r.opens < r.closes))
    setProblem(
      chosen.length === 0
        ? 'Choose at least one court.'
        : bad >= 0
          ? `${DAY_NAMES[bad]}: the closing time must be after the opening time.`
          : null,
    )
    if (chosen.length === 0 || bad >= 0) return
    await f.submit(async () => {
      try {
        for (const court of courts.filter((c) => chosen.includes(c.id))) {
          const schedules = rows.map((r, day) =>
            r.open
              ? { day_of_week: day, open_time: r.opens, close_time: r.closes }
              : { day_of_week: day, is_closed: true },
          )
          await ok(
            api().PUT('/api/courts/{court}/schedule', {
              params: { path: { court: String(court.id) } },
              body: { schedules },
            }),
          )
        }
      } finally {
        onSaved()
      }
      return 'Opening hours saved. Prices are unchanged.'
    })
  }

  return (
    <Section title="Opening hours">
      <p>When each court is open, day by day. Prices are set below and never change these hours.</p>
      <form onSubmit={save} noValidate aria-label="Opening hours">
        <Outcome error={f.error} notice={f.notice} />
        {problem && <Notice kind="error">{problem}</Notice>}
        <CourtChecks courts={courts} chosen={chosen} onChange={setChosen} id="hours-courts" />
        <table class="hours-week">
          <caption class="sr-only">Opening hours by weekday</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Open</th>
              <th scope="col">Opens</th>
              <th scope="col">Closes</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, day) => (
              <tr key={DAY_NAMES[day]}>
                <th scope="row">{DAY_NAMES[day]}</th>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Open on ${DAY_NAMES[day]}`}
                    checked={r.open}
                    onChange={(e) => set(day, { open: e.currentTarget.checked })}
                  />
                </td>
                <td>
                  <input
                    type="time"
                    aria-label={`${DAY_NAMES[day]} opens`}
                    value={r.opens}
                    disabled={!r.open}
                    onInput={(e) => set(day, { opens: e.currentTarget.value })}
                  />
                </td>
                <td>
                  <input
                    type="time"
                    aria-label={`${DAY_NAMES[day]} closes`}
                    value={r.closes}
                    disabled={!r.open}
                    onInput={(e) => set(day, { closes: e.currentTarget.value })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy}>
            Save opening hours
          </button>
        </div>
      </form>
    </Section>
  )
}

const BANDS = [
  { value: 'peak', label: 'Peak' },
  { value: 'off_peak', label: 'Off-peak' },
]

/** A peak or off-peak price on chosen weekdays between two times, within the opening hours. */
export function PriceBandForm({ courts, venue, onSaved }: { courts: Court[]; venue: VenueHours; onSaved: () => void }) {
  const [chosen, setChosen] = useState<number[]>(courts.map((c) => c.id))
  // No day is chosen for the owner: a band is for the days they pick.
  const [days, setDays] = useState<number[]>([])
  const f = useForm({ band: 'peak', from: '17:00', to: '21:00', price: '' })
  const [problems, setProblems] = useState<Record<string, string>>({})

  async function add(e: Event) {
    e.preventDefault()
    const v = f.values
    const picked = courts.filter((c) => chosen.includes(c.id))
    const found: Record<string, string> = {}
    if (picked.length === 0) found.courts = 'Choose at least one court.'
    if (days.length === 0) found.days = 'Choose at least one day.'
    if (!(v.from < v.to)) found.to = 'The band must end after it starts.'
    if (v.price.trim() === '') found.price = 'Enter the price per hour for this band.'
    if (!found.to) {
      const outside = picked.flatMap((c) => days.map((d) => bandProblem(c, venue, d, v.from, v.to))).filter(Boolean)
      if (outside.length) found.hours = outside[0] as string
    }
    setProblems(found)
    if (Object.keys(found).length) return
    await f.submit(async () => {
      try {
        for (const court of picked) {
          for (const day of days.length === 7 ? [null] : days) {
            await ok(
              api().POST('/api/courts/{court}/pricing', {
                params: { path: { court: String(court.id) } },
                body: {
                  type: v.band as 'peak' | 'off_peak',
                  day_of_week: day,
                  start_time: v.from,
                  end_time: v.to,
                  price_per_hour: rupees(v.price),
                },
              }),
            )
          }
        }
      } finally {
        onSaved()
      }
      const label = BANDS.find((b) => b.value === v.band)?.label ?? v.band
      return `${label} price ${v.from}–${v.to} saved for ${picked.map((c) => c.name).join(', ')}. Opening hours are unchanged.`
    })
  }
  return (
    <Section title="Price bands">
      <p>
        A peak or off-peak price per hour on the days you choose, between two times within the opening hours. Other
        hours keep the court's base price.
      </p>
      <form onSubmit={add} noValidate aria-label="Price bands">
        <Outcome error={f.error} notice={f.notice} />
        {problems.hours && <Notice kind="error">{problems.hours}</Notice>}
        <CourtChecks courts={courts} chosen={chosen} onChange={setChosen} error={problems.courts} id="band-courts" />
        <fieldset aria-describedby={problems.days ? 'band-days-error' : undefined}>
          <legend>Days</legend>
          <div class="day-checks">
            {DAY_NAMES.map((name, i) => (
              <CheckField
                key={name}
                label={name}
                checked={days.includes(i)}
                onChange={(e) => setDays(toggle(days, i, e.currentTarget.checked))}
              />
            ))}
          </div>
          {problems.days && (
            <p class="error" id="band-days-error">
              {problems.days}
            </p>
          )}
        </fieldset>
        <div class="row">
          <SelectField label="Band" options={BANDS} {...f.bindSelect('band')} />
          <Field label="From" type="time" value={f.values.from} onInput={f.text('from')} />
          <Field label="To" type="time" value={f.values.to} onInput={f.text('to')} error={problems.to} />
          <Field
            label="Price per hour (Rs)"
            inputMode="decimal"
            value={f.values.price}
            onInput={f.text('price')}
            error={problems.price}
          />
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy}>
            Add price band
          </button>
        </div>
      </form>
    </Section>
  )
}
