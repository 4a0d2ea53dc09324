import { useState } from 'preact/hooks'
import { api, messageOf, ok, type Schemas, type User } from '../../api.ts'
import { Loaded, Outcome, orNull, Section, Table, useForm, useLoad } from '../../components/forms.tsx'
import { openPdf } from '../../components/pdf.ts'
import { Field, Loading, Notice, SelectField } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import { bothDates, localName, type MessageKey, t } from '../../i18n/index.ts'
import { go, href } from '../../router.ts'
import { managesVenue, ownsVenue, type Venue } from '../../session.ts'
import { Scroll } from '../reports/scroll.tsx'
import { IrdSection } from './ird.tsx'
import { addMonths, monthLabel, monthRange } from './month.ts'

// The venue's money with the platform (issue 31): the statement of a chosen month (its totals,
// every movement of the balance, a CSV download), the payouts made to the venue, and, for the
// owner, where payouts go and the venue's IRD reporting (ird.tsx). For the venue's owner and managers (and super_admin); the service
// refuses staff too. The month defaults to the current one on the API's clock (the board's date,
// venue time), not this device's. Words from the console's catalogue (English or Nepali), dates
// with the BS date beside, money in lakh grouping.

type Statement = Schemas['VenueStatement']
type PayoutAccount = Schemas['PayoutAccount']

const KINDS = [
  'gateway_payment',
  'wallet_payment',
  'platform_discount',
  'refund_to_wallet',
  'refund_to_source',
  'venue_credit',
  'commission',
  'commission_refund',
  'payout',
]

/** A statement line's kind in the console's language; an unknown kind as it is. */
const kindLabel = (kind: string) => (KINDS.includes(kind) ? t(`kind.${kind}` as MessageKey) : kind)

export function MoneyPage({ user, venue, month }: { user: User; venue: Venue; month?: string }) {
  const venueId = String(venue.id)
  // Today on the service's clock, venue time: the board answers it when no date is asked for.
  const today = useLoad(
    () =>
      month
        ? Promise.resolve(null)
        : ok(api().GET('/api/venues/{venue}/board', { params: { path: { venue: venueId }, query: {} } })).then(
            (r) => r.data.date,
          ),
    [venueId, month ?? ''],
  )
  if (!managesVenue(user, venue)) {
    return (
      <section>
        <h1>{t('money.title', { venue: localName(venue) })}</h1>
        <Notice kind="error">{t('money.staffOnly')}</Notice>
        <p>
          <a href={href(`/venues/${venue.id}/board`)}>{t('common.backToBoard')}</a>
        </p>
      </section>
    )
  }
  const valid = month && /^\d{4}-(0[1-9]|1[0-2])$/.test(month) ? month : undefined
  const shown = valid ?? (today.data ? today.data.slice(0, 7) : undefined)
  return (
    <section>
      <h1>{t('money.title', { venue: localName(venue) })}</h1>
      {today.error && <Notice kind="error">{today.error}</Notice>}
      {!shown ? (
        !today.error && <Loading what={t('money.loadingStatement')} />
      ) : (
        <div class="manage-stack">
          <StatementSection venue={venue} month={shown} />
          <PayoutsSection venue={venue} />
          {ownsVenue(user, venue) && <PayoutAccountSection venue={venue} />}
          {ownsVenue(user, venue) && <IrdSection venue={venue} />}
        </div>
      )}
    </section>
  )
}

function StatementSection({ venue, month }: { venue: Venue; month: string }) {
  const venueId = String(venue.id)
  const { from, to } = monthRange(month)
  const statement = useLoad(
    () =>
      ok(
        api().GET('/api/venues/{venue}/statement', { params: { path: { venue: venueId }, query: { from, to } } }),
      ).then(
        // The route also answers CSV (its other content type); asked for JSON, it answers JSON.
        (r) => (typeof r === 'string' ? Promise.reject(new Error('The statement came back as CSV.')) : r.data),
      ),
    [venueId, from, to],
  )
  const [download, setDownload] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null })
  const pick = (m: string) => go(`/venues/${venue.id}/money?month=${m}`)

  async function downloadCsv() {
    setDownload({ busy: true, error: null })
    try {
      // The bearer token cannot ride on a plain link, so the CSV is fetched and saved from a Blob.
      const blob = await ok(
        api().GET('/api/venues/{venue}/statement', {
          params: { path: { venue: venueId }, query: { from, to } },
          headers: { accept: 'text/csv' },
          parseAs: 'blob',
        }),
      )
      const url = URL.createObjectURL(blob)
      const a = document.createElement('a')
      a.href = url
      a.download = `statement-${venue.slug}-${from}-${to}.csv`
      document.body.append(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
      setDownload({ busy: false, error: null })
    } catch (err) {
      setDownload({ busy: false, error: messageOf(err) })
    }
  }

  return (
    <Section title={t('money.statementFor', { month: monthLabel(month) })}>
      <div class="row month-pick">
        <button type="button" onClick={() => pick(addMonths(month, -1))}>
          {t('money.previousMonth')}
        </button>
        <Field
          label={t('money.month')}
          type={'month' as 'text'}
          value={month}
          onInput={(e) => /^\d{4}-\d{2}$/.test(e.currentTarget.value) && pick(e.currentTarget.value)}
        />
        <button type="button" onClick={() => pick(addMonths(month, 1))}>
          {t('money.nextMonth')}
        </button>
        <button type="button" class="primary" disabled={download.busy} onClick={downloadCsv}>
          {t('money.downloadCsv')}
        </button>
      </div>
      {download.error && <Notice kind="error">{download.error}</Notice>}
      <Loaded state={statement} loading={t('money.loadingStatement')} empty="" isEmpty={() => false}>
        {(s) => <StatementBody statement={s} />}
      </Loaded>
    </Section>
  )
}

function StatementBody({ statement: s }: { statement: Statement }) {
  const totals: [MessageKey, string][] = [
    ['money.openingBalance', s.opening_balance],
    ['money.onlinePayments', s.online_gross],
    ['money.refunds', s.refunds],
    ['money.commission', s.commission],
    ['money.payouts', s.payouts],
    ['money.closingBalance', s.closing_balance],
  ]
  return (
    <>
      <p class="muted">{t('money.explain', { from: bothDates(s.from), to: bothDates(s.to) })}</p>
      <dl class="totals" aria-label={t('money.totals')}>
        {totals.map(([label, value]) => (
          <div key={label}>
            <dt>{t(label)}</dt>
            <dd>{money(value)}</dd>
          </div>
        ))}
      </dl>
      <p class="muted">{t('money.desk', { gross: money(s.desk_gross), refunds: money(s.desk_refunds) })}</p>
      <CommissionInvoices statement={s} />
      {s.lines.length === 0 ? (
        <p>{t('money.nothingMoved')}</p>
      ) : (
        <Scroll label={t('money.lines')}>
          <Table
            caption={t('money.lines')}
            columns={[
              t('common.date'),
              t('money.entry'),
              { label: t('common.amount'), num: true },
              { label: t('money.balanceAfter'), num: true },
            ]}
          >
            {s.lines.map((l, i) => (
              // Lines have no id; their order is the statement's.
              <tr key={i}>
                <td>{bothDates(l.date)}</td>
                <td>
                  <strong>{kindLabel(l.kind)}</strong>
                  {l.booking_number && ` · ${l.booking_number}`}
                  <br />
                  <span class="muted">{l.description}</span>
                </td>
                <td class="num nowrap">{money(l.amount)}</td>
                <td class="num nowrap">{money(l.balance_after)}</td>
              </tr>
            ))}
          </Table>
        </Scroll>
      )}
    </>
  )
}

/** The platform's commission invoices issued in the statement's range, each opened as its PDF. */
function CommissionInvoices({ statement: s }: { statement: Statement }) {
  const [error, setError] = useState<string | null>(null)
  if (s.commission_invoices.length === 0) return null
  async function open(inv: Statement['commission_invoices'][number]) {
    setError(null)
    try {
      // The PDF needs the bearer token: fetched as a Blob and opened through an object URL.
      const blob = await ok(
        api().GET('/api/venues/{venue}/commission-invoices/{id}/pdf', {
          params: { path: { venue: String(inv.buyer.venue_id), id: String(inv.id) } },
          headers: { accept: 'application/pdf' },
          parseAs: 'blob',
        }),
      )
      openPdf(blob, `${inv.invoice_number.replaceAll('/', '-')}.pdf`)
    } catch (err) {
      setError(messageOf(err))
    }
  }
  return (
    <div>
      <h3>{t('money.commissionInvoices')}</h3>
      {error && <Notice kind="error">{error}</Notice>}
      <ul>
        {s.commission_invoices.map((inv) => (
          <li key={inv.id}>
            {bothDates(inv.issued_on)} · {money(inv.total)}{' '}
            <button type="button" class="link" onClick={() => open(inv)}>
              {t('money.commissionInvoicePdf', { number: inv.invoice_number })}
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}

function PayoutsSection({ venue }: { venue: Venue }) {
  const venueId = String(venue.id)
  const payouts = useLoad(
    () => ok(api().GET('/api/venues/{venue}/payouts', { params: { path: { venue: venueId } } })).then((r) => r.data),
    [venueId],
  )
  return (
    <Section title={t('money.payouts')}>
      <Loaded state={payouts} loading={t('money.loadingPayouts')} empty={t('money.noPayouts')}>
        {(rows) => (
          <Scroll label={t('money.payoutsMade')}>
            <Table
              caption={t('money.payoutsMade')}
              columns={[t('money.paidOn'), { label: t('common.amount'), num: true }, t('common.reference')]}
            >
              {rows.map((p) => (
                <tr key={p.id}>
                  <td>{bothDates(p.paid_on)}</td>
                  <td class="num nowrap">{money(p.amount)}</td>
                  <td>{p.reference}</td>
                </tr>
              ))}
            </Table>
          </Scroll>
        )}
      </Loaded>
    </Section>
  )
}

const accountTypes = () => [
  { value: 'bank', label: t('account.bank') },
  { value: 'esewa', label: t('account.esewa') },
  { value: 'khalti', label: t('account.khalti') },
]

/** "Bank account: Nabil Bank, 0123…" or "eSewa merchant: 9800…", for lists. */
export function accountText(a: PayoutAccount | null | undefined): string {
  if (!a) return 'No payout details'
  if (a.type === 'bank') return `${a.account_name}, ${a.bank_name ?? ''} ${a.account_number ?? ''}`.trim()
  return `${a.account_name}, ${a.type === 'esewa' ? 'eSewa' : 'Khalti'} merchant ${a.merchant_id ?? ''}`.trim()
}

function PayoutAccountSection({ venue }: { venue: Venue }) {
  const venueId = String(venue.id)
  const account = useLoad(
    () =>
      ok(api().GET('/api/venues/{venue}/payout-account', { params: { path: { venue: venueId } } })).then((r) => ({
        account: r.data,
      })),
    [venueId],
  )
  return (
    <Section title={t('account.title')}>
      <p class="muted">{t('account.explain')}</p>
      {account.error && <Notice kind="error">{account.error}</Notice>}
      {!account.data ? (
        !account.error && <Loading what={t('account.loading')} />
      ) : (
        <PayoutAccountForm venueId={venueId} account={account.data.account} />
      )}
    </Section>
  )
}

function PayoutAccountForm({ venueId, account }: { venueId: string; account: PayoutAccount | null }) {
  const f = useForm({
    type: account?.type ?? 'bank',
    account_name: account?.account_name ?? '',
    bank_name: account?.bank_name ?? '',
    account_number: account?.account_number ?? '',
    merchant_id: account?.merchant_id ?? '',
  })
  const v = f.values
  const bank = v.type === 'bank'
  async function save(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      await ok(
        api().PUT('/api/venues/{venue}/payout-account', {
          params: { path: { venue: venueId } },
          body: {
            type: v.type as PayoutAccount['type'],
            account_name: v.account_name.trim(),
            bank_name: bank ? orNull(v.bank_name) : null,
            account_number: bank ? orNull(v.account_number) : null,
            merchant_id: bank ? null : orNull(v.merchant_id),
          },
        }),
      )
      return t('account.saved')
    })
  }
  return (
    <form onSubmit={save}>
      <Outcome error={f.error} notice={f.notice} />
      <div class="row">
        <SelectField label={t('account.paidTo')} options={accountTypes()} {...f.bindSelect('type')} />
        <Field label={t('account.name')} {...f.bind('account_name')} required autoComplete="off" />
      </div>
      {bank ? (
        <div class="row">
          <Field label={t('account.bankName')} {...f.bind('bank_name')} required />
          <Field label={t('account.number')} {...f.bind('account_number')} required inputMode="numeric" />
        </div>
      ) : (
        <div class="row">
          <Field
            label={v.type === 'esewa' ? t('account.esewaId') : t('account.khaltiId')}
            {...f.bind('merchant_id')}
            required
          />
        </div>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={f.busy}>
          {t('account.save')}
        </button>
      </div>
    </form>
  )
}
