import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { dayName } from '../../components/court-week.tsx'
import { CheckField, hhmm, Outcome, rupees, Section, useForm } from '../../components/forms.tsx'
import { ScrollBox } from '../../components/scroll.tsx'
import { Field, Notice, SelectField } from '../../components/ui.tsx'
import { digits, t } from '../../i18n/index.ts'

// Issue 51: opening hours and prices are two separate things. Opening hours are set per weekday
// (PUT /api/courts/{court}/schedule, the whole week at once); a price band is peak or off-peak on
// chosen weekdays between two times (POST /api/courts/{court}/pricing) and must lie within the
// opening hours of every chosen court on every chosen day, said before anything is saved. Words
// from the console's catalogue, weekdays and times in the language shown (issue 50).

const WEEK = [0, 1, 2, 3, 4, 5, 6]

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
  if (!hours) return t('hours.closedOn', { court: court.name, day: dayName(day) })
  if (from < hours.opens || to > hours.closes) {
    return t('hours.outside', {
      day: dayName(day),
      band: digits(`${from}–${to}`),
      court: court.name,
      hours: digits(`${hours.opens}–${hours.closes}`),
    })
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
      <legend>{t('wizard.stepCourts')}</legend>
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
    WEEK.map((day) => {
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
      chosen.length === 0 ? t('hours.chooseCourt') : bad >= 0 ? t('hours.closeAfterOpen', { day: dayName(bad) }) : null,
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
      return t('hours.saved')
    })
  }

  return (
    <Section title={t('hours.title')}>
      <p>{t('hours.explain')}</p>
      <form onSubmit={save} noValidate aria-label={t('hours.title')}>
        <Outcome error={f.error} notice={f.notice} />
        {problem && <Notice kind="error">{problem}</Notice>}
        <CourtChecks courts={courts} chosen={chosen} onChange={setChosen} id="hours-courts" />
        <ScrollBox label={t('hours.caption')}>
          <table class="hours-week">
            <caption class="sr-only">{t('hours.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('common.day')}</th>
                <th scope="col">{t('hours.open')}</th>
                <th scope="col">{t('wizard.opens')}</th>
                <th scope="col">{t('wizard.closes')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, day) => (
                <tr key={day}>
                  <th scope="row">{dayName(day)}</th>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={t('hours.openOn', { day: dayName(day) })}
                      checked={r.open}
                      onChange={(e) => set(day, { open: e.currentTarget.checked })}
                    />
                  </td>
                  <td>
                    <input
                      type="time"
                      aria-label={t('hours.dayOpens', { day: dayName(day) })}
                      value={r.opens}
                      disabled={!r.open}
                      onInput={(e) => set(day, { opens: e.currentTarget.value })}
                    />
                  </td>
                  <td>
                    <input
                      type="time"
                      aria-label={t('hours.dayCloses', { day: dayName(day) })}
                      value={r.closes}
                      disabled={!r.open}
                      onInput={(e) => set(day, { closes: e.currentTarget.value })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy}>
            {t('hours.save')}
          </button>
        </div>
      </form>
    </Section>
  )
}

/** The two kinds of band, named in the language shown. */
const bands = () => [
  { value: 'peak', label: t('hours.peak') },
  { value: 'off_peak', label: t('hours.offPeak') },
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
    if (picked.length === 0) found.courts = t('hours.chooseCourt')
    if (days.length === 0) found.days = t('hours.chooseDay')
    if (!(v.from < v.to)) found.to = t('hours.endAfterStart')
    if (v.price.trim() === '') found.price = t('hours.enterPrice')
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
      const label = bands().find((b) => b.value === v.band)?.label ?? v.band
      return t('hours.bandSaved', {
        band: label,
        span: digits(`${v.from}–${v.to}`),
        courts: picked.map((c) => c.name).join(', '),
      })
    })
  }
  return (
    <Section title={t('hours.bandsTitle')}>
      <p>{t('hours.bandsExplain')}</p>
      <form onSubmit={add} noValidate aria-label={t('hours.bandsTitle')}>
        <Outcome error={f.error} notice={f.notice} />
        {problems.hours && <Notice kind="error">{problems.hours}</Notice>}
        <CourtChecks courts={courts} chosen={chosen} onChange={setChosen} error={problems.courts} id="band-courts" />
        <fieldset aria-describedby={problems.days ? 'band-days-error' : undefined}>
          <legend>{t('hours.days')}</legend>
          <div class="day-checks">
            {WEEK.map((i) => (
              <CheckField
                key={i}
                label={dayName(i)}
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
          <SelectField label={t('hours.band')} options={bands()} {...f.bindSelect('band')} />
          <Field label={t('hours.from')} type="time" value={f.values.from} onInput={f.text('from')} />
          <Field label={t('hours.to')} type="time" value={f.values.to} onInput={f.text('to')} error={problems.to} />
          <Field
            label={t('courts.priceRs')}
            inputMode="decimal"
            value={f.values.price}
            onInput={f.text('price')}
            error={problems.price}
          />
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy}>
            {t('hours.addBand')}
          </button>
        </div>
      </form>
    </Section>
  )
}
