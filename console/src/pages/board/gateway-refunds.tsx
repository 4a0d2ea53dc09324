import { useState } from 'preact/hooks'
import type { operations } from '../../../../src/client/index.ts'
import { api, hasRole, ok, type User } from '../../api.ts'
import { Outcome, Table, useForm, useLoad } from '../../components/forms.tsx'
import { Notice } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import { t } from '../../i18n/index.ts'
import { managesVenue, type Venue } from '../../session.ts'
import { methodLabel } from '../reports/methods.ts'
import type { Board } from './data.ts'

// Gateway money taken at the desk and refunded goes back through its gateway, never from the drawer
// (GET /api/venues/{venue}/gateway-refunds): on the day board for the venue's owner and managers. A
// desk QR payment's went to the platform's merchant account: Khalti's is sent by Khalti's refund API,
// eSewa's and Fonepay's by the platform (a super_admin marks them done). A payment typed before desk
// QR payments went to the venue's own account: the owner makes the refund in the gateway's merchant
// portal and records its reference here ("Mark done").

type GatewayRefund = operations['listGatewayRefunds']['responses'][200]['content']['application/json']['data'][number]

const methodName = methodLabel

export function GatewayRefundsDue({ user, venue: theVenue, board }: { user: User; venue: Venue; board: Board }) {
  const venue = String(theVenue.id)
  const manages = managesVenue(user, theVenue)
  const platform = hasRole(user, 'super_admin')
  const due = useLoad(
    () =>
      manages
        ? ok(
            api().GET('/api/venues/{venue}/gateway-refunds', { params: { path: { venue }, query: { status: 'due' } } }),
          ).then((r) => r.data)
        : Promise.resolve([] as GatewayRefund[]),
    [venue, board.now, manages],
  )
  const f = useForm({})
  const [refs, setRefs] = useState<Record<number, string>>({})
  const shown = due.data ?? []
  if (!manages) return null
  if (due.error) return <Notice kind="error">{due.error}</Notice>
  if (shown.length === 0 && !f.notice) return null

  const nameOf = (r: GatewayRefund) => {
    const b = board.bookings.find((x) => x.id === r.booking_id && (x.kind === 'court') === (r.booking_type === 'court'))
    return b
      ? `${b.booking_number} · ${b.customer_name}`
      : t(r.booking_type === 'court' ? 'cashBack.courtBooking' : 'cashBack.gameBooking', { id: String(r.booking_id) })
  }

  async function markDone(r: GatewayRefund) {
    await f.submit(async () => {
      await ok(
        api().POST('/api/venues/{venue}/gateway-refunds/{gatewayRefund}/done', {
          params: { path: { venue, gatewayRefund: r.id } },
          body: { reference: (refs[r.id] ?? '').trim() },
        }),
      )
      due.reload()
      return t('gatewayRefund.done', { method: methodName(r.method), amount: money(r.amount), booking: nameOf(r) })
    })
  }

  return (
    <section class="gateway-refunds card no-print" aria-labelledby="gateway-refunds-head">
      <h2 id="gateway-refunds-head">{t('gatewayRefund.title')}</h2>
      <p class="muted">{t('gatewayRefund.explain')}</p>
      <Outcome error={f.error} notice={f.notice} />
      {shown.length > 0 && (
        <Table
          caption={t('gatewayRefund.title')}
          columns={[t('common.booking'), { label: t('common.amount'), num: true }, t('cashBack.actions')]}
        >
          {shown.map((r) => (
            <tr key={r.id}>
              <td>
                {nameOf(r)}
                <br />
                <span class="muted">
                  {methodName(r.method)}
                  {r.reason ? ` · ${r.reason}` : ''}
                  {r.last_error ? t('gatewayRefund.error', { error: r.last_error }) : ''}
                </span>
              </td>
              <td class="num nowrap">{money(r.amount)}</td>
              <td class="row-actions">
                {r.refund_from === 'platform' && !platform ? (
                  <span class="muted">{t('gatewayRefund.platform', { method: methodName(r.method) })}</span>
                ) : (
                  markDoneControls(r)
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  )

  /** The reference field and its button (a plain call, not a component: the field keeps its focus). */
  function markDoneControls(r: GatewayRefund) {
    return (
      <>
        <label>
          <span class="sr-only">
            {t('gatewayRefund.referenceFor', { method: methodName(r.method), booking: nameOf(r) })}
          </span>
          <input
            value={refs[r.id] ?? ''}
            placeholder={t('gatewayRefund.reference')}
            maxLength={100}
            onInput={(e) => setRefs({ ...refs, [r.id]: e.currentTarget.value })}
          />
        </label>
        <button type="button" disabled={f.busy || !(refs[r.id] ?? '').trim()} onClick={() => markDone(r)}>
          {t('gatewayRefund.markDone')}{' '}
          <span class="sr-only">{t('cashBack.of', { amount: money(r.amount), booking: nameOf(r) })}</span>
        </button>
      </>
    )
  }
}
