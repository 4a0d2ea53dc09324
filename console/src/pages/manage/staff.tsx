import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { ConfirmDialog, Loaded, Outcome, Section, Table, useForm, useLoad } from '../../components/forms.tsx'
import { ScrollBox } from '../../components/scroll.tsx'
import { Field, RowAction, SelectField } from '../../components/ui.tsx'
import { localName, t } from '../../i18n/index.ts'
import { dayText, momentText } from '../../i18n/moments.ts'
import type { TabProps } from './index.tsx'

// Managers and staff of the venue (the owner's page, issue 51): invite anyone by email with a role
// (an existing account is notified and joins only when it accepts; anyone else creates an account
// from the mailed link), see pending invitations, resend or withdraw them, remove someone.

type Member = Schemas['StaffMember']
type Invitation = Schemas['VenueInvitation']
const roles = () => [
  { value: 'staff', label: t('staff.role.staff') },
  { value: 'manager', label: t('staff.role.manager') },
]
const roleName = (role: string) => (role === 'manager' ? t('staff.role.manager') : t('staff.role.staff'))
/** The role inside a sentence ("join as manager" / "म्यानेजरका रूपमा"). */
const roleWord = (role: string) => (role === 'manager' ? t('staff.joinAs.manager') : t('staff.joinAs.staff'))
/** "2026-03-17 09:00" (English, as always) or the date with its BS date and time in Nepali. */
const until = (instant: string) => momentText(instant, instant.slice(0, 16))

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
        ? t('staff.invitedMember', { email: d.email, role: roleWord(d.role) })
        : t('staff.invitedNew', { email: d.email, role: roleWord(d.role), until: until(d.expires_at) })
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
      return t('staff.resent', { email: inv.email, until: until(answer.data.expires_at) })
    })
  }

  return (
    <div class="manage-stack">
      <Section title={t('staff.title')}>
        <Loaded state={staff} loading={t('staff.loading')} empty={t('staff.none')}>
          {(list) => (
            <ScrollBox label={t('staff.scroll', { venue: localName(venue) })}>
              <Table
                caption={t('staff.caption', { venue: localName(venue) })}
                columns={[
                  t('staff.name'),
                  t('staff.email'),
                  t('staff.phone'),
                  t('staff.role'),
                  t('staff.since'),
                  t('staff.actions'),
                ]}
              >
                {list.map((m) => (
                  <tr key={m.id}>
                    <td>{m.name}</td>
                    <td>{m.email}</td>
                    <td>{m.phone ?? ''}</td>
                    <td>{roleName(m.role)}</td>
                    <td>{dayText(m.assigned_at)}</td>
                    <td>
                      <RowAction label={t('staff.remove')} of={m.name} onClick={() => setRemoving(m)} />
                    </td>
                  </tr>
                ))}
              </Table>
            </ScrollBox>
          )}
        </Loaded>
      </Section>
      <Section title={t('staff.pending')}>
        <Outcome error={rows.error} notice={rows.notice} />
        <Loaded state={invitations} loading={t('staff.loadingInvitations')} empty={t('staff.noInvitations')}>
          {(list) => (
            <ScrollBox label={t('staff.invitationsScroll', { venue: localName(venue) })}>
              <Table
                caption={t('staff.invitationsCaption', { venue: localName(venue) })}
                columns={[
                  t('staff.email'),
                  t('staff.role'),
                  t('staff.status'),
                  t('staff.validUntil'),
                  t('staff.actions'),
                ]}
              >
                {list.map((inv) => (
                  <tr key={inv.id}>
                    <td>{inv.email}</td>
                    <td>{roleName(inv.role)}</td>
                    <td>{inv.status === 'expired' ? t('staff.expired') : t('staff.waiting')}</td>
                    <td>{until(inv.expires_at)}</td>
                    <td class="row-actions">
                      <RowAction
                        label={t('staff.resend')}
                        of={inv.email}
                        disabled={rows.busy}
                        onClick={() => resend(inv)}
                      />
                      <RowAction label={t('staff.withdraw')} of={inv.email} onClick={() => setWithdrawing(inv)} />
                    </td>
                  </tr>
                ))}
              </Table>
            </ScrollBox>
          )}
        </Loaded>
      </Section>
      <Section title={t('staff.inviteTitle')}>
        <p class="muted">{t('staff.inviteExplain')}</p>
        <form onSubmit={invite}>
          <Outcome error={f.error} notice={f.notice} />
          <div class="row">
            <Field label={t('staff.email')} type="email" autoComplete="off" {...f.bind('email')} required />
            <SelectField label={t('staff.role')} options={roles()} {...f.bindSelect('role')} />
          </div>
          <p class="muted">{t('staff.rolesExplain')}</p>
          <div class="actions">
            <button type="submit" class="primary" disabled={f.busy}>
              {t('staff.invite')}
            </button>
          </div>
        </form>
      </Section>
      {removing && (
        <ConfirmDialog
          title={t('staff.removeTitle', { name: removing.name })}
          confirm={t('staff.remove')}
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
            f.setNotice(t('staff.removed', { name: removing.name }))
            staff.reload()
          }}
        >
          <p>{t('staff.removeExplain', { name: removing.name })}</p>
        </ConfirmDialog>
      )}
      {withdrawing && (
        <ConfirmDialog
          title={t('staff.withdrawTitle', { email: withdrawing.email })}
          confirm={t('staff.withdraw')}
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
            rows.setNotice(t('staff.withdrawn', { email: withdrawing.email }))
            invitations.reload()
          }}
        >
          <p>{t('staff.withdrawExplain')}</p>
        </ConfirmDialog>
      )}
    </div>
  )
}
