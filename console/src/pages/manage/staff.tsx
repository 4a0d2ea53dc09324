import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { ConfirmDialog, Loaded, Outcome, Section, Table, useForm, useLoad } from '../../components/forms.tsx'
import { Field, RowAction, SelectField } from '../../components/ui.tsx'
import type { TabProps } from './index.tsx'

// Managers and staff of the venue (the owner's page, issue 51): invite anyone by email with a role
// (an existing account is notified and joins only when it accepts; anyone else creates an account
// from the mailed link), see pending invitations, resend or withdraw them, remove someone.

type Member = Schemas['StaffMember']
type Invitation = Schemas['VenueInvitation']
const ROLES = [
  { value: 'staff', label: 'Staff' },
  { value: 'manager', label: 'Manager' },
]
const roleName = (role: string) => (role === 'manager' ? 'Manager' : 'Staff')

export function StaffTab({ venue }: TabProps) {
  const venueId = String(venue.id)
  const staff = useLoad(
    () => ok(api().GET('/api/venues/{venue}/staff', { params: { path: { venue: venueId } } })).then((r) => r.data),
    [venueId],
  )
  const invitations = useLoad(
    () =>
      ok(api().GET('/api/venues/{venue}/invitations', { params: { path: { venue: venueId } } })).then((r) => r.data),
    [venueId],
  )
  const f = useForm({ email: '', role: 'staff' })
  const rows = useForm({})
  const [removing, setRemoving] = useState<Member | null>(null)
  const [withdrawing, setWithdrawing] = useState<Invitation | null>(null)

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
      invitations.reload()
      const d = saved.data
      return d.has_account
        ? `${d.email} has a Courtside account: they were notified and emailed, and join as ${d.role} when they accept.`
        : `${d.email} was emailed a link to create an account and join as ${d.role} (valid until ${d.expires_at.slice(0, 16)}).`
    })
  }

  function resend(inv: Invitation) {
    rows.submit(async () => {
      const answer = await ok(
        api().POST('/api/venues/{venue}/invitations/{invitation}/resend', {
          params: { path: { venue: venueId, invitation: String(inv.id) } },
        }),
      )
      invitations.reload()
      return `The invitation to ${inv.email} was sent again (valid until ${answer.data.expires_at.slice(0, 16)}).`
    })
  }

  return (
    <div class="manage-stack">
      <Section title="Staff and managers">
        <Loaded state={staff} loading="Loading staff" empty="Nobody else works here yet.">
          {(list) => (
            <Table caption={`Staff of ${venue.name}`} columns={['Name', 'Email', 'Phone', 'Role', 'Since', 'Actions']}>
              {list.map((m) => (
                <tr key={m.id}>
                  <td>{m.name}</td>
                  <td>{m.email}</td>
                  <td>{m.phone ?? ''}</td>
                  <td>{roleName(m.role)}</td>
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
      <Section title="Pending invitations">
        <Outcome error={rows.error} notice={rows.notice} />
        <Loaded state={invitations} loading="Loading invitations" empty="No invitation is waiting for an answer.">
          {(list) => (
            <Table
              caption={`Invitations to ${venue.name} not accepted yet`}
              columns={['Email', 'Role', 'Status', 'Valid until', 'Actions']}
            >
              {list.map((inv) => (
                <tr key={inv.id}>
                  <td>{inv.email}</td>
                  <td>{roleName(inv.role)}</td>
                  <td>{inv.status === 'expired' ? 'Expired' : 'Waiting'}</td>
                  <td>{inv.expires_at.slice(0, 16)}</td>
                  <td class="row-actions">
                    <RowAction label="Resend" of={inv.email} disabled={rows.busy} onClick={() => resend(inv)} />
                    <RowAction label="Withdraw" of={inv.email} onClick={() => setWithdrawing(inv)} />
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </Loaded>
      </Section>
      <Section title="Invite by email">
        <p class="muted">
          Anyone can be invited. Someone who has a Courtside account with this email gets a notification and an email
          and joins when they accept; anyone else gets an email with a link to create their account. Invitations are
          valid for 7 days.
        </p>
        <form onSubmit={invite}>
          <Outcome error={f.error} notice={f.notice} />
          <div class="row">
            <Field label="Email" type="email" autoComplete="off" {...f.bind('email')} required />
            <SelectField label="Role" options={ROLES} {...f.bindSelect('role')} />
          </div>
          <p class="muted">
            Staff work the day board, bookings and payments; managers also courts, prices, coupons and details.
          </p>
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
      {withdrawing && (
        <ConfirmDialog
          title={`Withdraw the invitation to ${withdrawing.email}?`}
          confirm="Withdraw"
          action={() =>
            ok(
              api().DELETE('/api/venues/{venue}/invitations/{invitation}', {
                params: { path: { venue: venueId, invitation: String(withdrawing.id) } },
              }),
            )
          }
          onClose={() => setWithdrawing(null)}
          onDone={() => {
            setWithdrawing(null)
            rows.setNotice(`The invitation to ${withdrawing.email} was withdrawn: its link no longer works.`)
            invitations.reload()
          }}
        >
          <p>The link in their email will stop working. You can invite them again later.</p>
        </ConfirmDialog>
      )}
    </div>
  )
}
