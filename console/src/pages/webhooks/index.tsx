import { useState } from 'preact/hooks'
import { api, ok, type Schemas, type User } from '../../api.ts'
import { CheckField, Loaded, Outcome, PagedList, Section, Table, useForm, useLoad } from '../../components/forms.tsx'
import { ScrollBox } from '../../components/scroll.tsx'
import { Field, Notice, RowAction } from '../../components/ui.tsx'
import { venueMinute } from '../../format.ts'
import { count, digits, getLang as lang, localName, type MessageKey, t } from '../../i18n/index.ts'
import { momentText } from '../../i18n/moments.ts'
import { href } from '../../router.ts'
import { managesVenue, type Venue } from '../../session.ts'

// The venue's webhook endpoints for its owner and managers (issue 35; docs/webhooks.md): the list,
// a new endpoint whose signing secret is shown once (the API never shows it again), delete, and
// each endpoint's recent deliveries with their status and last attempts, with "Send again"
// (POST …/deliveries/{delivery}/resend). All through /api/venues/{venue}/webhooks….

type Webhook = Schemas['Webhook']
type WebhookEvent = Schemas['WebhookEvent']

/** The events an endpoint may take, in the form's order; each named by its catalogue key. */
const EVENTS: { value: WebhookEvent; label: MessageKey }[] = [
  { value: 'booking.created', label: 'webhooks.event.bookingCreated' },
  { value: 'booking.confirmed', label: 'webhooks.event.bookingConfirmed' },
  { value: 'booking.cancelled', label: 'webhooks.event.bookingCancelled' },
  { value: 'booking.completed', label: 'webhooks.event.bookingCompleted' },
  { value: 'indoor_booking.created', label: 'webhooks.event.indoorCreated' },
  { value: 'indoor_booking.confirmed', label: 'webhooks.event.indoorConfirmed' },
  { value: 'booking.no_show', label: 'webhooks.event.bookingNoShow' },
  { value: 'indoor_booking.cancelled', label: 'webhooks.event.indoorCancelled' },
  { value: 'indoor_booking.completed', label: 'webhooks.event.indoorCompleted' },
  { value: 'indoor_booking.no_show', label: 'webhooks.event.indoorNoShow' },
  { value: 'payment.completed', label: 'webhooks.event.paymentCompleted' },
  { value: 'payment.refunded', label: 'webhooks.event.paymentRefunded' },
]

/** An instant of this page: "2026-11-25 18:15" in English, with the BS date beside in Nepali. */
const when = (instant: string | null | undefined) => (instant ? momentText(instant, venueMinute(instant)) : '')

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
        <h1>{t('webhooks.title', { venue: localName(venue) })}</h1>
        <Notice kind="error">{t('webhooks.staffRefused')}</Notice>
        <p>
          <a href={href(`/venues/${venue.id}/board`)}>{t('common.backToBoard')}</a>
        </p>
      </section>
    )
  }
  return (
    <section>
      <h1>{t('webhooks.title', { venue: localName(venue) })}</h1>
      <p class="muted">{t('webhooks.explain')}</p>
      <div class="manage-stack">
        <Section title={t('webhooks.endpoints')}>
          <Loaded state={list} loading={t('webhooks.loading')} empty={t('webhooks.none')}>
            {(rows) => (
              <ScrollBox label={t('webhooks.endpointsScroll')}>
                <Table
                  caption={t('webhooks.endpointsCaption')}
                  columns={[
                    t('webhooks.url'),
                    t('webhooks.events'),
                    t('webhooks.status'),
                    t('webhooks.created'),
                    t('webhooks.actions'),
                  ]}
                >
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
  const what = t('webhooks.what', { url: w.url, id: String(w.id) })
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
        {w.status === 'active' ? t('webhooks.active') : t('webhooks.disabled', { when: when(w.disabled_at) })}
        {w.failing_since && w.status === 'active' && (
          <span class="muted">
            {t('webhooks.failingSince', { since: momentText(w.failing_since, w.failing_since) })}
          </span>
        )}
      </td>
      <td class={lang() === 'ne' ? undefined : 'nowrap'}>{when(w.created_at)}</td>
      <td>
        <Outcome error={f.error} notice={null} />
        <div class="row-actions">
          <button type="button" aria-expanded={open} onClick={onToggle}>
            {open ? t('webhooks.hideDeliveries') : t('webhooks.deliveries')}{' '}
            <span class="sr-only">{t('webhooks.ofWhat', { what })}</span>
          </button>
          {confirming ? (
            <>
              <RowAction label={t('webhooks.deleteForGood')} of={what} onClick={remove} disabled={f.busy} />
              <RowAction label={t('webhooks.keep')} of={what} onClick={() => setConfirming(false)} />
            </>
          ) : (
            <RowAction label={t('webhooks.delete')} of={what} onClick={() => setConfirming(true)} />
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
    <Section title={t('webhooks.newEndpoint')}>
      {secret && (
        <div class="notice notice-success secret" role="status">
          <p>{t('webhooks.added', { url: secret.url })}</p>
          <p>
            <span class="strong">{t('webhooks.secret')}</span> <code>{secret.secret}</code>
          </p>
          <button type="button" onClick={() => setSecret(null)}>
            {t('webhooks.copied')}
          </button>
        </div>
      )}
      <form onSubmit={create}>
        <Outcome error={f.error && !f.fieldError('url') && !eventsError ? f.error : null} notice={f.notice} />
        <Field
          label={t('webhooks.endpointUrl')}
          type="url"
          required
          placeholder="https://example.com/courtside"
          value={String(f.values.url)}
          onInput={f.text('url')}
          error={f.fieldError('url')}
        />
        <fieldset aria-describedby={eventsError ? 'webhook-events-error' : undefined}>
          <legend>{t('webhooks.eventsToSend')}</legend>
          {EVENTS.map((e) => (
            <CheckField
              key={e.value}
              label={`${t(e.label)} (${e.value})`}
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
            {t('webhooks.add')}
          </button>
        </div>
      </form>
    </Section>
  )
}

const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const
/** A delivery's status as the page names it; an unknown one as is. */
const deliveryStatus = (status: string) =>
  (DELIVERY_STATUSES as readonly string[]).includes(status)
    ? t(`webhooks.delivery.${status as (typeof DELIVERY_STATUSES)[number]}`)
    : status

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
      return t('webhooks.resent', { what })
    })
    if (done) list.reload()
  }
  return (
    <Section title={t('webhooks.deliveriesTo', { url: w.url })}>
      <div class="actions">
        <button type="button" onClick={list.reload}>
          {t('webhooks.refresh')}
        </button>
      </div>
      <Outcome error={f.error} notice={f.notice} />
      <PagedList
        state={list}
        loading={t('webhooks.loadingDeliveries')}
        empty={t('webhooks.nothingSent')}
        label={t('webhooks.pages')}
        onPage={setPage}
      >
        {(rows) => (
          <ScrollBox label={t('webhooks.deliveriesScroll', { url: w.url })}>
            <Table
              caption={t('webhooks.deliveriesTo', { url: w.url })}
              columns={[
                t('webhooks.event'),
                t('webhooks.message'),
                t('webhooks.status'),
                t('webhooks.attempts'),
                t('webhooks.lastAnswer'),
                t('webhooks.nextAttempt'),
                t('webhooks.actions'),
              ]}
            >
              {rows.map((d) => {
                const last = d.last_attempts[0]
                const what = t('webhooks.messageWhat', { event: d.event, id: d.message_id })
                return (
                  <tr key={d.id}>
                    <td>{d.event}</td>
                    <td class="break">
                      <code>{d.message_id}</code>
                      <br />
                      <span class="muted">{when(d.created_at)}</span>
                    </td>
                    <td>{deliveryStatus(d.status)}</td>
                    <td class="num">{count(d.attempts)}</td>
                    <td>
                      {last
                        ? last.status_code !== null
                          ? digits(`HTTP ${last.status_code}`)
                          : (last.error ?? '—')
                        : '—'}
                      {last && (
                        <span class="muted">{t('webhooks.duration', { ms: digits(String(last.duration_ms)) })}</span>
                      )}
                    </td>
                    <td class={lang() === 'ne' ? undefined : 'nowrap'}>{when(d.next_attempt_at) || '—'}</td>
                    <td>
                      <RowAction
                        label={t('webhooks.sendAgain')}
                        of={t('webhooks.messageOf', { event: d.event, id: d.message_id })}
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
