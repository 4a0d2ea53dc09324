import { useEffect, useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../api.ts'
import { SlotFacts, type SlotFactsProps } from '../components/slot-facts.tsx'
import { Failure, Loading } from '../components/ui.tsx'
import { formatMoney, t } from '../i18n/index.ts'
import { Link, navigate } from '../router.ts'
import { useSession } from '../session.ts'

type Payment = Schemas['Payment'] & {
  booking: { booking_number: string; status: Schemas['BookingStatus']; balance_due: string } | null
  /** A wallet top-up's transaction (the wallet page's top-ups come back here too). */
  topup: { balance_after: string | null } | null
}

/** The facts of the booking a payment is for (the customer's own: GET /api/bookings/{id} or the indoor one). */
async function loadFacts(kind: 'court' | 'indoor', id: number): Promise<SlotFactsProps> {
  if (kind === 'court') {
    const { data: b } = await ok(api().GET('/api/bookings/{booking}', { params: { path: { booking: String(id) } } }))
    const place = b.court?.name ?? t('bookings.court')
    return {
      kind: 'court',
      place,
      venue: b.venue,
      date: b.date,
      start: b.start_time,
      end: b.end_time,
      price: b.total_amount,
    }
  }
  const { data: b } = await ok(
    api().GET('/api/indoor-game-bookings/{indoorGameBooking}', {
      params: { path: { indoorGameBooking: String(id) } },
    }),
  )
  return {
    kind: 'game',
    place: b.indoor_game?.name ?? t('bookings.game'),
    venue: b.indoor_game?.venue ?? null,
    date: b.date,
    start: b.start_time,
    end: b.end_time,
    price: b.total_amount,
  }
}

/** How often, and for how long, the page asks the service while a payment is still initiated. */
const POLL_MS = 1500
const GIVE_UP_MS = 3 * 60 * 1000
export const LAST_PAYMENT_KEY = 'courtside.web.lastPayment'

/**
 * Where a gateway sends the customer back (return_url /payments/return?status=&payment_id=):
 * goes to /payments/:id/return for the payment this browser started (remembered before leaving;
 * the address's payment_id otherwise). Nothing else in the address is believed.
 */
export function PaymentLandingPage({ query }: { query: URLSearchParams }) {
  useEffect(() => {
    const started = sessionStorage.getItem(LAST_PAYMENT_KEY)
    const named = query.get('payment_id')
    const id = named && /^\d+$/.test(named) ? named : started
    navigate(id ? `/payments/${id}/return` : '/bookings', true)
  }, [])
  return <Loading />
}

/**
 * Back from a gateway (or after paying from the wallet): asks GET /api/payments/{payment} until the
 * service says the payment is settled. The service settles it with the gateway's own status API
 * (docs/payments.md), so what the redirect said is never shown as the outcome.
 */
export function PaymentReturnPage({ payment }: { payment: string }) {
  const session = useSession()
  const [state, setState] = useState<Payment | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [gaveUp, setGaveUp] = useState(false)
  const [round, setRound] = useState(0)
  const [facts, setFacts] = useState<SlotFactsProps | null>(null)
  const kind = state?.booking_type
  const bookingId = state?.booking_id

  // What was paid for: venue, court or game, date, time, price (read once the payment is known).
  useEffect(() => {
    if (!session || (kind !== 'court' && kind !== 'indoor') || bookingId === undefined) return
    let live = true
    loadFacts(kind, bookingId)
      .then((f) => live && setFacts(f))
      .catch(() => live && setFacts(null))
    return () => {
      live = false
    }
  }, [kind, bookingId, session?.token])

  useEffect(() => {
    if (!session) return
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const started = Date.now()
    setGaveUp(false)
    const ask = async () => {
      try {
        const { data } = await ok(api().GET('/api/payments/{payment}', { params: { path: { payment } } }))
        if (!live) return
        setError(null)
        setState(data as Payment)
        if (data.status !== 'initiated') return
      } catch (err) {
        if (!live) return
        setError(err)
      }
      if (Date.now() - started > GIVE_UP_MS) setGaveUp(true)
      else timer = setTimeout(ask, POLL_MS)
    }
    ask()
    return () => {
      live = false
      if (timer) clearTimeout(timer)
    }
  }, [payment, session?.token, round])

  if (!session) {
    return (
      <section>
        <h1>{t('pay.title')}</h1>
        <p>{t('pay.signIn')}</p>
        <Link class="button" href={`/signin?next=${encodeURIComponent(location.pathname)}`}>
          {t('nav.signIn')}
        </Link>
      </section>
    )
  }

  const status = state?.status
  return (
    <section class="pay-return">
      <h1>{t('pay.title')}</h1>
      <div aria-live="polite" role="status" class="card">
        {!state && !error && <p>{t('pay.checking')}</p>}
        {status === 'initiated' && !gaveUp && <p>{t('pay.checking')}</p>}
        {status === 'initiated' && gaveUp && <p>{t('pay.stillWaiting')}</p>}
        {(status === 'completed' || status === 'partially_refunded' || status === 'refunded') && state && (
          <>
            <p class="ok-text">
              <strong>{t('pay.paid', { amount: formatMoney(state.amount) })}</strong>
            </p>
            {facts && <SlotFacts {...facts} />}
            {state.booking && (
              <p>
                {t('pay.booking', {
                  number: state.booking.booking_number,
                  status: t(`status.${state.booking.status}`),
                })}
              </p>
            )}
            {state.topup && (
              <p>
                {t('wallet.topUpDone', { amount: formatMoney(state.topup.balance_after ?? state.amount) })}{' '}
                <Link href="/wallet">{t('nav.wallet')}</Link>
              </p>
            )}
          </>
        )}
        {status === 'failed' && state && (
          <>
            <p>
              <strong>{t('pay.failed')}</strong>
            </p>
            {facts && <SlotFacts {...facts} />}
            {state.booking && state.booking.status === 'pending' && (
              <p>
                {t('pay.stillHeld', { number: state.booking.booking_number })}{' '}
                {(kind === 'court' || kind === 'indoor') && (
                  <Link class="button" href={`/bookings/${kind}/${state.booking_id}`}>
                    {t('held.payNow')}
                  </Link>
                )}
              </p>
            )}
          </>
        )}
      </div>
      {error ? <Failure error={error} /> : null}
      {status === 'initiated' && gaveUp && (
        <button type="button" onClick={() => setRound((n) => n + 1)}>
          {t('app.retry')}
        </button>
      )}
      {!state && !error && <Loading />}
      <p class="actions">
        {state?.topup ? (
          <Link href="/wallet">{t('nav.wallet')}</Link>
        ) : (
          <Link href="/bookings">{t('nav.bookings')}</Link>
        )}
        <Link href="/">{t('app.home')}</Link>
      </p>
    </section>
  )
}
