import { href } from '../../router.ts'
import { UsersPage } from './users.tsx'
import { VerificationQueue } from './verification.tsx'

// super_admin pages: the venue verification queue and the user list. app.tsx shows them only to a
// super_admin (and a refusal to anyone else); the service answers 403 to anyone else too.

export const ADMIN_TABS = [
  { key: 'verification', label: 'Verification queue' },
  { key: 'users', label: 'Users' },
]

export function AdminPage({ tab }: { tab?: string }) {
  const current = ADMIN_TABS.find((t) => t.key === tab) ?? ADMIN_TABS[0]
  return (
    <section>
      <h1>Administration</h1>
      <nav aria-label="Administration">
        <ul class="tabs">
          {ADMIN_TABS.map((t) => (
            <li key={t.key}>
              <a href={href(`/admin/${t.key}`)} aria-current={t.key === current.key ? 'page' : undefined}>
                {t.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {current.key === 'users' ? <UsersPage /> : <VerificationQueue />}
    </section>
  )
}
