import { useEffect, useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../api.ts'
import { Outcome, useAction } from '../components/account.tsx'
import { formatMoney, t } from '../i18n/index.ts'
import { MethodChoice } from './account/split.tsx'
import { LAST_PAYMENT_KEY } from './payment-return.tsx'

// Joining a match (POST /api/matches/{match}/join) with the wallet or a gateway (eSewa, Khalti,
// Fonepay), as the share page pays a share: a gateway join goes to the gateway's page and comes back
// to the match page (return_url), which then follows the payment until the service has settled it.

type Method = Schemas['SharePaymentMethod']

/** The join form: the way to pay and the button. `here` is the match page's own address (path and query). */
export function JoinMatch(props: {
  id: string
  token: string | null
  price: string
  here: string
  onJoined: (notice: string) => void
}) {
  const [method, setMethod] = useState<Method>('wallet')
  const action = useAction()
  const join = (e: Event) => {
    e.preventDefault()
    void action.run(async () => {
      const answer = await ok(
        api().POST('/api/matches/{match}/join', {
          params: { path: { match: props.id } },
          body: {
            token: props.token ?? undefined,
            method,
            return_url: method === 'wallet' ? undefined : `${location.origin}${props.here}`,
          },
        }),
      )
      const url = (answer.data as { payment_url?: string }).payment_url
      if (url) {
        sessionStorage.setItem(LAST_PAYMENT_KEY, String(answer.data.payment.id))
        location.assign(url)
        return t('matches.toGateway')
      }
      // The form goes once the player is listed: the page says it (onJoined).
      props.onJoined(t('matches.joined'))
      return undefined
    })
  }
  return (
    <form class="card" onSubmit={join} aria-labelledby="join-title">
      <h2 id="join-title">{t('matches.joinTitle')}</h2>
      <MethodChoice method={method} onChange={setMethod} disabled={action.busy} />
      <Outcome notice={action.notice} message={action.message} />
      <button type="submit" class="wide" disabled={action.busy}>
        {t('matches.join', { price: formatMoney(props.price) })}
      </button>
    </form>
  )
}

const POLL_MS = 1500
const GIVE_UP_MS = 3 * 60 * 1000

/**
 * Back on the match page from a gateway (?payment_id= added by the gateway's return): asks
 * GET /api/payments/{payment} until the service has settled it, says how it went and reloads the match.
 */
export function JoinPayment({ payment, onSettled }: { payment: string; onSettled: () => void }) {
  const [status, setStatus] = useState<string>('initiated')
  const [error, setError] = useState<unknown>(null)
  useEffect(() => {
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const started = Date.now()
    const ask = async () => {
      try {
        const { data } = await ok(api().GET('/api/payments/{payment}', { params: { path: { payment } } }))
        if (!live) return
        setStatus(data.status)
        if (data.status !== 'initiated') {
          onSettled()
          return
        }
      } catch (err) {
        if (!live) return
        setError(err)
        return
      }
      if (Date.now() - started < GIVE_UP_MS) timer = setTimeout(ask, POLL_MS)
    }
    void ask()
    return () => {
      live = false
      if (timer) clearTimeout(timer)
    }
  }, [payment])
  if (error) return <p role="alert">{t('matches.paymentUnknown')}</p>
  if (status === 'initiated') return <p role="status">{t('matches.paymentWaiting')}</p>
  if (status === 'completed')
    return (
      <p role="status" class="notice">
        {t('matches.joined')}
      </p>
    )
  return <p role="alert">{t('matches.paymentFailed')}</p>
}
