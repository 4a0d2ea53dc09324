import { useState } from 'preact/hooks'
import type { operations } from '../../../../src/client/index.ts'
import { api, ok } from '../../api.ts'
import { Loaded, Outcome, orNull, rupees, Section, today, useForm, useLoad } from '../../components/forms.tsx'
import { Field, Loading, Notice, SelectField } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import type { Venue } from '../../session.ts'
import { accountText } from '../money/index.tsx'

// The super_admin's payouts (issue 31): the venues the platform owes money (GET
// /api/admin/payouts/due, largest balance first) with what is reserved for upcoming bookings and
// available now, and where to send it; a form per venue to record a payout made (the service refuses
// more than is available, or a reference recorded before, with the answer shown at the field); venues
// that owe the platform are shown without a form; and each venue's commission rate (view and set). app.tsx shows this page to a super_admin only; the service
// answers 403 to anyone else too.

type Due = operations['listPayoutsDue']['responses'][200]['content']['application/json']['data'][number]

export function PayoutsPage({ venues }: { venues: Venue[] }) {
  const due = useLoad(() => ok(api().GET('/api/admin/payouts/due')).then((r) => r.data), [])
  const [done, setDone] = useState<string | null>(null)
  return (
    <section>
      <h1>Payouts</h1>
      <div class="manage-stack">
        <Section title="Payouts due">
          <p class="muted">
            Venues the platform owes money for online payments, largest balance first. Record a payout once the money is
            sent.
          </p>
          {done && <Notice kind="success">{done}</Notice>}
          <Loaded state={due} loading="Loading payouts due" empty="No venue is owed money now.">
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
      onDone(`A payout of ${money(saved.data.amount)} to ${due.venue.name} is recorded.`)
      return undefined
    })
  }
  return (
    <article class="card due-venue" aria-labelledby={headId}>
      <h3 id={headId}>{due.venue.name}</h3>
      <dl class="facts">
        <dt>{due.owing ? 'Owes the platform' : 'Balance owed'}</dt>
        <dd>{money(due.owing ? due.balance.replace('-', '') : due.balance)}</dd>
        {!due.owing && (
          <>
            <dt>Reserved for upcoming bookings</dt>
            <dd>{money(due.reserve)}</dd>
            <dt>Available to pay out</dt>
            <dd>{money(due.available)}</dd>
          </>
        )}
        <dt>Pay to</dt>
        <dd>{accountText(due.payout_account)}</dd>
      </dl>
      {due.owing ? (
        <p class="muted">Refunds after a payout left this venue owing; its next online money settles it first.</p>
      ) : (
        <DueForm due={due} f={f} record={record} />
      )}
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
    <form onSubmit={record} aria-label={`Record a payout to ${due.venue.name}`}>
      <Outcome error={f.error} notice={f.notice} />
      <div class="row">
        <Field label="Amount (Rs)" inputMode="decimal" {...f.bind('amount')} required />
        <Field label="Reference" hint="The bank or wallet transfer reference" {...f.bind('reference')} required />
        <Field label="Paid on" type="date" {...f.bind('paid_on')} required />
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={f.busy}>
          Record payout <span class="sr-only">to {due.venue.name}</span>
        </button>
      </div>
    </form>
  )
}

function CommissionSection({ venues }: { venues: Venue[] }) {
  const [venueId, setVenueId] = useState(venues[0] ? String(venues[0].id) : '')
  return (
    <Section title="Commission">
      <p class="muted">
        Commission is taken on online money as it settles; a new rate applies to payments from now on. Leave the rate
        empty for the platform default.
      </p>
      {venues.length === 0 ? (
        <p>There are no venues yet.</p>
      ) : (
        <>
          <div class="row">
            <SelectField
              label="Venue"
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
  if (!rate.data) return <Loading what="Loading the commission" />
  return <CommissionForm venueId={venueId} rate={rate.data} onSaved={rate.reload} />
}

type Rate = operations['getVenueCommission']['responses'][200]['content']['application/json']['data']

function CommissionForm({ venueId, rate, onSaved }: { venueId: string; rate: Rate; onSaved: () => void }) {
  const f = useForm({ percent: rate.percent ?? '', desk_percent: rate.desk_percent ?? '' })
  // Empty is null (the default, or none); anything that is not a number goes as typed for the service's 422.
  const number = (text: string): number | null => {
    const t = orNull(text)
    if (t === null) return null
    return Number.isFinite(Number(t)) ? Number(t) : (t as unknown as number)
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
      return `Commission is now ${saved.data.effective_percent}% on online money${
        saved.data.desk_percent ? ` and ${saved.data.desk_percent}% on desk money` : ''
      }.`
    })
  }
  return (
    <form onSubmit={save}>
      <dl class="facts">
        <dt>Applied now</dt>
        <dd>{rate.effective_percent}% on online money</dd>
        <dt>Platform default</dt>
        <dd>{rate.platform_default_percent}%</dd>
        <dt>On desk money</dt>
        <dd>{rate.desk_percent ? `${rate.desk_percent}%` : 'None'}</dd>
      </dl>
      <Outcome error={f.error} notice={f.notice} />
      <div class="row">
        <Field
          label="Rate on online money (%)"
          inputMode="decimal"
          hint="Empty: the platform default"
          {...f.bind('percent')}
        />
        <Field label="Rate on desk money (%)" inputMode="decimal" hint="Empty: none" {...f.bind('desk_percent')} />
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={f.busy}>
          Save commission
        </button>
      </div>
    </form>
  )
}
