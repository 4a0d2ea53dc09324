import { useState } from 'preact/hooks'
import { api, currentSession, ok, type User } from '../../api.ts'
import {
  CheckField,
  FormActions,
  Outcome,
  PagedList,
  Section,
  Table,
  useForm,
  useLoad,
} from '../../components/forms.tsx'
import { Dialog, Field, RowAction, SelectField } from '../../components/ui.tsx'

// Every account: search by name, email or phone, filter by role, suspend and restore (a suspended
// account's tokens stop working at once), replace the roles.

type Role = User['roles'][number]
const ROLES: { value: Role; label: string }[] = [
  { value: 'customer', label: 'Customer' },
  { value: 'staff', label: 'Staff' },
  { value: 'manager', label: 'Manager' },
  { value: 'venue_owner', label: 'Venue owner' },
  { value: 'super_admin', label: 'Administrator' },
]
const roleLabel = (r: string) => ROLES.find((x) => x.value === r)?.label ?? r

export function UsersPage() {
  const [query, setQuery] = useState({ search: '', role: '', page: 1 })
  const users = useLoad(
    () =>
      ok(
        api().GET('/api/admin/users', {
          params: {
            query: {
              page: query.page,
              per_page: 20,
              ...(query.search ? { search: query.search } : {}),
              ...(query.role ? { role: query.role as Role } : {}),
            },
          },
        }),
      ),
    [query.search, query.role, query.page],
  )
  const filter = useForm({ search: '', role: '' })
  const f = useForm({})
  const [editing, setEditing] = useState<User | null>(null)
  const me = currentSession()?.user.id

  function find(e: Event) {
    e.preventDefault()
    setQuery({ search: filter.values.search.trim(), role: filter.values.role, page: 1 })
  }

  async function setActive(u: User, active: boolean) {
    await f.submit(async () => {
      await ok(
        api().PATCH('/api/admin/users/{user}', {
          params: { path: { user: String(u.id) } },
          body: { is_active: active },
        }),
      )
      users.reload()
      return active ? `${u.name} is restored and can sign in again.` : `${u.name} is suspended.`
    })
  }

  return (
    <Section title="Users">
      <search>
        <form class="row" onSubmit={find} aria-label="Find users">
          <Field label="Name, email or phone" type="search" {...filter.bind('search')} />
          <SelectField
            label="Role"
            options={[{ value: '', label: 'Any role' }, ...ROLES]}
            {...filter.bindSelect('role')}
          />
          <div class="field field-button">
            <button type="submit" class="primary">
              Find
            </button>
          </div>
        </form>
      </search>
      <Outcome error={f.error} notice={f.notice} />
      <PagedList
        state={users}
        loading="Loading users"
        empty="No user matches."
        label="User list pages"
        onPage={(page) => setQuery((q) => ({ ...q, page }))}
      >
        {(rows) => (
          <Table caption="Users" columns={['Name', 'Email', 'Phone', 'Roles', 'Status', 'Actions']}>
            {rows.map((u) => (
              <tr key={u.id}>
                <td>{u.name}</td>
                <td>{u.email}</td>
                <td>{u.phone ?? ''}</td>
                <td>{u.roles.map(roleLabel).join(', ')}</td>
                <td>{u.is_active ? 'Active' : <strong class="status-suspended">Suspended</strong>}</td>
                <td class="row-actions">
                  {u.id !== me &&
                    (u.is_active ? (
                      <RowAction label="Suspend" of={u.name} disabled={f.busy} onClick={() => setActive(u, false)} />
                    ) : (
                      <RowAction label="Restore" of={u.name} disabled={f.busy} onClick={() => setActive(u, true)} />
                    ))}
                  <RowAction label="Roles" of={`of ${u.name}`} onClick={() => setEditing(u)} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </PagedList>
      {editing && (
        <RolesDialog
          user={editing}
          onClose={() => setEditing(null)}
          onDone={(message) => {
            setEditing(null)
            f.setError(null)
            f.setNotice(message)
            users.reload()
          }}
        />
      )}
    </Section>
  )
}

function RolesDialog({ user, onClose, onDone }: { user: User; onClose: () => void; onDone: (m: string) => void }) {
  const f = useForm(
    Object.fromEntries(ROLES.map((r) => [r.value, user.roles.includes(r.value)])) as Record<Role, boolean>,
  )
  async function save(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      const roles = ROLES.map((r) => r.value).filter((r) => f.values[r])
      const saved = await ok(
        api().PATCH('/api/admin/users/{user}', { params: { path: { user: String(user.id) } }, body: { roles } }),
      )
      onDone(`${saved.data.name} now has the roles: ${saved.data.roles.map(roleLabel).join(', ') || 'none'}.`)
      return undefined
    })
  }
  return (
    <Dialog title={`Roles of ${user.name}`} onClose={onClose}>
      <form onSubmit={save}>
        <Outcome error={f.error} notice={f.notice} />
        <fieldset>
          <legend>Roles</legend>
          {ROLES.map((r) => (
            <CheckField key={r.value} label={r.label} checked={f.values[r.value]} onChange={f.check(r.value)} />
          ))}
          {f.fieldError('roles') && <p class="error">{f.fieldError('roles')}</p>}
        </fieldset>
        <FormActions submit="Save roles" busy={f.busy} />
      </form>
    </Dialog>
  )
}
