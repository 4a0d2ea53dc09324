import { useState } from 'preact/hooks'
import type { operations } from '../../../../src/client/index.ts'
import { api, ok } from '../../api.ts'
import { Loaded, Outcome, orNull, rupees, Section, today, useForm, useLoad } from '../../components/forms.tsx'
import { Field, Loading, Notice, SelectField } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import { bsDate, digits, t } from '../../i18n/index.ts'
import type { Venue } from '../../session.ts'
import { accountText } from '../money/index.tsx'

// The super_admin's payouts (issue 31): the venues the platform owes money (GET
// /api/admin/payouts/due, largest balance first) with what is reserved for upcoming bookings and
// available now, and where to send it; a form per venue to record a payout made (the service refuses
// more than is available, or a reference recorded before, with the answer shown at the field); venues
// that owe the platform are shown without a form; and each venue's commission rate (view and set).
// app.tsx shows this page to a super_admin only; the service answers 403 to anyone else too. Words
// from the console's catalogue (English or Nepali); the paid-on date shows its BS date beside.

type Due = operations['listPayoutsDue']['responses'][200]['content']['application/json']['data'][number]

export function PayoutsPage({ venues }: { venues: Venue[] }) {
  const due = useLoad(() => ok(api().GET('/api/admin/payouts/due')).then((r) => r.data), [])
  const [done, setDone] = useState<string | null>(null)
  return (
    <section>
      <h1>{t('payouts.title')}</h1>
      <div class="manage-stack">
        <Section title={t('payouts.due')}>
          <p class="muted">{t('payouts.dueExplain')}</p>
          {done && <Notice kind="success">{done}</Notice>}
          <Loaded state={due} loading={t('payouts.loading')} empty={t('payouts.none')}>
            {(rows) => (
              <ul class="due-list">
                {rows.map((d) => (
                  // Keyed by the balance too: after a payout the form starts again from the new balance.
                  <li key={`${d.venue.id}-${d.balance}`}>
                    <DueVenue
                      due={d}
                      onDone={(message) => {
                        setDone(message)
                        due.reload()
                      }}
                    />
                  </li>
                ))}
              </ul>
            )}
          </Loaded>
        </Section>
        <CommissionSection venues={venues} />
      </div>
    </section>
  )
}

function DueVenue({ due, onDone }: { due: Due; onDone: (message: string) => void }) {
  const f = useForm({ amount: due.available, reference: '', paid_on: today() })
  const headId = `due-${due.venue.id}`
  async function record(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      const saved = await ok(
        api().POST('/api/admin/venues/{venue}/payouts', {
          params: { path: { venue: String(due.venue.id) } },
          body: {
            amount: rupees(f.values.amount),
            reference: f.values.reference.trim(),
            paid_on: f.values.paid_on,
          },
        }),
      )
      onDone(t('payouts.recorded', { amount: money(saved.data.amount), venue: due.venue.name }))
      return undefined
    })
  }
  return (
    <article class="card due-venue" aria-labelledby={headId}>
      <h3 id={headId}>{due.venue.name}</h3>
      <dl class="facts">
        <dt>{due.owing ? t('payouts.owes') : t('payouts.owed')}</dt>
        <dd>{money(due.owing ? due.balance.replace('-', '') : due.balance)}</dd>
        {!due.owing && (
          <>
            <dt>{t('payouts.reserved')}</dt>
            <dd>{money(due.reserve)}</dd>
            <dt>{t('payouts.available')}</dt>
            <dd>{money(due.available)}</dd>
          </>
        )}
        <dt>{t('payouts.payTo')}</dt>
        <dd>{accountText(due.payout_account)}</dd>
      </dl>
      {due.owing ? <p class="muted">{t('payouts.owingExplain')}</p> : <DueForm due={due} f={f} record={record} />}
    </article>
  )
}

function DueForm({
  due,
  f,
  record,
}: {
  due: Due
  f: ReturnType<typeof useForm<{ amount: string; reference: string; paid_on: string }>>
  record: (e: Event) => Promise<void>
}) {
  return (
    <form onSubmit={record} aria-label={t('payouts.recordTo', { venue: due.venue.name })}>
      <Outcome error={f.error} notice={f.notice} />
      <div class="row">
        <Field label={t('payouts.amount')} inputMode="decimal" {...f.bind('amount')} required />
        <Field label={t('common.reference')} hint={t('payouts.referenceHint')} {...f.bind('reference')} required />
        <Field
          label={t('money.paidOn')}
          type="date"
          hint={bsDate(f.values.paid_on) || undefined}
          {...f.bind('paid_on')}
          required
        />
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={f.busy}>
          {t('payouts.record')} <span class="sr-only">{t('payouts.toVenue', { venue: due.venue.name })}</span>
        </button>
      </div>
    </form>
  )
}

function CommissionSection({ venues }: { venues: Venue[] }) {
  const [venueId, setVenueId] = useState(venues[0] ? String(venues[0].id) : '')
  return (
    <Section title={t('payouts.commission')}>
      <p class="muted">{t('payouts.commissionExplain')}</p>
      {venues.length === 0 ? (
        <p>{t('payouts.noVenues')}</p>
      ) : (
        <>
          <div class="row">
            <SelectField
              label={t('shell.venue')}
              options={venues.map((v) => ({ value: String(v.id), label: v.name }))}
              value={venueId}
              onChange={(e) => setVenueId(e.currentTarget.value)}
            />
          </div>
          <Commission key={venueId} venueId={venueId} />
        </>
      )}
    </Section>
  )
}

function Commission({ venueId }: { venueId: string }) {
  const rate = useLoad(
    () =>
      ok(api().GET('/api/admin/venues/{venue}/commission', { params: { path: { venue: venueId } } })).then(
        (r) => r.data,
      ),
    [venueId],
  )
  if (rate.error) return <Notice kind="error">{rate.error}</Notice>
  if (!rate.data) return <Loading what={t('payouts.loadingCommission')} />
  return <CommissionForm venueId={venueId} rate={rate.data} onSaved={rate.reload} />
}

type Rate = operations['getVenueCommission']['responses'][200]['content']['application/json']['data']

function CommissionForm({ venueId, rate, onSaved }: { venueId: string; rate: Rate; onSaved: () => void }) {
  const f = useForm({ percent: rate.percent ?? '', desk_percent: rate.desk_percent ?? '' })
  // Empty is null (the default, or none); anything that is not a number goes as typed for the service's 422.
  const number = (text: string): number | null => {
    const typed = orNull(text)
    if (typed === null) return null
    return Number.isFinite(Number(typed)) ? Number(typed) : (typed as unknown as number)
  }
  async function save(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      const saved = await ok(
        api().PATCH('/api/admin/venues/{venue}/commission', {
          params: { path: { venue: venueId } },
          body: { percent: number(f.values.percent), desk_percent: number(f.values.desk_percent) },
        }),
      )
      onSaved()
      const percent = digits(String(saved.data.effective_percent))
      return saved.data.desk_percent
        ? t('payouts.commissionNowDesk', { percent, desk: digits(String(saved.data.desk_percent)) })
        : t('payouts.commissionNow', { percent })
    })
  }
  return (
    <form onSubmit={save}>
      <dl class="facts">
        <dt>{t('payouts.appliedNow')}</dt>
        <dd>{t('payouts.onOnline', { percent: digits(String(rate.effective_percent)) })}</dd>
        <dt>{t('payouts.default')}</dt>
        <dd>{digits(`${rate.platform_default_percent}%`)}</dd>
        <dt>{t('payouts.onDesk')}</dt>
        <dd>{rate.desk_percent ? digits(`${rate.desk_percent}%`) : t('payouts.noneRate')}</dd>
      </dl>
      <Outcome error={f.error} notice={f.notice} />
      <div class="row">
        <Field
          label={t('payouts.onlineRate')}
          inputMode="decimal"
          hint={t('payouts.onlineRateHint')}
          {...f.bind('percent')}
        />
        <Field
          label={t('payouts.deskRate')}
          inputMode="decimal"
          hint={t('payouts.deskRateHint')}
          {...f.bind('desk_percent')}
        />
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={f.busy}>
          {t('payouts.saveCommission')}
        </button>
      </div>
    </form>
  )
}
