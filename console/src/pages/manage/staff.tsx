import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { ConfirmDialog, Loaded, Outcome, Section, Table, useForm, useLoad } from '../../components/forms.tsx'
import { Field, RowAction, SelectField } from '../../components/ui.tsx'
import type { TabProps } from './index.tsx'

// Managers and staff of the venue (the owner's page): invite an existing account by email with a
// role (inviting again changes the role), remove someone.

type Member = Schemas['StaffMember']
const ROLES = [
  { value: 'staff', label: 'Staff: the day board, bookings and payments' },
  { value: 'manager', label: 'Manager: also courts, prices, coupons and details' },
]

export function StaffTab({ venue }: TabProps) {
  const venueId = String(venue.id)
  const staff = useLoad(
    () => ok(api().GET('/api/venues/{venue}/staff', { params: { path: { venue: venueId } } })).then((r) => r.data),
    [venueId],
  )
  const f = useForm({ email: '', role: 'staff' })
  const [removing, setRemoving] = useState<Member | null>(null)
  async function invite(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      const saved = await ok(
        api().POST('/api/venues/{venue}/staff', {
          params: { path: { venue: venueId } },
          body: { email: f.values.email.trim(), role: f.values.role as Member['role'] },
        }),
      )
      f.setValues({ email: '', role: 'staff' })
      staff.reload()
      const d = saved.data
      // 201: an account that works here now; 202: an invitation mailed to an address without one.
      return 'name' in d
        ? `${d.name} (${d.email}) now works here as ${d.role}.`
        : `${d.email} has no account yet: an invitation to join as ${d.role} was emailed (valid until ${d.expires_at.slice(0, 10)}).`
    })
  }
  return (
    <div class="manage-stack">
      <Section title="Staff and managers">
        <Loaded state={staff} loading="Loading staff" empty="Nobody else works here yet.">
          {(rows) => (
            <Table caption={`Staff of ${venue.name}`} columns={['Name', 'Email', 'Phone', 'Role', 'Since', 'Actions']}>
              {rows.map((m) => (
                <tr key={m.id}>
                  <td>{m.name}</td>
                  <td>{m.email}</td>
                  <td>{m.phone ?? ''}</td>
                  <td>{m.role === 'manager' ? 'Manager' : 'Staff'}</td>
                  <td>{m.assigned_at.slice(0, 10)}</td>
                  <td>
                    <RowAction label="Remove" of={m.name} onClick={() => setRemoving(m)} />
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </Loaded>
      </Section>
      <Section title="Invite by email">
        <p class="muted">The person needs a Courtside account with this email.</p>
        <form onSubmit={invite}>
          <Outcome error={f.error} notice={f.notice} />
          <div class="row">
            <Field label="Email" type="email" autoComplete="off" {...f.bind('email')} required />
            <SelectField label="Role" options={ROLES} {...f.bindSelect('role')} />
          </div>
          <div class="actions">
            <button type="submit" class="primary" disabled={f.busy}>
              Invite
            </button>
          </div>
        </form>
      </Section>
      {removing && (
        <ConfirmDialog
          title={`Remove ${removing.name}?`}
          confirm="Remove"
          action={() =>
            ok(
              api().DELETE('/api/venues/{venue}/staff/{user}', {
                params: { path: { venue: venueId, user: String(removing.id) } },
              }),
            )
          }
          onClose={() => setRemoving(null)}
          onDone={() => {
            setRemoving(null)
            f.setNotice(`${removing.name} no longer works here.`)
            staff.reload()
          }}
        >
          <p>{removing.name} will no longer see this venue's board or bookings.</p>
        </ConfirmDialog>
      )}
    </div>
  )
}
