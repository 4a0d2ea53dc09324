import { api, ok } from '../../api.ts'
import { Loaded, Outcome, SignedIn, useAction, useLoad } from '../../components/account.tsx'
import { formatDate, formatDigits, t } from '../../i18n/index.ts'
import { Link } from '../../router.ts'

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
                    <BookingLink type={n.type} data={n.data} />
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

/** Notifications that ask for a payment: the booking is held and waits to be paid. */
const ASKS_TO_PAY = ['WaitlistOffer', 'SeriesPaymentDue']

/**
 * A link to the booking a notification is about (its data's booking_id and booking_type): "Pay now"
 * for a waitlist offer or a series week due, "See the booking" otherwise.
 */
function BookingLink({ type, data }: { type: string; data: Record<string, unknown> }) {
  const id = data.booking_id
  const kind = data.booking_type
  if (typeof id !== 'number' || !Number.isInteger(id) || (kind !== 'court' && kind !== 'indoor')) return null
  const pay = ASKS_TO_PAY.some((name) => type.endsWith(`\\${name}`) || type === name)
  return (
    <p>
      <Link class={pay ? 'button' : 'button secondary'} href={`/bookings/${kind}/${id}`}>
        {t(pay ? 'held.payNow' : 'held.open')}
      </Link>
    </p>
  )
}
