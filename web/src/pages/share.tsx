import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../api.ts'
import { Loaded, useLoad } from '../components/account.tsx'
import { payBy, SlotFacts } from '../components/slot-facts.tsx'
import { Failure } from '../components/ui.tsx'
import { formatDigits, formatMoney, t } from '../i18n/index.ts'
import { Link } from '../router.ts'
import { useSession } from '../session.ts'
import { followPayment, MethodChoice } from './account/split.tsx'

// /s/{token}: a share of a split booking (docs/web.md, "Split payment"). Anyone with the link sees
// the booking (venue, court, date, time), the share's amount and who has paid (GET /api/shares/{token},
// read without a token); a signed-in player (or one who signs in or up here, and comes back) pays it
// with the wallet or a gateway (POST /api/shares/{token}/pay), then the payment's result page.

type Page = Schemas['SharePage']
type Method = Schemas['SharePaymentMethod']

export function SharePage({ token }: { token: string }) {
  const state = useLoad(
    () => ok(api().GET('/api/shares/{token}', { params: { path: { token } } })).then((r) => r.data),
    [token],
  )
  return (
    <section class="narrow">
      <h1>{t('share.title')}</h1>
      <Loaded state={state}>{(page) => <ShareDetail token={token} page={page} />}</Loaded>
    </section>
  )
}

function ShareDetail({ token, page }: { token: string; page: Page }) {
  const b = page.booking
  const open = b.status === 'pending' || b.status === 'confirmed'
  return (
    <>
      <div class="card">
        <p>{t('share.organizer', { name: b.organizer })}</p>
        <SlotFacts
          kind={b.booking_type === 'indoor' ? 'game' : 'court'}
          place={b.resource}
          venue={{ name: b.venue, slug: b.venue_slug }}
          date={b.date}
          start={b.start_time}
          end={b.end_time}
          price={page.share.amount}
          priceLabel={t('share.amount')}
        />
      </div>
      <section class="card" aria-labelledby="who-paid">
        <h2 id="who-paid">{t('share.whoPaid')}</h2>
        <p>
          {t('split.progress', {
            paid: formatDigits(String(page.shares_paid)),
            total: formatDigits(String(page.shares_total)),
          })}
        </p>
        {page.paid_by.length === 0 ? (
          <p class="muted">{t('share.nobodyYet')}</p>
        ) : (
          <ul data-testid="paid-by">
            {page.paid_by.map((p) => (
              <li key={p.name}>
                {p.shares === 1
                  ? p.name
                  : t('share.paidCount', { name: p.name, count: formatDigits(String(p.shares)) })}
              </li>
            ))}
          </ul>
        )}
      </section>
      {page.share.status === 'paid' ? (
        <p role="status">{t('share.isPaid', { name: page.share.payer?.name ?? '' })}</p>
      ) : page.share.status === 'refunded' ? (
        <p role="status">{t('share.isRefunded')}</p>
      ) : !open ? (
        <p role="status">{t('share.closed')}</p>
      ) : (
        <PayShare token={token} amount={page.share.amount} deadline={page.deadline} />
      )}
    </>
  )
}

function PayShare({ token, amount, deadline }: { token: string; amount: string; deadline: string }) {
  const session = useSession()
  const [method, setMethod] = useState<Method>('gateway_1')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  if (!session) {
    const next = encodeURIComponent(location.pathname)
    return (
      <div class="card">
        <p>{t('share.signIn')}</p>
        <p>
          <Link class="button" href={`/signin?next=${next}`}>
            {t('auth.signIn')}
          </Link>{' '}
          <Link class="button secondary" href={`/signup?next=${next}`}>
            {t('auth.signUp')}
          </Link>
        </p>
      </div>
    )
  }
  const pay = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const answer = await ok(
        api().POST('/api/shares/{token}/pay', {
          params: { path: { token }, header: { 'idempotency-key': crypto.randomUUID() } },
          body: { method, return_url: `${location.origin}/payments/return` },
        }),
      )
      followPayment(answer.data)
    } catch (err) {
      setError(err)
      setBusy(false)
    }
  }
  return (
    <form class="card" onSubmit={pay} aria-labelledby="pay-share-title">
      <h2 id="pay-share-title">{t('split.payMine')}</h2>
      <p data-testid="pay-by">
        <strong>{payBy(deadline)}</strong>
      </p>
      <MethodChoice method={method} onChange={setMethod} disabled={busy} />
      {error ? <Failure error={error} /> : null}
      <button type="submit" class="wide" disabled={busy}>
        {busy ? t('share.paying') : t('share.pay', { amount: formatMoney(amount) })}
      </button>
    </form>
  )
}
