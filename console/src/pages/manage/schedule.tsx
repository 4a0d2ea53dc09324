import type { ComponentChildren } from 'preact'
import { useEffect, useId, useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { DAY_NAMES, hhmm, Outcome, Section, useForm, useLoad } from '../../components/forms.tsx'
import { Loading, Notice } from '../../components/ui.tsx'
import { type MessageKey, t } from '../../i18n/index.ts'
import type { TabProps } from './index.tsx'

// The weekly schedule of one court: for each day, open and close (same day, no overnight hours) or
// closed. A day without an entry uses the venue's opening hours; saving writes all seven days.

type Court = Schemas['Court']

function CourtPicker({
  courts,
  value,
  onChange,
}: {
  courts: Court[]
  value: number | null
  onChange: (id: number) => void
}) {
  const id = useId()
  return (
    <div class="field court-pick">
      <label for={id}>{t('schedule.court')}</label>
      <select
        id={id}
        value={value === null ? '' : String(value)}
        onChange={(e) => onChange(Number(e.currentTarget.value))}
      >
        {courts.map((c) => (
          <option key={c.id} value={String(c.id)}>
            {c.name}
          </option>
        ))}
      </select>
    </div>
  )
}

/** The venue's active courts and the chosen one. */
function useCourts(venueId: string) {
  const courts = useLoad(
    () => ok(api().GET('/api/venues/{venue}/courts', { params: { path: { venue: venueId } } })).then((r) => r.data),
    [venueId],
  )
  const [courtId, setCourtId] = useState<number | null>(null)
  useEffect(() => {
    if (courts.data && courts.data.length > 0 && !courts.data.some((c) => c.id === courtId))
      setCourtId(courts.data[0].id)
  }, [courts.data, courtId])
  return { courts, courtId, setCourtId, court: courts.data?.find((c) => c.id === courtId) }
}

/** A tab about one court at a time: the court picker, then `children` for the chosen court. */
export function PerCourt({ venueId, children }: { venueId: string; children: (court: Court) => ComponentChildren }) {
  const { courts, courtId, setCourtId, court } = useCourts(venueId)
  if (courts.error) return <Notice kind="error">{courts.error}</Notice>
  if (!courts.data) return <Loading what={t('schedule.loadingCourts')} />
  if (courts.data.length === 0) return <p>{t('schedule.noCourts')}</p>
  return (
    <div class="manage-stack">
      <CourtPicker courts={courts.data} value={courtId} onChange={setCourtId} />
      {court && children(court)}
    </div>
  )
}

export function ScheduleTab({ venue }: TabProps) {
  return (
    <PerCourt venueId={String(venue.id)}>{(court) => <WeekForm key={court.id} court={court} venue={venue} />}</PerCourt>
  )
}

interface Day {
  open: string
  close: string
  closed: boolean
}

function WeekForm({ court, venue }: { court: Court; venue: TabProps['venue'] }) {
  const schedule = useLoad(
    () =>
      ok(api().GET('/api/courts/{court}/schedule', { params: { path: { court: String(court.id) } } })).then(
        (r) => r.data,
      ),
    [court.id],
  )
  const [days, setDays] = useState<Day[] | null>(null)
  const f = useForm({})
  useEffect(() => {
    if (!schedule.data) return
    setDays(
      DAY_NAMES.map((_, i) => {
        const entry = schedule.data?.find((s) => s.day_of_week === i)
        return {
          open: hhmm(entry?.open_time ?? venue.opening_time),
          close: hhmm(entry?.close_time ?? venue.closing_time),
          closed: entry?.is_closed ?? false,
        }
      }),
    )
  }, [schedule.data, venue.opening_time, venue.closing_time])

  if (schedule.error) return <Notice kind="error">{schedule.error}</Notice>
  if (!days) return <Loading what={t('schedule.loading')} />

  const change = (i: number, patch: Partial<Day>) => setDays(days.map((d, j) => (j === i ? { ...d, ...patch } : d)))
  async function save(e: Event) {
    e.preventDefault()
    if (!days) return
    await f.submit(async () => {
      await ok(
        api().PUT('/api/courts/{court}/schedule', {
          params: { path: { court: String(court.id) } },
          body: {
            schedules: days.map((d, i) =>
              d.closed
                ? { day_of_week: i, is_closed: true }
                : { day_of_week: i, open_time: d.open, close_time: d.close },
            ),
          },
        }),
      )
      schedule.reload()
      return t('schedule.saved', { court: court.name })
    })
  }
  const err = (i: number, field: string) => f.fieldError(`schedules.${i}.${field}`)
  return (
    <Section title={t('schedule.title', { court: court.name })}>
      <form onSubmit={save}>
        <Outcome error={f.error} notice={f.notice} />
        <table class="schedule">
          <caption class="sr-only">{t('schedule.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('common.day')}</th>
              <th scope="col">{t('schedule.opens')}</th>
              <th scope="col">{t('schedule.closes')}</th>
              <th scope="col">{t('schedule.closedAllDay')}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d, i) => (
              <tr key={DAY_NAMES[i]}>
                <th scope="row">{t(`day.${i}` as MessageKey)}</th>
                <td>
                  <input
                    type="time"
                    aria-label={t('schedule.dayOpens', { day: t(`day.${i}` as MessageKey) })}
                    value={d.open}
                    disabled={d.closed}
                    aria-invalid={err(i, 'open_time') ? 'true' : undefined}
                    aria-describedby={err(i, 'open_time') ? `day-${i}-open-error` : undefined}
                    onInput={(e) => change(i, { open: e.currentTarget.value })}
                  />
                  {err(i, 'open_time') && (
                    <p class="error" id={`day-${i}-open-error`}>
                      {err(i, 'open_time')}
                    </p>
                  )}
                </td>
                <td>
                  <input
                    type="time"
                    aria-label={t('schedule.dayCloses', { day: t(`day.${i}` as MessageKey) })}
                    value={d.close}
                    disabled={d.closed}
                    aria-invalid={err(i, 'close_time') ? 'true' : undefined}
                    aria-describedby={err(i, 'close_time') ? `day-${i}-close-error` : undefined}
                    onInput={(e) => change(i, { close: e.currentTarget.value })}
                  />
                  {err(i, 'close_time') && (
                    <p class="error" id={`day-${i}-close-error`}>
                      {err(i, 'close_time')}
                    </p>
                  )}
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={t('schedule.dayClosed', { day: t(`day.${i}` as MessageKey) })}
                    checked={d.closed}
                    onChange={(e) => change(i, { closed: e.currentTarget.checked })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy}>
            {t('schedule.save')}
          </button>
        </div>
      </form>
    </Section>
  )
}
