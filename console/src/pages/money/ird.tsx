import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { Outcome, Section, Table, useForm, useLoad } from '../../components/forms.tsx'
import { ScrollBox } from '../../components/scroll.tsx'
import { Field, Loading, Notice } from '../../components/ui.tsx'
import { digits, t } from '../../i18n/index.ts'
import type { Venue } from '../../session.ts'

// The venue's IRD reporting (issue 49), for its owner: the CBMS account (the password is never
// shown, only whether one is stored) and the invoices CBMS has not taken, with a retry.

type IrdStatus = Schemas['IrdSettings']

export function IrdSection({ venue }: { venue: Venue }) {
  const venueId = String(venue.id)
  const [retried, setRetried] = useState<string | null>(null)
  const status = useLoad(
    () => ok(api().GET('/api/venues/{venue}/ird', { params: { path: { venue: venueId } } })).then((r) => r.data),
    [venueId],
  )
  return (
    <Section title={t('ird.title')}>
      <p class="muted">{t('ird.explain')}</p>
      {status.error && <Notice kind="error">{status.error}</Notice>}
      {!status.data ? (
        !status.error && <Loading what={t('ird.loading')} />
      ) : (
        <>
          <Failures
            venueId={venueId}
            status={status.data}
            retried={retried}
            onChange={(notice) => {
              setRetried(notice)
              status.reload()
            }}
          />
          <IrdForm venueId={venueId} status={status.data} onSaved={status.reload} />
        </>
      )}
    </Section>
  )
}

function Failures({
  venueId,
  status,
  onChange,
  retried,
}: {
  venueId: string
  status: IrdStatus
  onChange: (notice: string) => void
  retried: string | null
}) {
  const f = useForm({})
  if (status.failed === 0) {
    // The retry's notice stays after the list has emptied.
    return (
      <div>
        {retried && <Notice kind="success">{retried}</Notice>}
        <p>{status.pending > 0 ? t('ird.pending', { n: status.pending }) : t('ird.nothing')}</p>
      </div>
    )
  }
  async function retry() {
    await f.submit(async () => {
      const r = await ok(api().POST('/api/venues/{venue}/ird/retry', { params: { path: { venue: venueId } } }))
      onChange(t('ird.queued', { n: r.data.queued }))
      return undefined
    })
  }
  return (
    <div>
      <Notice kind="error">{t('ird.failed', { n: status.failed })}</Notice>
      <ScrollBox label={t('ird.failuresScroll')}>
        <Table caption={t('ird.failuresCaption')} columns={[t('ird.invoice'), t('ird.dateBs'), t('ird.answer')]}>
          {status.failures.map((x) => (
            <tr key={x.receipt_id}>
              <td>{x.receipt_number}</td>
              <td>{digits(x.issued_on_bs)}</td>
              <td>
                {x.code === null ? (x.error ?? t('ird.noAnswer')) : `${digits(String(x.code))}: ${x.error ?? ''}`}
              </td>
            </tr>
          ))}
        </Table>
      </ScrollBox>
      <Outcome error={f.error} notice={f.notice} />
      <div class="actions">
        <button type="button" onClick={retry} disabled={f.busy}>
          {t('ird.retry')}
        </button>
      </div>
    </div>
  )
}

function IrdForm({ venueId, status, onSaved }: { venueId: string; status: IrdStatus; onSaved: () => void }) {
  const f = useForm({
    enabled: status.enabled,
    username: status.username ?? '',
    password: '',
    seller_pan: status.seller_pan ?? '',
  })
  const v = f.values
  async function save(e: Event) {
    e.preventDefault()
    await f.submit(async () => {
      await ok(
        api().PUT('/api/venues/{venue}/ird', {
          params: { path: { venue: venueId } },
          body: {
            enabled: v.enabled,
            username: v.username.trim(),
            seller_pan: v.seller_pan.trim(),
            ...(v.password === '' ? {} : { password: v.password }),
          },
        }),
      )
      f.setValues((x) => ({ ...x, password: '' }))
      onSaved()
      return t('ird.saved')
    })
  }
  return (
    <form onSubmit={save}>
      <Outcome error={f.error} notice={f.notice} />
      <div class="field check">
        <span>
          <input id="ird-enabled" type="checkbox" checked={v.enabled} onChange={f.check('enabled')} />
          <label for="ird-enabled">{t('ird.enabled')}</label>
        </span>
      </div>
      <div class="row">
        <Field label={t('ird.username')} {...f.bind('username')} required autoComplete="off" />
        <Field
          label={t('ird.password')}
          type="password"
          {...f.bind('password')}
          autoComplete="new-password"
          hint={status.password_set ? t('ird.passwordStored') : undefined}
        />
        <Field label={t('ird.pan')} {...f.bind('seller_pan')} required inputMode="numeric" />
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={f.busy}>
          {t('ird.save')}
        </button>
      </div>
    </form>
  )
}
