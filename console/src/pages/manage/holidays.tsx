import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { ConfirmDialog, Loaded, Outcome, Section, Table, today, useForm, useLoad } from '../../components/forms.tsx'
import { Field, RowAction } from '../../components/ui.tsx'
import { longDate } from '../../format.ts'
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
      return `${saved.data.name} on ${longDate(saved.data.date)} is added.`
    })
  }
  return (
    <div class="manage-stack">
      <Section title="Holidays">
        <p class="muted">On a holiday the court's holiday pricing rules apply.</p>
        <Loaded state={holidays} loading="Loading holidays" empty="No holidays yet.">
          {(rows) => (
            <Table caption="Holidays" columns={['Date', 'Name', 'Actions']}>
              {rows.map((h) => (
                <tr key={h.id}>
                  <td>{longDate(h.date)}</td>
                  <td>{h.name}</td>
                  <td>
                    <RowAction label="Remove" of={h.name} onClick={() => setRemoving(h)} />
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </Loaded>
      </Section>
      <Section title="Add a holiday">
        <form onSubmit={add}>
          <Outcome error={f.error} notice={f.notice} />
          <div class="row">
            <Field label="Date" type="date" min={today()} {...f.bind('date')} required />
            <Field label="Holiday name" {...f.bind('name')} required />
          </div>
          <div class="actions">
            <button type="submit" class="primary" disabled={f.busy}>
              Add holiday
            </button>
          </div>
        </form>
      </Section>
      {removing && (
        <ConfirmDialog
          title={`Remove ${removing.name}?`}
          confirm="Remove holiday"
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
            f.setNotice(`${removing.name} is removed.`)
            holidays.reload()
          }}
        >
          <p>{longDate(removing.date)} will be priced like any other day.</p>
        </ConfirmDialog>
      )}
    </div>
  )
}
