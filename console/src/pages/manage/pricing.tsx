import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import {
  ConfirmDialog,
  DAY_NAMES,
  FormActions,
  hhmm,
  Loaded,
  Outcome,
  rupees,
  Section,
  Table,
  today,
  useForm,
  useLoad,
} from '../../components/forms.tsx'
import { ScrollBox } from '../../components/scroll.tsx'
import { Dialog, Field, Loading, Notice, RowAction, SelectField } from '../../components/ui.tsx'
import { longDate, money } from '../../format.ts'
import { digits, type MessageKey, t } from '../../i18n/index.ts'
import { dayText } from '../../i18n/moments.ts'
import { bandProblem, hoursOn, type VenueHours } from '../onboarding/hours.tsx'
import type { TabProps } from './index.tsx'
import { PerCourt } from './schedule.tsx'

// Pricing rules of one court (a rule prices the slots that start inside [start, end) on its day,
// or every day) and a preview of a chosen day's prices, as the availability route computes them.

type Court = Schemas['Court']
type Rule = Schemas['PricingRule']
type RuleType = Rule['type']

const RULE_TYPES: RuleType[] = ['standard', 'peak', 'off_peak', 'holiday']
/** A rule's kind as the page names it ("Peak" / "पिक"); an unknown one as is. */
const typeName = (type: string) => ((RULE_TYPES as string[]).includes(type) ? t(`ruleType.${type as RuleType}`) : type)
const typeOptions = () => RULE_TYPES.map((value) => ({ value, label: typeName(value) }))
/** "Monday" / "सोमबार", or "Every day" / "हरेक दिन" for a rule of every day. */
const dayName = (day: number | null) => (day === null ? t('pricing.everyDay') : t(`day.${day}` as MessageKey))
const dayOptions = () => [
  { value: '', label: t('pricing.everyDay') },
  ...DAY_NAMES.map((_, i) => ({ value: String(i), label: dayName(i) })),
]

export function PricingTab({ venue }: TabProps) {
  return (
    <PerCourt venueId={String(venue.id)}>
      {(court) => <CourtPricing key={court.id} court={court} venue={venue} />}
    </PerCourt>
  )
}

function CourtPricing({ court, venue }: { court: Court; venue: VenueHours }) {
  const courtId = String(court.id)
  const rules = useLoad(
    () => ok(api().GET('/api/courts/{court}/pricing', { params: { path: { court: courtId } } })).then((r) => r.data),
    [courtId],
  )
  const [editing, setEditing] = useState<{ rule?: Rule } | null>(null)
  const [deleting, setDeleting] = useState<Rule | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [version, setVersion] = useState(0)

  function finished(message: string) {
    setEditing(null)
    setDeleting(null)
    setDone(message)
    rules.reload()
    setVersion((v) => v + 1)
  }

  return (
    <>
      <Section title={t('pricing.title', { court: court.name })}>
        <p class="muted">{t('pricing.base', { price: money(court.price_per_hour) })}</p>
        {done && <Notice kind="success">{done}</Notice>}
        <Loaded state={rules} loading={t('pricing.loading')} empty={t('pricing.none')}>
          {(rows) => {
            const names = ruleNames(rows, court)
            return (
              <ScrollBox label={t('pricing.scroll')}>
                <Table
                  caption={t('pricing.caption')}
                  columns={[
                    t('pricing.kind'),
                    t('pricing.day'),
                    t('pricing.from'),
                    t('pricing.until'),
                    { label: t('pricing.pricePerHour'), num: true },
                    t('pricing.active'),
                    t('pricing.actions'),
                  ]}
                >
                  {rows.map((r) => (
                    <tr key={r.id}>
                      <td>{typeName(r.type)}</td>
                      <td>{dayName(r.day_of_week)}</td>
                      <td>{digits(hhmm(r.start_time))}</td>
                      <td>{digits(hhmm(r.end_time))}</td>
                      <td class="num">{money(r.price_per_hour)}</td>
                      <td>{r.is_active ? t('pricing.yes') : t('pricing.no')}</td>
                      <td class="row-actions">
                        <RowAction
                          label={t('pricing.edit')}
                          of={names.get(r.id)}
                          onClick={() => setEditing({ rule: r })}
                        />
                        <RowAction label={t('pricing.delete')} of={names.get(r.id)} onClick={() => setDeleting(r)} />
                      </td>
                    </tr>
                  ))}
                </Table>
              </ScrollBox>
            )
          }}
        </Loaded>
        <div class="actions">
          <button type="button" class="primary" onClick={() => setEditing({})}>
            {t('pricing.add')}
          </button>
        </div>
      </Section>
      <Preview court={court} version={version} />
      {editing && (
        <RuleForm court={court} venue={venue} rule={editing.rule} onClose={() => setEditing(null)} onDone={finished} />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('pricing.deleteTitle')}
          confirm={t('pricing.deleteConfirm')}
          action={() =>
            ok(
              api().DELETE('/api/courts/{court}/pricing/{rule}', {
                params: { path: { court: courtId, rule: String(deleting.id) } },
              }),
            )
          }
          onClose={() => setDeleting(null)}
          onDone={() => finished(t('pricing.deleted'))}
        >
          <p>
            {t('pricing.deleteExplain', {
              from: digits(hhmm(deleting.start_time)),
              to: digits(hhmm(deleting.end_time)),
              price: money(deleting.price_per_hour),
            })}
          </p>
        </ConfirmDialog>
      )}
    </>
  )
}

/**
 * What each rule's buttons are about, unique on the page: its times, court and day ("rule
 * 06:00–09:00, Court A, every day"); when two rules still read the same, their kind and then their
 * price tell them apart.
 */
export function ruleNames(rules: Rule[], court: Court): Map<number, string> {
  const base = (r: Rule) =>
    t('pricing.ruleName', {
      from: digits(hhmm(r.start_time)),
      to: digits(hhmm(r.end_time)),
      court: court.name,
      day: r.day_of_week === null ? t('pricing.everyDayLower') : dayName(r.day_of_week),
    })
  const kind = (r: Rule) => typeName(r.type).toLowerCase()
  const steps = [
    base,
    (r: Rule) => `${base(r)}, ${kind(r)}`,
    (r: Rule) => `${base(r)}, ${kind(r)}, ${money(r.price_per_hour)}`,
  ]
  const names = new Map<number, string>()
  for (const r of rules) {
    let name = ''
    for (const step of steps) {
      name = step(r)
      const same = rules.filter((o) => step(o) === name)
      if (same.length === 1) break
    }
    // Identical rules in every respect are numbered in the table's order.
    const twins = rules.filter((o) => steps[2](o) === name)
    names.set(r.id, twins.length > 1 ? t('pricing.twin', { name, n: twins.indexOf(r) + 1, total: twins.length }) : name)
  }
  return names
}

function RuleForm({
  court,
  venue,
  rule,
  onClose,
  onDone,
}: {
  court: Court
  venue: VenueHours
  rule?: Rule
  onClose: () => void
  onDone: (message: string) => void
}) {
  const f = useForm({
    type: rule?.type ?? 'peak',
    day_of_week: rule?.day_of_week === null || rule?.day_of_week === undefined ? '' : String(rule.day_of_week),
    start_time: hhmm(rule?.start_time),
    end_time: hhmm(rule?.end_time),
    price_per_hour: rule?.price_per_hour ?? '',
    is_active: rule?.is_active ?? true,
  })
  const v = f.values
  const [outside, setOutside] = useState<string | null>(null)
  async function save(e: Event) {
    e.preventDefault()
    // A price band lies within the opening hours (issue 51): on its day, or every open day.
    const days =
      v.day_of_week === '' ? [0, 1, 2, 3, 4, 5, 6].filter((d) => hoursOn(court, venue, d)) : [Number(v.day_of_week)]
    const problem =
      v.start_time && v.end_time
        ? (days.map((d) => bandProblem(court, venue, d, v.start_time, v.end_time)).find(Boolean) ?? null)
        : null
    setOutside(problem)
    if (problem) return
    await f.submit(async () => {
      const body = {
        type: v.type as RuleType,
        day_of_week: v.day_of_week === '' ? null : Number(v.day_of_week),
        start_time: v.start_time,
        end_time: v.end_time,
        price_per_hour: rupees(v.price_per_hour),
        is_active: v.is_active,
      }
      const path = { court: String(court.id) }
      if (rule)
        await ok(
          api().PUT('/api/courts/{court}/pricing/{rule}', {
            params: { path: { ...path, rule: String(rule.id) } },
            body,
          }),
        )
      else await ok(api().POST('/api/courts/{court}/pricing', { params: { path }, body }))
      onDone(rule ? t('pricing.saved') : t('pricing.added', { court: court.name }))
      return undefined
    })
  }
  return (
    <Dialog title={rule ? t('pricing.editTitle') : t('pricing.add')} onClose={onClose}>
      <form onSubmit={save}>
        <Outcome error={f.error} notice={f.notice} />
        {outside && <Notice kind="error">{outside}</Notice>}
        <div class="row">
          <SelectField label={t('pricing.kind')} options={typeOptions()} {...f.bindSelect('type')} />
          <SelectField label={t('pricing.day')} options={dayOptions()} {...f.bindSelect('day_of_week')} />
        </div>
        <div class="row">
          <Field label={t('pricing.from')} type="time" {...f.bind('start_time')} required />
          <Field label={t('pricing.until')} type="time" {...f.bind('end_time')} required />
          <Field label={t('pricing.priceField')} inputMode="decimal" {...f.bind('price_per_hour')} required />
        </div>
        <div class="field check">
          <span>
            <input id="rule-active" type="checkbox" checked={v.is_active} onChange={f.check('is_active')} />
            <label for="rule-active">{t('pricing.active')}</label>
          </span>
        </div>
        <FormActions submit={rule ? t('pricing.saveRule') : t('pricing.addRule')} busy={f.busy} />
      </form>
    </Dialog>
  )
}

/** The chosen day's slots and their prices, from the availability route (what a customer pays). */
function Preview({ court, version }: { court: Court; version: number }) {
  const [date, setDate] = useState(today)
  const preview = useLoad(
    () =>
      ok(
        api().GET('/api/courts/{court}/availability', {
          params: { path: { court: String(court.id) }, query: { date } },
        }),
      ),
    [court.id, date, version],
  )
  return (
    <Section title={t('pricing.preview')}>
      <div class="row">
        <Field
          label={t('pricing.previewDate')}
          type="date"
          min={today()}
          value={date}
          onInput={(e) => e.currentTarget.value && setDate(e.currentTarget.value)}
        />
      </div>
      {preview.error && <Notice kind="error">{preview.error}</Notice>}
      {!preview.data ? (
        !preview.error && <Loading what={t('pricing.loadingPrices')} />
      ) : preview.data.is_closed ? (
        <p>{t('pricing.closedOn', { court: court.name, date: previewDate(preview.data.date) })}</p>
      ) : (
        <table class="preview" aria-live="polite">
          <caption>
            {t('pricing.pricesOn', {
              date: previewDate(preview.data.date),
              from: digits(preview.data.open_time),
              to: digits(preview.data.close_time),
            })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('pricing.slot')}</th>
              <th scope="col" class="num">
                {t('pricing.pricePerHour')}
              </th>
            </tr>
          </thead>
          <tbody>
            {preview.data.slots.map((s) => (
              <tr key={s.start_time}>
                <td>{digits(`${s.start_time}–${s.end_time}`)}</td>
                <td class="num">{money(s.price_per_hour)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  )
}

/** The preview's day: "Wed 25 Nov 2026" in English, with the BS date beside it in Nepali. */
function previewDate(date: string): string {
  return dayText(date, longDate(date))
}
