import { api, ok, type Schemas } from '../../api.ts'
import { Field, formValues, Loaded, Outcome, SignedIn, useAction, useLoad } from '../../components/account.tsx'
import { formatDate, formatDigits, formatMoney, t } from '../../i18n/index.ts'

type Transaction = Schemas['WalletTransaction']
const GATEWAYS = ['gateway_1', 'gateway_2', 'gateway_3'] as const

/** The wallet: balance, a top-up through a gateway, and the history. */
export function WalletPage() {
  return (
    <SignedIn title={t('wallet.title')}>
      <Wallet />
    </SignedIn>
  )
}

function Wallet() {
  const state = useLoad(() => ok(api().GET('/api/wallet', { params: { query: { per_page: 50 } } })))
  const action = useAction()
  return (
    <section>
      <h1>{t('wallet.title')}</h1>
      <Loaded state={state}>
        {(wallet) => (
          <>
            <p class="balance">
              {t('wallet.balance')}: <strong data-testid="balance">{formatMoney(wallet.balance)}</strong>
            </p>
            <h2>{t('wallet.topUp')}</h2>
            <form
              class="narrow"
              onSubmit={(e) => {
                const v = formValues(e)
                action.run(async () => {
                  const answer = await ok(
                    api().POST('/api/wallet/topup', {
                      body: {
                        amount: v.amount,
                        method: v.method as (typeof GATEWAYS)[number],
                        // The gateway sends the customer back to the payment return page, which asks
                        // the service until the top-up is settled (pages/payment-return.tsx).
                        return_url: `${location.origin}/payments/return`,
                      },
                    }),
                  )
                  location.assign(answer.payment_url)
                })
              }}
            >
              <Field
                label={t('wallet.amount')}
                name="amount"
                type="number"
                inputMode="decimal"
                min={10}
                step="0.01"
                required
                error={action.field('amount')}
              />
              <fieldset class="options">
                <legend>{t('wallet.method')}</legend>
                {GATEWAYS.map((g, i) => (
                  <label key={g}>
                    <input type="radio" name="method" value={g} defaultChecked={i === 0} />
                    {t(`gateway.${g}`)}
                  </label>
                ))}
              </fieldset>
              <Outcome notice={action.notice} message={action.message} />
              <button type="submit" disabled={action.busy}>
                {t('wallet.go')}
              </button>
            </form>
            <h2>{t('wallet.history')}</h2>
            {wallet.transactions.data.length === 0 ? (
              <p>{t('wallet.none')}</p>
            ) : (
              <ul class="rows">
                {wallet.transactions.data.map((tx) => (
                  <TransactionRow key={tx.id} tx={tx} />
                ))}
              </ul>
            )}
          </>
        )}
      </Loaded>
    </section>
  )
}

function TransactionRow({ tx }: { tx: Transaction }) {
  const sign = tx.type === 'debit' ? '−' : '+'
  // created_at is "YYYY-MM-DD HH:mm:ss" in the venue's zone (Nepal): read as written.
  return (
    <li class={`tx tx-${tx.type}`}>
      <span>
        {t(`wallet.type.${tx.type}`)}
        {tx.status !== 'completed' && ` · ${t(`wallet.status.${tx.status}`)}`}
        <br />
        <span class="muted">
          {formatDate(tx.created_at.slice(0, 10))} {formatDigits(tx.created_at.slice(11, 16))}
        </span>
      </span>
      <strong>
        {sign}
        {formatMoney(tx.amount)}
      </strong>
    </li>
  )
}
