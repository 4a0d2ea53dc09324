import { type MessageKey, t } from '../../i18n/index.ts'
import { href } from '../../router.ts'
import { UsersPage } from './users.tsx'
import { VerificationQueue } from './verification.tsx'

// super_admin pages: the venue verification queue and the user list. app.tsx shows them only to a
// super_admin (and a refusal to anyone else); the service answers 403 to anyone else too.

/** The tabs, each named by its catalogue key (t() at render time, so a language switch renames it). */
export const ADMIN_TABS: { key: string; label: MessageKey }[] = [
  { key: 'verification', label: 'admin.queue' },
  { key: 'users', label: 'admin.users' },
]

export function AdminPage({ tab }: { tab?: string }) {
  const current = ADMIN_TABS.find((x) => x.key === tab) ?? ADMIN_TABS[0]
  return (
    <section>
      <h1>{t('shell.admin')}</h1>
      <nav aria-label={t('shell.admin')}>
        <ul class="tabs">
          {ADMIN_TABS.map((x) => (
            <li key={x.key}>
              <a href={href(`/admin/${x.key}`)} aria-current={x.key === current.key ? 'page' : undefined}>
                {t(x.label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {current.key === 'users' ? <UsersPage /> : <VerificationQueue />}
    </section>
  )
}
