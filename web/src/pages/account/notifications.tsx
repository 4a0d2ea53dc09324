import { api, ok } from '../../api.ts'
import { Loaded, Outcome, SignedIn, useAction, useLoad } from '../../components/account.tsx'
import { formatDate, formatDigits, t } from '../../i18n/index.ts'

/** The in-app inbox (GET /api/notifications): read one, or all. */
export function NotificationsPage() {
  return (
    <SignedIn title={t('notifications.title')}>
      <Notifications />
    </SignedIn>
  )
}

function Notifications() {
  const state = useLoad(() => ok(api().GET('/api/notifications')))
  const action = useAction()
  return (
    <section>
      <h1>{t('notifications.title')}</h1>
      <Loaded state={state}>
        {(page) =>
          page.data.length === 0 ? (
            <p>{t('notifications.none')}</p>
          ) : (
            <>
              {page.data.some((n) => !n.read_at) && (
                <button
                  type="button"
                  class="secondary"
                  disabled={action.busy}
                  onClick={() =>
                    action.run(async () => {
                      await ok(api().POST('/api/notifications/read-all'))
                      state.reload()
                    })
                  }
                >
                  {t('notifications.markAll')}
                </button>
              )}
              <Outcome notice={action.notice} message={action.message} />
              <ul class="cards">
                {page.data.map((n) => (
                  <li key={n.id} class={`card${n.read_at ? '' : ' unread'}`}>
                    {!n.read_at && <strong class="badge">{t('notifications.unread')}</strong>}
                    <p>{n.data.message}</p>
                    <p class="muted">
                      {formatDate(n.created_at.slice(0, 10))} {formatDigits(n.created_at.slice(11, 16))}
                    </p>
                    {!n.read_at && (
                      <button
                        type="button"
                        class="secondary"
                        disabled={action.busy}
                        onClick={() =>
                          action.run(async () => {
                            await ok(api().PATCH('/api/notifications/{id}/read', { params: { path: { id: n.id } } }))
                            state.reload()
                          })
                        }
                      >
                        {t('notifications.markRead')}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            </>
          )
        }
      </Loaded>
    </section>
  )
}
