import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { ConfirmDialog, Loaded, Outcome, Section, Table, today, useForm, useLoad } from '../../components/forms.tsx'
import { Field, RowAction } from '../../components/ui.tsx'
import { longDate } from '../../format.ts'
import { bothDates, t } from '../../i18n/index.ts'
import type { TabProps } from './index.tsx'

// Holidays of the venue: holiday pricing rules apply on them. One per date, today or later.

type Holiday = Schemas['Holiday']

export function HolidaysTab({ venue }: TabProps) {
  const venueId = String(venue.id)
  const holidays = useLoad(
    () => ok(api().GET('/api/venues/{venue}/holidays', { params: { path: { venue: venueId } } })).then((r) => r.data),
    [venueId],
  )
  const f = useForm({ date: '', name: '' })
  const [removing, setRemoving] = useState<Holiday | null>(null)
  async function add(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      const saved = await ok(
        api().POST('/api/venues/{venue}/holidays', {
          params: { path: { venue: venueId } },
          body: { date: f.values.date, name: f.values.name.trim() },
        }),
      )
      f.setValues({ date: '', name: '' })
      holidays.reload()
      return t('holidays.added', { name: saved.data.name, date: longDate(saved.data.date) })
    })
  }
  return (
    <div class="manage-stack">
      <Section title={t('manage.holidays')}>
        <p class="muted">{t('holidays.explain')}</p>
        <Loaded state={holidays} loading={t('holidays.loading')} empty={t('holidays.none')}>
          {(rows) => (
            <Table
              caption={t('manage.holidays')}
              columns={[t('common.date'), t('holidays.name'), t('cashBack.actions')]}
            >
              {rows.map((h) => (
                <tr key={h.id}>
                  <td>{bothDates(h.date)}</td>
                  <td>{h.name}</td>
                  <td>
                    <RowAction label={t('holidays.remove')} of={h.name} onClick={() => setRemoving(h)} />
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </Loaded>
      </Section>
      <Section title={t('holidays.addTitle')}>
        <form onSubmit={add}>
          <Outcome error={f.error} notice={f.notice} />
          <div class="row">
            <Field label={t('common.date')} type="date" min={today()} {...f.bind('date')} required />
            <Field label={t('holidays.holidayName')} {...f.bind('name')} required />
          </div>
          <div class="actions">
            <button type="submit" class="primary" disabled={f.busy}>
              {t('holidays.add')}
            </button>
          </div>
        </form>
      </Section>
      {removing && (
        <ConfirmDialog
          title={t('holidays.removeTitle', { name: removing.name })}
          confirm={t('holidays.removeConfirm')}
          action={() =>
            ok(
              api().DELETE('/api/venues/{venue}/holidays/{holiday}', {
                params: { path: { venue: venueId, holiday: String(removing.id) } },
              }),
            )
          }
          onClose={() => setRemoving(null)}
          onDone={() => {
            setRemoving(null)
            f.setNotice(t('holidays.removed', { name: removing.name }))
            holidays.reload()
          }}
        >
          <p>{t('holidays.removeExplain', { date: bothDates(removing.date) })}</p>
        </ConfirmDialog>
      )}
    </div>
  )
}
