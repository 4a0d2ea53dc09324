import { useState } from 'preact/hooks'
import { api, ok, type Schemas, type User } from '../../api.ts'
import { CheckField, Loaded, Outcome, PagedList, Section, Table, useForm, useLoad } from '../../components/forms.tsx'
import { ScrollBox } from '../../components/scroll.tsx'
import { Field, Notice, RowAction } from '../../components/ui.tsx'
import { venueMinute } from '../../format.ts'
import { href } from '../../router.ts'
import { managesVenue, type Venue } from '../../session.ts'

// The venue's webhook endpoints for its owner and managers (issue 35; docs/webhooks.md): the list,
// a new endpoint whose signing secret is shown once (the API never shows it again), delete, and
// each endpoint's recent deliveries with their status and last attempts, with "Send again"
// (POST …/deliveries/{delivery}/resend). All through /api/venues/{venue}/webhooks….

type Webhook = Schemas['Webhook']
type WebhookEvent = Schemas['WebhookEvent']

const EVENTS: { value: WebhookEvent; label: string }[] = [
  { value: 'booking.created', label: 'Court booking made' },
  { value: 'booking.confirmed', label: 'Court booking confirmed' },
  { value: 'booking.cancelled', label: 'Court booking cancelled' },
  { value: 'booking.completed', label: 'Court booking completed' },
  { value: 'indoor_booking.created', label: 'Indoor booking made' },
  { value: 'indoor_booking.confirmed', label: 'Indoor booking confirmed' },
  { value: 'booking.no_show', label: 'Court booking no-show' },
  { value: 'indoor_booking.cancelled', label: 'Indoor booking cancelled' },
  { value: 'indoor_booking.completed', label: 'Indoor booking completed' },
  { value: 'indoor_booking.no_show', label: 'Indoor booking no-show' },
  { value: 'payment.completed', label: 'Payment completed' },
  { value: 'payment.refunded', label: 'Payment refunded' },
]

export function WebhooksPage({ user, venue }: { user: User; venue: Venue }) {
  const venueId = String(venue.id)
  const allowed = managesVenue(user, venue)
  const list = useLoad(
    () =>
      allowed
        ? ok(api().GET('/api/venues/{venue}/webhooks', { params: { path: { venue: venueId } } })).then((r) => r.data)
        : Promise.resolve(null),
    [venueId],
  )
  const [shown, setShown] = useState<number | null>(null)
  if (!allowed) {
    return (
      <section>
        <h1>Webhooks of {venue.name}</h1>
        <Notice kind="error">
          Webhooks are set up by the venue's owner and managers. You work here as staff: you can use the day board.
        </Notice>
        <p>
          <a href={href(`/venues/${venue.id}/board`)}>Back to the day board</a>
        </p>
      </section>
    )
  }
  return (
    <section>
      <h1>Webhooks of {venue.name}</h1>
      <p class="muted">
        Your own systems receive the venue's booking and payment events, signed per Standard Webhooks with the
        endpoint's secret.
      </p>
      <div class="manage-stack">
        <Section title="Endpoints">
          <Loaded state={list} loading="Loading the endpoints" empty="No endpoint yet.">
            {(rows) => (
              <ScrollBox label="Webhook endpoints, scrolls sideways">
                <Table caption="Webhook endpoints" columns={['URL', 'Events', 'Status', 'Created', 'Actions']}>
                  {rows.map((w) => (
                    <EndpointRow
                      key={w.id}
                      venue={venue}
                      webhook={w}
                      open={shown === w.id}
                      onToggle={() => setShown(shown === w.id ? null : w.id)}
                      onDeleted={() => {
                        if (shown === w.id) setShown(null)
                        list.reload()
                      }}
                    />
                  ))}
                </Table>
              </ScrollBox>
            )}
          </Loaded>
        </Section>
        {shown !== null && list.data?.some((w) => w.id === shown) && (
          <Deliveries venue={venue} webhook={list.data.find((w) => w.id === shown)!} />
        )}
        <CreateEndpoint venue={venue} onCreated={list.reload} />
      </div>
    </section>
  )
}

function EndpointRow({
  venue,
  webhook: w,
  open,
  onToggle,
  onDeleted,
}: {
  venue: Venue
  webhook: Webhook
  open: boolean
  onToggle: () => void
  onDeleted: () => void
}) {
  const f = useForm({})
  const [confirming, setConfirming] = useState(false)
  const what = `the endpoint ${w.url} (${w.id})`
  async function remove() {
    const done = await f.submit(async () => {
      await ok(
        api().DELETE('/api/venues/{venue}/webhooks/{webhook}', {
          params: { path: { venue: String(venue.id), webhook: String(w.id) } },
        }),
      )
      return undefined
    })
    if (done) onDeleted()
  }
  return (
    <tr>
      <td class="break">{w.url}</td>
      <td>{w.events.join(', ')}</td>
      <td>
        {w.status === 'active' ? 'Active' : `Disabled ${venueMinute(w.disabled_at)}`}
        {w.failing_since && w.status === 'active' && <span class="muted"> (failing since {w.failing_since})</span>}
      </td>
      <td class="nowrap">{venueMinute(w.created_at)}</td>
      <td>
        <Outcome error={f.error} notice={null} />
        <div class="row-actions">
          <button type="button" aria-expanded={open} onClick={onToggle}>
            {open ? 'Hide deliveries' : 'Deliveries'} <span class="sr-only">of {what}</span>
          </button>
          {confirming ? (
            <>
              <RowAction label="Delete for good" of={what} onClick={remove} disabled={f.busy} />
              <RowAction label="Keep" of={what} onClick={() => setConfirming(false)} />
            </>
          ) : (
            <RowAction label="Delete" of={what} onClick={() => setConfirming(true)} />
          )}
        </div>
      </td>
    </tr>
  )
}

function CreateEndpoint({ venue, onCreated }: { venue: Venue; onCreated: () => void }) {
  const f = useForm<Record<string, string | boolean>>({ url: '' })
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null)
  const chosen = EVENTS.filter((e) => f.values[e.value] === true).map((e) => e.value)
  async function create(e: Event) {
    e.preventDefault()
    setSecret(null)
    const done = await f.submit(async () => {
      const made = await ok(
        api().POST('/api/venues/{venue}/webhooks', {
          params: { path: { venue: String(venue.id) } },
          body: { url: String(f.values.url), events: chosen },
        }),
      )
      setSecret({ url: made.data.url, secret: made.data.secret })
      return undefined
    })
    if (done) {
      f.setValues({ url: '' })
      onCreated()
    }
  }
  const eventsError = f.fieldError('events')
  return (
    <Section title="New endpoint">
      {secret && (
        <div class="notice notice-success secret" role="status">
          <p>
            The endpoint {secret.url} is added. Its signing secret is shown only now: copy it into the receiving system.
          </p>
          <p>
            <span class="strong">Signing secret:</span> <code>{secret.secret}</code>
          </p>
          <button type="button" onClick={() => setSecret(null)}>
            I have copied the secret
          </button>
        </div>
      )}
      <form onSubmit={create}>
        <Outcome error={f.error && !f.fieldError('url') && !eventsError ? f.error : null} notice={f.notice} />
        <Field
          label="Endpoint URL"
          type="url"
          required
          placeholder="https://example.com/courtside"
          value={String(f.values.url)}
          onInput={f.text('url')}
          error={f.fieldError('url')}
        />
        <fieldset aria-describedby={eventsError ? 'webhook-events-error' : undefined}>
          <legend>Events to send</legend>
          {EVENTS.map((e) => (
            <CheckField
              key={e.value}
              label={`${e.label} (${e.value})`}
              checked={f.values[e.value] === true}
              onChange={f.check(e.value)}
            />
          ))}
          {eventsError && (
            <p class="error" id="webhook-events-error">
              {eventsError}
            </p>
          )}
        </fieldset>
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy || chosen.length === 0}>
            Add endpoint
          </button>
        </div>
      </form>
    </Section>
  )
}

const DELIVERY_STATUS: Record<string, string> = { pending: 'Pending', succeeded: 'Delivered', failed: 'Failed' }

function Deliveries({ venue, webhook: w }: { venue: Venue; webhook: Webhook }) {
  const [page, setPage] = useState(1)
  const path = { venue: String(venue.id), webhook: String(w.id) }
  const list = useLoad(
    () =>
      ok(
        api().GET('/api/venues/{venue}/webhooks/{webhook}/deliveries', {
          params: { path, query: { page, per_page: 10 } },
        }),
      ),
    [w.id, page],
  )
  const f = useForm({})
  async function resend(id: number, what: string) {
    const done = await f.submit(async () => {
      await ok(
        api().POST('/api/venues/{venue}/webhooks/{webhook}/deliveries/{delivery}/resend', {
          params: { path: { ...path, delivery: String(id) } },
        }),
      )
      return `${what} will be sent again.`
    })
    if (done) list.reload()
  }
  return (
    <Section title={`Deliveries to ${w.url}`}>
      <div class="actions">
        <button type="button" onClick={list.reload}>
          Refresh deliveries
        </button>
      </div>
      <Outcome error={f.error} notice={f.notice} />
      <PagedList
        state={list}
        loading="Loading the deliveries"
        empty="Nothing sent yet."
        label="Pages of deliveries"
        onPage={setPage}
      >
        {(rows) => (
          <ScrollBox label={`Deliveries to ${w.url}, scrolls sideways`}>
            <Table
              caption={`Deliveries to ${w.url}`}
              columns={['Event', 'Message', 'Status', 'Attempts', 'Last answer', 'Next attempt', 'Actions']}
            >
              {rows.map((d) => {
                const last = d.last_attempts[0]
                const what = `The ${d.event} message ${d.message_id}`
                return (
                  <tr key={d.id}>
                    <td>{d.event}</td>
                    <td class="break">
                      <code>{d.message_id}</code>
                      <br />
                      <span class="muted">{venueMinute(d.created_at)}</span>
                    </td>
                    <td>{DELIVERY_STATUS[d.status] ?? d.status}</td>
                    <td class="num">{d.attempts}</td>
                    <td>
                      {last ? (last.status_code !== null ? `HTTP ${last.status_code}` : (last.error ?? '—')) : '—'}
                      {last && <span class="muted"> ({last.duration_ms} ms)</span>}
                    </td>
                    <td class="nowrap">{venueMinute(d.next_attempt_at) || '—'}</td>
                    <td>
                      <RowAction
                        label="Send again"
                        of={`the ${d.event} message ${d.message_id}`}
                        disabled={f.busy || d.status === 'pending' || w.status !== 'active'}
                        onClick={() => resend(d.id, what)}
                      />
                    </td>
                  </tr>
                )
              })}
            </Table>
          </ScrollBox>
        )}
      </PagedList>
    </Section>
  )
}
