import { useEffect, useState } from 'preact/hooks'
import { ApiError, api, ok, type Schemas } from '../api.ts'
import { RefundWarning, SlotFacts } from '../components/slot-facts.tsx'
import { Failure, Loading } from '../components/ui.tsx'
import { isIsoDate, minutes } from '../dates.ts'
import { formatDate, formatDigits, formatMoney, t } from '../i18n/index.ts'
import { fromPaisa, slotPrice, toPaisa } from '../money.ts'
import { Link, navigate } from '../router.ts'
import { currentSession, useSession } from '../session.ts'

type Method = Schemas['PaymentMethod']
const METHODS: Method[] = ['gateway_1', 'gateway_2', 'gateway_3', 'wallet', 'cash']

interface Request {
  kind: 'court' | 'game'
  id: number
  date: string
  start: string
  end: string
}

/** The booking the address asks for (/book?court=3&date=2026-11-27&start=18:00&end=19:00), if it is one. */
function parse(query: URLSearchParams): Request | null {
  const court = query.get('court')
  const game = query.get('game')
  const id = Number(court ?? game)
  const date = query.get('date')
  const start = query.get('start') ?? ''
  const end = query.get('end') ?? ''
  const time = /^\d{2}:\d{2}$/
  if (!Number.isInteger(id) || id <= 0 || !isIsoDate(date) || !time.test(start) || !time.test(end)) return null
  if (minutes(end) <= minutes(start)) return null
  return { kind: court ? 'court' : 'game', id, date, start, end }
}

interface Details {
  name: string
  venue: { id: number; name: string; slug: string }
  /** Paisa, before any coupon. */
  price: number
  /** Every slot of the range is free now. */
  free: boolean
  wallet: string
  /** The venue's allows_pay_at_venue: whether "Pay at the venue" is offered. */
  payAtVenue: boolean
  /** The venue's free_cancellation_hours: a start closer than that is warned about before paying. */
  cancelHours: number | null
}

/**
 * Reviewing a booking before paying: what, where, when and the price; a coupon (courts); how to
 * pay: eSewa, Khalti, Fonepay (the browser goes to the gateway and comes back to
 * /payments/:id/return), the wallet, or at the venue (only where the venue allows it:
 * allows_pay_at_venue). The booking is created only on "Book and
 * pay", with an idempotency key, so a double tap books once.
 */
export function BookPage({ query }: { query: URLSearchParams }) {
  const request = parse(query)
  const session = useSession()
  const here = `${location.pathname}${location.search}`
  if (!request) {
    return (
      <section>
        <h1>{t('book.title')}</h1>
        <p role="alert">{t('book.invalid')}</p>
        <Link href="/">{t('app.home')}</Link>
      </section>
    )
  }
  if (!session) {
    return (
      <section>
        <h1>{t('book.title')}</h1>
        <GateSummary request={request} />
        <p>{t('book.signInFirst')}</p>
        <p class="actions">
          <Link class="button" href={`/signin?next=${encodeURIComponent(here)}`}>
            {t('nav.signIn')}
          </Link>
          <Link class="button secondary" href={`/signup?next=${encodeURIComponent(here)}`}>
            {t('auth.signUp')}
          </Link>
        </p>
      </section>
    )
  }
  return <Checkout key={here} request={request} />
}

/** The sign-in gate's reminder of the choice: venue, court or game, date, time and price (public reads). */
function GateSummary({ request }: { request: Request }) {
  const [details, setDetails] = useState<Details | null>(null)
  useEffect(() => {
    loadDetails(request)
      .then(setDetails)
      .catch(() => setDetails(null))
  }, [request.kind, request.id, request.date, request.start, request.end])
  if (!details) return null
  return (
    <div class="card">
      <h2>{t('gate.choice')}</h2>
      <SlotFacts
        kind={request.kind}
        place={details.name}
        venue={details.venue}
        date={request.date}
        start={request.start}
        end={request.end}
        price={fromPaisa(details.price)}
      />
    </div>
  )
}

async function loadDetails(r: Request): Promise<Details> {
  // Signed out (the sign-in gate), there is no wallet to read.
  const wallet = !currentSession()
    ? Promise.resolve('0.00')
    : ok(api().GET('/api/wallet', { params: { query: { per_page: 1 } } }))
        .then((w) => w.balance)
        .catch(() => '0.00')
  const within = (s: { start_time: string; end_time: string }) =>
    minutes(s.start_time) >= minutes(r.start) && minutes(s.end_time) <= minutes(r.end)
  if (r.kind === 'court') {
    const path = { court: String(r.id) }
    const [{ data: court }, day] = await Promise.all([
      ok(api().GET('/api/courts/{court}', { params: { path } })),
      ok(api().GET('/api/courts/{court}/availability', { params: { path, query: { date: r.date } } })),
    ])
    const { data: venue } = await ok(
      api().GET('/api/venues/{venue}', { params: { path: { venue: String(court.venue_id) } } }),
    )
    const slots = day.slots.filter(within)
    return {
      name: court.name,
      venue: { id: venue.id, name: venue.name, slug: venue.slug },
      price: slots.reduce((sum, s) => sum + slotPrice(s.price_per_hour, day.slot_minutes), 0),
      free: slots.length > 0 && slots.every((s) => s.is_available),
      wallet: await wallet,
      payAtVenue: venue.allows_pay_at_venue,
      cancelHours: venue.free_cancellation_hours,
    }
  }
  const path = { indoorGame: String(r.id) }
  const [{ data: game }, day] = await Promise.all([
    ok(api().GET('/api/indoor-games/{indoorGame}', { params: { path } })),
    ok(api().GET('/api/indoor-games/{indoorGame}/availability', { params: { path, query: { date: r.date } } })),
  ])
  const slots = day.slots.filter(within)
  return {
    name: game.name,
    venue: game.venue,
    price: slots.reduce((sum) => sum + slotPrice(game.price_per_hour, day.slot_minutes), 0),
    free: slots.length > 0 && slots.every((s) => s.is_available),
    wallet: await wallet,
    // The game carries its venue's settings: no request for the venue.
    payAtVenue: game.allows_pay_at_venue,
    cancelHours: game.free_cancellation_hours,
  }
}

interface Coupon {
  code: string
  discount: string
  final: string
}

function Checkout({ request }: { request: Request }) {
  const [details, setDetails] = useState<Details | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [coupon, setCoupon] = useState<Coupon | null>(null)
  const [method, setMethod] = useState<Method>('gateway_1')
  const [busy, setBusy] = useState(false)
  const [payError, setPayError] = useState<unknown>(null)
  const [done, setDone] = useState<{ number: string; amount: string } | null>(null)
  const [attempt] = useState(() => crypto.randomUUID())

  useEffect(() => {
    loadDetails(request).then(setDetails).catch(setError)
  }, [])

  if (error) return <Failure error={error} />
  if (!details) return <Loading />

  const total = coupon ? coupon.final : fromPaisa(details.price)
  const walletShort = toPaisa(details.wallet) < toPaisa(total)
  const when = formatDigits(`${request.start}–${request.end}`)

  if (done) {
    return (
      <section>
        <h1>{t('book.booked')}</h1>
        <p role="status">{t('book.payAtVenue', { number: done.number, amount: formatMoney(done.amount) })}</p>
        <p>
          <Link href="/bookings">{t('nav.bookings')}</Link>
        </p>
      </section>
    )
  }

  const pay = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    setPayError(null)
    try {
      const headers = { 'idempotency-key': attempt }
      const booking =
        request.kind === 'court'
          ? (
              await ok(
                api().POST('/api/bookings', {
                  params: { header: headers },
                  body: {
                    court_id: request.id,
                    date: request.date,
                    start_time: request.start,
                    end_time: request.end,
                    coupon_code: coupon?.code ?? null,
                    payment_method: method,
                  },
                }),
              )
            ).data
          : (
              await ok(
                api().POST('/api/indoor-game-bookings', {
                  params: { header: headers },
                  body: {
                    indoor_game_id: request.id,
                    date: request.date,
                    start_time: request.start,
                    end_time: request.end,
                  },
                }),
              )
            ).data
      await startPayment(request.kind === 'court' ? 'court' : 'indoor', booking.id, method, (number, amount) =>
        setDone({ number, amount }),
      )
    } catch (err) {
      setPayError(err)
      setBusy(false)
    }
  }

  return (
    <section class="checkout">
      <h1>{t('book.title')}</h1>
      <div class="card">
        <p>
          <strong>{details.name}</strong>
          {' · '}
          <Link href={`/v/${details.venue.slug}`}>{details.venue.name}</Link>
        </p>
        <p>{formatDate(request.date, { weekday: true })}</p>
        <p>{when}</p>
        {!details.free && <p role="alert">{t('book.notFree')}</p>}
      </div>
      {request.kind === 'court' && (
        <CouponForm request={request} coupon={coupon} onCoupon={setCoupon} disabled={busy} />
      )}
      <dl class="price-table card" aria-label={t('book.price')}>
        <dt>{t('book.price')}</dt>
        <dd>{formatMoney(fromPaisa(details.price))}</dd>
        {coupon && (
          <>
            <dt>{t('book.discount', { code: coupon.code })}</dt>
            <dd>−{formatMoney(coupon.discount)}</dd>
          </>
        )}
        <dt>
          <strong>{t('book.total')}</strong>
        </dt>
        <dd>
          <strong data-testid="total">{formatMoney(total)}</strong>
        </dd>
      </dl>
      <form onSubmit={pay}>
        <fieldset class="methods">
          <legend>{t('book.howToPay')}</legend>
          {METHODS.filter((m) => m !== 'cash' || details.payAtVenue).map((m) => {
            const short = m === 'wallet' && walletShort
            return (
              <label key={m} class={method === m ? 'choice on' : 'choice'}>
                <input
                  type="radio"
                  name="method"
                  value={m}
                  checked={method === m}
                  disabled={short || busy}
                  onChange={() => setMethod(m)}
                />
                <span>
                  {t(`gateway.${m}`)}
                  {m === 'wallet' && (
                    <span class="muted small">
                      {' '}
                      · {t('book.walletBalance', { amount: formatMoney(details.wallet) })}
                    </span>
                  )}
                  {m === 'cash' && <span class="muted small"> · {t('book.cashHint')}</span>}
                </span>
              </label>
            )
          })}
          {!details.payAtVenue && <p class="muted small">{t('book.onlineOnly')}</p>}
        </fieldset>
        <RefundWarning date={request.date} start={request.start} hours={details.cancelHours} />
        {payError ? <Failure error={payError} /> : null}
        <button type="submit" class="wide" disabled={busy || !details.free}>
          {busy ? t('book.working') : t('book.confirm', { amount: formatMoney(total) })}
        </button>
      </form>
    </section>
  )
}

/**
 * Pays booking `id` with `method` (POST /api/payments/initiate): a gateway sends the browser to its
 * page; the wallet pays at once and the return page shows it; at the venue there is nothing to pay now.
 */
export async function startPayment(
  kind: 'court' | 'indoor',
  id: number,
  method: Method,
  onPayAtVenue: (number: string, amount: string) => void,
) {
  const answer = await ok(
    api().POST('/api/payments/initiate', {
      params: { header: { 'idempotency-key': crypto.randomUUID() } },
      body: {
        booking_type: kind,
        booking_id: id,
        method,
        return_url: `${location.origin}/payments/return`,
      },
    }),
  )
  const data = answer.data
  if ('payment_url' in data) {
    // The return page is named with the payment's id before leaving, so coming back never depends
    // on what the gateway puts in the address.
    sessionStorage.setItem('courtside.web.lastPayment', String(data.payment.id))
    location.assign(data.payment_url)
    return
  }
  if ('payment' in data && data.payment) {
    navigate(`/payments/${data.payment.id}/return`)
    return
  }
  onPayAtVenue(data.booking.booking_number, data.booking.balance_due)
}

function CouponForm(props: {
  request: Request
  coupon: Coupon | null
  onCoupon: (c: Coupon | null) => void
  disabled: boolean
}) {
  const { request, coupon, onCoupon } = props
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const apply = async (e: Event) => {
    e.preventDefault()
    const text = code.trim()
    if (!text) return
    setBusy(true)
    setError(null)
    try {
      const { data } = await ok(
        api().POST('/api/coupons/validate', {
          body: {
            code: text,
            court_id: request.id,
            date: request.date,
            start_time: request.start,
            end_time: request.end,
          },
        }),
      )
      onCoupon({ code: data.code, discount: data.discount_amount, final: data.final_amount })
    } catch (err) {
      setError(err instanceof ApiError ? (err.field('code') ?? err.message) : String(err))
    } finally {
      setBusy(false)
    }
  }
  if (coupon) {
    return (
      <p class="coupon" role="status">
        {t('book.couponApplied', { code: coupon.code, amount: formatMoney(coupon.discount) })}{' '}
        <button type="button" class="link" onClick={() => onCoupon(null)} disabled={props.disabled}>
          {t('book.removeCoupon')}
        </button>
      </p>
    )
  }
  return (
    <form class="coupon" onSubmit={apply}>
      <label for="coupon-code">{t('book.coupon')}</label>
      <div class="inline">
        <input
          id="coupon-code"
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
          autocomplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'coupon-error' : undefined}
        />
        <button type="submit" class="secondary" disabled={busy || props.disabled}>
          {t('book.apply')}
        </button>
      </div>
      {error && (
        <p id="coupon-error" role="alert">
          {error}
        </p>
      )}
    </form>
  )
}
