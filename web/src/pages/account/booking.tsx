import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { Loaded, SignedIn, useLoad } from '../../components/account.tsx'
import { payBy, RefundWarning, SlotFacts } from '../../components/slot-facts.tsx'
import { Failure } from '../../components/ui.tsx'
import { formatMoney, t } from '../../i18n/index.ts'
import { fromPaisa, toPaisa } from '../../money.ts'
import { Link } from '../../router.ts'
import { startPayment } from '../book.tsx'
import { type Kind, payable } from './bookings-data.ts'
import { loadSplit, SharesCard, type Split, SplitForm } from './split.tsx'

type Method = Schemas['PaymentMethod']
/** Paying now: a gateway or the wallet (choosing to pay at the venue is made when booking). */
const METHODS: Method[] = ['gateway_1', 'gateway_2', 'gateway_3', 'wallet']

/** One of the customer's bookings as this page shows it, court or indoor. */
interface Held {
  kind: Kind
  id: number
  number: string
  status: Schemas['BookingStatus']
  place: string
  venue: { id: number; name: string; slug: string } | null
  date: string
  start: string
  end: string
  total: string
  paid: string
  due: string
  holdExpiresAt: string | null
  /** The venue's free_cancellation_hours (null when the venue could not be read). */
  cancelHours: number | null
  wallet: string
  /** A court booking's split into shares (docs/web.md, "Split payment"); null when not split. */
  split: Split | null
}

async function loadHeld(kind: Kind, id: string): Promise<Held> {
  const wallet = ok(api().GET('/api/wallet', { params: { query: { per_page: 1 } } }))
    .then((w) => w.balance)
    .catch(() => '0.00')
  const hoursOf = (venueId: number) =>
    ok(api().GET('/api/venues/{venue}', { params: { path: { venue: String(venueId) } } }))
      .then((v) => v.data.free_cancellation_hours)
      .catch(() => null)
  if (kind === 'court') {
    const { data: b } = await ok(api().GET('/api/bookings/{booking}', { params: { path: { booking: id } } }))
    return {
      kind,
      id: b.id,
      number: b.booking_number,
      status: b.status,
      place: b.court?.name ?? t('bookings.court'),
      venue: b.venue,
      date: b.date,
      start: b.start_time,
      end: b.end_time,
      total: b.total_amount,
      paid: b.paid_amount,
      due: b.balance_due,
      holdExpiresAt: b.hold_expires_at,
      cancelHours: await hoursOf(b.venue_id),
      wallet: await wallet,
      split: b.status === 'pending' || b.status === 'confirmed' ? await loadSplit(b.id) : null,
    }
  }
  const { data: b } = await ok(
    api().GET('/api/indoor-game-bookings/{indoorGameBooking}', { params: { path: { indoorGameBooking: id } } }),
  )
  const venue = b.indoor_game?.venue ?? null
  return {
    kind,
    id: b.id,
    number: b.booking_number,
    status: b.status,
    place: b.indoor_game?.name ?? t('bookings.game'),
    venue,
    date: b.date,
    start: b.start_time,
    end: b.end_time,
    total: b.total_amount,
    paid: b.paid_amount,
    due: fromPaisa(Math.max(toPaisa(b.total_amount) - toPaisa(b.paid_amount), 0)),
    holdExpiresAt: b.hold_expires_at,
    // The game carries its venue's cancellation window.
    cancelHours: b.indoor_game?.free_cancellation_hours ?? null,
    wallet: await wallet,
    split: null,
  }
}

/**
 * A booking's own page (/bookings/court/:id, /bookings/indoor/:id): what, where, when and the price,
 * and for a booking still to pay (the customer's own hold, a waitlist offer, a week of a series)
 * "Pay now" with its deadline: a gateway or the wallet through POST /api/payments/initiate, then the
 * payment's result page. The waitlist offer's and the series reminder's notifications link here.
 */
export function BookingPage({ kind, id }: { kind: Kind; id: string }) {
  return (
    <SignedIn title={t('bookings.title')}>
      <BookingDetail key={`${kind}-${id}`} kind={kind} id={id} />
    </SignedIn>
  )
}

function BookingDetail({ kind, id }: { kind: Kind; id: string }) {
  const state = useLoad(() => loadHeld(kind, id), [kind, id])
  return (
    <section class="narrow">
      <Loaded state={state}>
        {(b) => (
          <>
            <h1>{t('held.title', { number: b.number })}</h1>
            <p>
              <span class={`status status-${b.status}`}>{t(`status.${b.status}`)}</span>
            </p>
            <div class="card">
              <SlotFacts
                kind={b.kind}
                place={b.place}
                venue={b.venue}
                date={b.date}
                start={b.start}
                end={b.end}
                price={b.total}
              />
              {toPaisa(b.paid) > 0 && <p>{t('held.paid', { amount: formatMoney(b.paid) })}</p>}
            </div>
            {b.split ? <SharesCard bookingId={b.id} split={b.split} onChange={state.reload} /> : null}
            {payable(b) && !b.split ? <PayNow booking={b} onSettled={state.reload} /> : null}
            {splittable(b) ? <SplitForm bookingId={b.id} split={b.split} onSplit={state.reload} /> : null}
          </>
        )}
      </Loaded>
      <p>
        <Link href="/bookings">{t('nav.bookings')}</Link>
      </p>
    </section>
  )
}

/** A court booking its customer may split (again): pending, and no share paid yet. */
function splittable(b: Held): boolean {
  if (b.kind !== 'court' || b.status !== 'pending') return false
  return b.split === null ? toPaisa(b.paid) === 0 : b.split.shares.every((s) => s.status === 'unpaid')
}

function PayNow({ booking: b, onSettled }: { booking: Held; onSettled: () => void }) {
  const short = toPaisa(b.wallet) < toPaisa(b.due)
  const [method, setMethod] = useState<Method>('gateway_1')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const pay = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      // A gateway leaves for its page, the wallet goes to the result page; cash is not offered here.
      await startPayment(b.kind === 'court' ? 'court' : 'indoor', b.id, method, onSettled)
    } catch (err) {
      setError(err)
      setBusy(false)
    }
  }
  return (
    <form class="card" onSubmit={pay} aria-labelledby="pay-now-title">
      <h2 id="pay-now-title">{t('held.payNow')}</h2>
      <p class="pay-due">{t('held.due', { amount: formatMoney(b.due) })}</p>
      {b.holdExpiresAt && (
        <p data-testid="pay-by">
          <strong>{payBy(b.holdExpiresAt)}</strong>
          <br />
          <span class="muted small">{t('held.heldFor')}</span>
        </p>
      )}
      <RefundWarning date={b.date} start={b.start} hours={b.cancelHours} />
      <fieldset class="methods">
        <legend>{t('held.howToPay')}</legend>
        {METHODS.map((m) => (
          <label key={m} class={method === m ? 'choice on' : 'choice'}>
            <input
              type="radio"
              name="method"
              value={m}
              checked={method === m}
              disabled={(m === 'wallet' && short) || busy}
              onChange={() => setMethod(m)}
            />
            <span>
              {t(`gateway.${m}`)}
              {m === 'wallet' && (
                <span class="muted small"> · {t('book.walletBalance', { amount: formatMoney(b.wallet) })}</span>
              )}
            </span>
          </label>
        ))}
      </fieldset>
      {error ? <Failure error={error} /> : null}
      <button type="submit" class="wide" disabled={busy}>
        {busy ? t('held.paying') : t('held.payNowAmount', { amount: formatMoney(b.due) })}
      </button>
    </form>
  )
}
