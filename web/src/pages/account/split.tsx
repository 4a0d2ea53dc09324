import '../../split.css'
import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { useAction } from '../../components/account.tsx'
import { payBy } from '../../components/slot-facts.tsx'
import { Failure } from '../../components/ui.tsx'
import { formatDigits, formatMoney, t } from '../../i18n/index.ts'
import { fromPaisa, toPaisa } from '../../money.ts'
import { navigate } from '../../router.ts'

// Split payment on a booking's page (docs/web.md, "Split payment"): the organizer splits a pending
// court booking into shares (POST /api/bookings/{booking}/split), sends each share's link (copy, or
// the phone's share sheet through navigator.share where there is one), sees who has paid, and may
// pay the rest at once (POST …/split/settle).

export type Split = Schemas['Split']
type Method = Schemas['SharePaymentMethod']
const METHODS: Method[] = ['gateway_1', 'gateway_2', 'gateway_3', 'wallet']

/** The split of a court booking, or null when it is not split (404). */
export async function loadSplit(bookingId: number): Promise<Split | null> {
  try {
    return (await ok(api().GET('/api/bookings/{booking}/shares', { params: { path: { booking: String(bookingId) } } })))
      .data
  } catch {
    return null
  }
}

/** Leaves for a gateway's page, or goes to the wallet payment's result page (as startPayment). */
export function followPayment(data: { payment: { id: number }; payment_url?: string }) {
  if (data.payment_url) {
    sessionStorage.setItem('courtside.web.lastPayment', String(data.payment.id))
    location.assign(data.payment_url)
    return
  }
  navigate(`/payments/${data.payment.id}/return`)
}

/** The form that splits (or splits again, while nothing is paid) the booking. */
export function SplitForm({
  bookingId,
  split,
  onSplit,
}: {
  bookingId: number
  split: Split | null
  onSplit: () => void
}) {
  const [count, setCount] = useState(split ? split.shares.length : 10)
  const action = useAction()
  const submit = (e: Event) => {
    e.preventDefault()
    void action
      .run(() =>
        ok(
          api().POST('/api/bookings/{booking}/split', {
            params: { path: { booking: String(bookingId) } },
            body: { shares: count },
          }),
        ),
      )
      .then((done) => done && onSplit())
  }
  const error = action.field('shares')
  return (
    <form class="card" onSubmit={submit} aria-labelledby="split-title">
      <h2 id="split-title">{t('split.title')}</h2>
      <p class="muted small">{t('split.hint')}</p>
      <label>
        {t('split.players')}
        <input
          type="number"
          name="shares"
          min={2}
          max={20}
          value={count}
          onInput={(e) => setCount(Number(e.currentTarget.value))}
          aria-invalid={error ? 'true' : undefined}
        />
      </label>
      {error && <p role="alert">{error}</p>}
      {action.message && <p role="alert">{action.message}</p>}
      <button type="submit" class="wide" disabled={action.busy}>
        {action.busy ? t('split.busy') : split ? t('split.again') : t('split.submit')}
      </button>
    </form>
  )
}

/** The shares: amount, who paid, the link to copy or send; and paying the rest at once. */
export function SharesCard({ bookingId, split, onChange }: { bookingId: number; split: Split; onChange: () => void }) {
  const paid = split.shares.filter((s) => s.status === 'paid').length
  const unpaid = split.shares.filter((s) => s.status === 'unpaid')
  const rest = fromPaisa(unpaid.reduce((sum, s) => sum + toPaisa(s.amount), 0))
  return (
    <>
      <section class="card" aria-labelledby="shares-title" data-testid="shares">
        <h2 id="shares-title">
          {t('split.progress', { paid: formatDigits(String(paid)), total: formatDigits(String(split.shares.length)) })}
        </h2>
        <p class="small">
          <strong>{payBy(split.deadline)}</strong>
          <br />
          <span class="muted">{t('split.deadline')}</span>
        </p>
        <ul class="shares">
          {split.shares.map((s, i) => (
            <ShareRow key={s.id} share={s} n={i + 1} />
          ))}
        </ul>
      </section>
      {unpaid.length > 0 && <SettleForm bookingId={bookingId} amount={rest} onSettled={onChange} />}
    </>
  )
}

function ShareRow({ share, n }: { share: Split['shares'][number]; n: number }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(share.pay_url)
      setCopied(true)
    } catch {
      // No clipboard (an insecure page, a refusal): the link is on screen to copy by hand.
      setCopied(false)
    }
  }
  const send = () =>
    navigator
      .share({
        title: t('share.title'),
        text: t('split.shareText', { amount: formatMoney(share.amount) }),
        url: share.pay_url,
      })
      .catch(() => undefined)
  const label =
    n === 1 ? t('split.yours', { n: formatDigits(String(n)) }) : t('split.share', { n: formatDigits(String(n)) })
  return (
    <li class={`share share-${share.status}`}>
      <span>
        <strong>{label}</strong> · {formatMoney(share.amount)}
        <br />
        <span class="muted small">
          {share.status === 'paid' && share.payer
            ? t('split.paidBy', { name: share.payer.name })
            : share.status === 'refunded'
              ? t('split.refunded')
              : t('split.unpaid')}
        </span>
      </span>
      {share.status === 'unpaid' && (
        <span class="share-actions">
          <input class="share-link" readOnly value={share.pay_url} aria-label={`${label}: ${t('split.copy')}`} />
          <button type="button" class="secondary" onClick={copy}>
            {copied ? t('split.copied') : t('split.copy')}
          </button>
          {'share' in navigator && (
            <button type="button" class="secondary" onClick={send}>
              {t('split.send')}
            </button>
          )}
        </span>
      )}
    </li>
  )
}

function SettleForm({ bookingId, amount, onSettled }: { bookingId: number; amount: string; onSettled: () => void }) {
  const [method, setMethod] = useState<Method>('gateway_1')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const settle = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const answer = await ok(
        api().POST('/api/bookings/{booking}/split/settle', {
          params: { path: { booking: String(bookingId) }, header: { 'idempotency-key': crypto.randomUUID() } },
          body: { method, return_url: `${location.origin}/payments/return` },
        }),
      )
      followPayment(answer.data)
      onSettled()
    } catch (err) {
      setError(err)
      setBusy(false)
    }
  }
  return (
    <form class="card" onSubmit={settle} aria-labelledby="settle-title">
      <h2 id="settle-title">{t('split.settleTitle')}</h2>
      <MethodChoice method={method} onChange={setMethod} disabled={busy} />
      {error ? <Failure error={error} /> : null}
      <button type="submit" class="wide" disabled={busy}>
        {t('split.settle', { amount: formatMoney(amount) })}
      </button>
    </form>
  )
}

/** The ways to pay a share: the gateways and the wallet (never cash). */
export function MethodChoice(props: { method: Method; onChange: (m: Method) => void; disabled: boolean }) {
  return (
    <fieldset class="methods">
      <legend>{t('split.method')}</legend>
      {METHODS.map((m) => (
        <label key={m} class={props.method === m ? 'choice on' : 'choice'}>
          <input
            type="radio"
            name="method"
            value={m}
            checked={props.method === m}
            disabled={props.disabled}
            onChange={() => props.onChange(m)}
          />
          <span>{t(`gateway.${m}`)}</span>
        </label>
      ))}
    </fieldset>
  )
}
