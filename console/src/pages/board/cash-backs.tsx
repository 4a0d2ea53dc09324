import type { operations } from '../../../../src/client/index.ts'
import { api, ok, type User } from '../../api.ts'
import { Outcome, Table, useForm, useLoad } from '../../components/forms.tsx'
import { Notice, RowAction } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import { t } from '../../i18n/index.ts'
import { managesVenue, type Venue } from '../../session.ts'
import { methodLabel } from '../reports/methods.ts'
import type { Board } from './data.ts'

// Desk money refunded and not yet handed back (GET /api/venues/{venue}/cash-backs?status=due), on the
// day board for the venue's owner, managers and staff: one row per cash-back with who took the
// payment, who cancelled or refunded it and who approved it. "Paid out" records handing it over; the
// drawer pays back only cash it took for the booking, so a cash-back of a gateway payment or one the
// booking's cash no longer covers says why instead. Above the approval amount an owner or manager
// approves first ("Approve"; their own "Paid out" approves it too); staff see it awaiting approval.

type CashBack = operations['listCashBacks']['responses'][200]['content']['application/json']['data'][number]

const methodName = methodLabel

/** Who took, cancelled and approved it, in words. */
function actors(c: CashBack): string {
  const who = (id: number | null, name: string | null) => name ?? (id === null ? null : `#${id}`)
  const service = t('cashBack.service')
  const parts = [
    t('cashBack.takenBy', {
      method: methodName(c.payment_method),
      who: who(c.taken_by, c.taken_by_name) ?? service,
    }),
    t('cashBack.refundedBy', { who: who(c.cancelled_by, c.cancelled_by_name) ?? service }),
  ]
  const approver = who(c.approved_by, c.approved_by_name)
  if (approver) parts.push(t('cashBack.approvedBy', { who: approver }))
  return parts.join(' · ')
}

export function CashBacksDue({ user, venue: theVenue, board }: { user: User; venue: Venue; board: Board }) {
  const venue = String(theVenue.id)
  const approves = managesVenue(user, theVenue)
  // Reloaded with the board (its `now` changes on every load, and a refund changes the board).
  const due = useLoad(
    () =>
      ok(api().GET('/api/venues/{venue}/cash-backs', { params: { path: { venue }, query: { status: 'due' } } })).then(
        (r) => r.data,
      ),
    [venue, board.now],
  )
  const f = useForm({})
  const shown = due.data ?? []
  if (due.error) return <Notice kind="error">{due.error}</Notice>
  if (shown.length === 0 && !f.notice) return null

  const nameOf = (c: CashBack) => {
    const b = board.bookings.find((x) => x.id === c.booking_id && (x.kind === 'court') === (c.booking_type === 'court'))
    return b
      ? `${b.booking_number} · ${b.customer_name}`
      : (c.booking_number ??
          t(c.booking_type === 'court' ? 'cashBack.courtBooking' : 'cashBack.gameBooking', {
            id: String(c.booking_id),
          }))
  }

  async function pay(c: CashBack) {
    await f.submit(async () => {
      await ok(
        api().POST('/api/venues/{venue}/cash-backs/{cashBack}/pay', { params: { path: { venue, cashBack: c.id } } }),
      )
      due.reload()
      return t('cashBack.paid', { amount: money(c.amount), booking: nameOf(c) })
    })
  }

  async function approve(c: CashBack) {
    await f.submit(async () => {
      await ok(
        api().POST('/api/venues/{venue}/cash-backs/{cashBack}/approve', {
          params: { path: { venue, cashBack: c.id } },
        }),
      )
      due.reload()
      return t('cashBack.approved', { amount: money(c.amount), booking: nameOf(c) })
    })
  }

  function actions(c: CashBack) {
    if (!c.covered_by_drawer) {
      return (
        <span class="muted">
          {c.payment_method === 'cash'
            ? t('cashBack.notDrawerCash')
            : t('cashBack.notDrawerMethod', { method: methodName(c.payment_method) })}
        </span>
      )
    }
    const awaiting = c.needs_approval && c.approved_by === null
    if (awaiting && !approves) return <span class="muted">{t('cashBack.awaiting')}</span>
    const of = t('cashBack.of', { amount: money(c.amount), booking: nameOf(c) })
    return (
      <>
        {awaiting && <RowAction label={t('cashBack.approve')} of={of} disabled={f.busy} onClick={() => approve(c)} />}
        <RowAction label={t('cashBack.payOut')} of={of} disabled={f.busy} onClick={() => pay(c)} primary />
      </>
    )
  }

  return (
    <section class="cash-backs card no-print" aria-labelledby="cash-backs-head">
      <h2 id="cash-backs-head">{t('cashBack.title')}</h2>
      <p class="muted">{t('cashBack.explain')}</p>
      <Outcome error={f.error} notice={f.notice} />
      {shown.length > 0 && (
        <Table
          caption={t('cashBack.title')}
          columns={[t('common.booking'), { label: t('common.amount'), num: true }, t('cashBack.actions')]}
        >
          {shown.map((c) => (
            <tr key={c.id}>
              <td>
                {nameOf(c)}
                {c.reason && (
                  <>
                    <br />
                    <span class="muted">{c.reason}</span>
                  </>
                )}
                <br />
                <span class="muted">{actors(c)}</span>
              </td>
              <td class="num nowrap">
                {money(c.amount)}
                {c.needs_approval && c.covered_by_drawer && (
                  <>
                    <br />
                    <span class="muted">
                      {c.approved_by === null ? t('cashBack.needsApproval') : t('cashBack.isApproved')}
                    </span>
                  </>
                )}
              </td>
              <td class="row-actions">{actions(c)}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  )
}
