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
import { ScrollBox } from '../../components/scroll.tsx'
import { Dialog, Field, RowAction, SelectField } from '../../components/ui.tsx'
import { type MessageKey, t } from '../../i18n/index.ts'

// Every account: search by name, email or phone, filter by role, suspend and restore (a suspended
// account's tokens stop working at once), replace the roles.

type Role = User['roles'][number]
const ROLES: { value: Role; label: MessageKey }[] = [
  { value: 'customer', label: 'admin.role.customer' },
  { value: 'staff', label: 'admin.role.staff' },
  { value: 'manager', label: 'admin.role.manager' },
  { value: 'venue_owner', label: 'admin.role.venue_owner' },
  { value: 'super_admin', label: 'admin.role.super_admin' },
]
const roleLabel = (r: string) => {
  const role = ROLES.find((x) => x.value === r)
  return role ? t(role.label) : r
}
const roleOptions = () => ROLES.map((r) => ({ value: r.value, label: t(r.label) }))

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
      return active ? t('admin.restored', { name: u.name }) : t('admin.suspended', { name: u.name })
    })
  }

  return (
    <Section title={t('admin.users')}>
      <search>
        <form class="row" onSubmit={find} aria-label={t('admin.findUsers')}>
          <Field label={t('admin.search')} type="search" {...filter.bind('search')} />
          <SelectField
            label={t('admin.role')}
            options={[{ value: '', label: t('admin.anyRole') }, ...roleOptions()]}
            {...filter.bindSelect('role')}
          />
          <div class="field field-button">
            <button type="submit" class="primary">
              {t('admin.find')}
            </button>
          </div>
        </form>
      </search>
      <Outcome error={f.error} notice={f.notice} />
      <PagedList
        state={users}
        loading={t('admin.loadingUsers')}
        empty={t('admin.noUsers')}
        label={t('admin.userPages')}
        onPage={(page) => setQuery((q) => ({ ...q, page }))}
      >
        {(rows) => (
          <ScrollBox label={t('admin.usersScroll')}>
            <Table
              caption={t('admin.users')}
              columns={[
                t('admin.name'),
                t('admin.email'),
                t('admin.phone'),
                t('admin.roles'),
                t('admin.status'),
                t('admin.actions'),
              ]}
            >
              {rows.map((u) => (
                <tr key={u.id}>
                  <td>{u.name}</td>
                  <td>{u.email}</td>
                  <td>{u.phone ?? ''}</td>
                  <td>{u.roles.map(roleLabel).join(', ')}</td>
                  <td>
                    {u.is_active ? (
                      t('admin.active')
                    ) : (
                      <strong class="status-suspended">{t('admin.suspendedState')}</strong>
                    )}
                  </td>
                  <td class="row-actions">
                    {u.id !== me &&
                      (u.is_active ? (
                        <RowAction
                          label={t('admin.suspend')}
                          of={u.name}
                          disabled={f.busy}
                          onClick={() => setActive(u, false)}
                        />
                      ) : (
                        <RowAction
                          label={t('admin.restore')}
                          of={u.name}
                          disabled={f.busy}
                          onClick={() => setActive(u, true)}
                        />
                      ))}
                    <RowAction
                      label={t('admin.roles')}
                      of={t('admin.rolesOf', { name: u.name })}
                      onClick={() => setEditing(u)}
                    />
                  </td>
                </tr>
              ))}
            </Table>
          </ScrollBox>
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
      onDone(
        t('admin.rolesSaved', {
          name: saved.data.name,
          roles: saved.data.roles.map(roleLabel).join(', ') || t('admin.noRoles'),
        }),
      )
      return undefined
    })
  }
  return (
    <Dialog title={t('admin.rolesTitle', { name: user.name })} onClose={onClose}>
      <form onSubmit={save}>
        <Outcome error={f.error} notice={f.notice} />
        <fieldset>
          <legend>{t('admin.roles')}</legend>
          {ROLES.map((r) => (
            <CheckField key={r.value} label={t(r.label)} checked={f.values[r.value]} onChange={f.check(r.value)} />
          ))}
          {f.fieldError('roles') && <p class="error">{f.fieldError('roles')}</p>}
        </fieldset>
        <FormActions submit={t('admin.saveRoles')} busy={f.busy} />
      </form>
    </Dialog>
  )
}
