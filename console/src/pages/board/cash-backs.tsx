import type { operations } from '../../../../src/client/index.ts'
import { api, ok } from '../../api.ts'
import { Outcome, Table, useForm, useLoad } from '../../components/forms.tsx'
import { Notice, RowAction } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import type { Board } from './data.ts'

// Desk money refunded and not yet handed back (GET /api/venues/{venue}/cash-backs?status=due): one
// row per cash-back with a "Paid out" button that records handing it over. For the venue's owner,
// managers and staff, on the day board. A cash-back names its booking by id only; the board of the
// day shown names the ones it holds (number and customer).

type CashBack = operations['listCashBacks']['responses'][200]['content']['application/json']['data'][number]

export function CashBacksDue({ venueId, board }: { venueId: number; board: Board }) {
  const venue = String(venueId)
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
      : `${c.booking_type === 'court' ? 'Court' : 'Game'} booking #${c.booking_id}`
  }

  async function pay(c: CashBack) {
    await f.submit(async () => {
      await ok(
        api().POST('/api/venues/{venue}/cash-backs/{cashBack}/pay', { params: { path: { venue, cashBack: c.id } } }),
      )
      due.reload()
      return `${money(c.amount)} handed back for ${nameOf(c)}.`
    })
  }

  return (
    <section class="cash-backs card no-print" aria-labelledby="cash-backs-head">
      <h2 id="cash-backs-head">Cash-backs due</h2>
      <p class="muted">Refunded desk money to hand back to the customer at the desk.</p>
      <Outcome error={f.error} notice={f.notice} />
      {shown.length > 0 && (
        <Table caption="Cash-backs due" columns={['Booking', { label: 'Amount', num: true }, 'Actions']}>
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
              </td>
              <td class="num nowrap">{money(c.amount)}</td>
              <td class="row-actions">
                <RowAction
                  label="Paid out"
                  of={`${money(c.amount)} for ${nameOf(c)}`}
                  disabled={f.busy}
                  onClick={() => pay(c)}
                  primary
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  )
}
