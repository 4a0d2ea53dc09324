import { useEffect, useState } from 'preact/hooks'
import { api, messageOf, ok, type Schemas } from '../../api.ts'
import { Loading, Notice } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import type { BoardBooking } from './data.ts'

// A booking's receipts and credit notes as the service issued them (docs/payments.md, "Receipts and
// VAT"), each printable as the service's one-page PDF. The PDF needs the bearer token, so it is
// fetched as a Blob and opened in a new tab through an object URL (a plain link cannot send it).

type Receipt = Schemas['Receipt']

const TYPE_LABELS: Record<Receipt['type'], string> = { receipt: 'Receipt', credit_note: 'Credit note' }

async function loadReceipts(kind: BoardBooking['kind'], id: number): Promise<Receipt[]> {
  const answer =
    kind === 'court'
      ? await ok(api().GET('/api/bookings/{booking}/receipts', { params: { path: { booking: String(id) } } }))
      : await ok(
          api().GET('/api/indoor-game-bookings/{indoorGameBooking}/receipts', {
            params: { path: { indoorGameBooking: String(id) } },
          }),
        )
  return answer.data
}

/** Opens the receipt's PDF in a new tab; saves it as a file when the browser refuses the tab. */
async function printReceipt(receipt: Receipt) {
  const blob = await ok(
    api().GET('/api/receipts/{receipt}', {
      params: { path: { receipt: String(receipt.id) } },
      headers: { accept: 'application/pdf' },
      parseAs: 'blob',
    }),
  )
  const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }))
  if (!window.open(url, '_blank')) {
    const a = document.createElement('a')
    a.href = url
    a.download = `${receipt.receipt_number.replaceAll('/', '-')}.pdf`
    document.body.append(a)
    a.click()
    a.remove()
  }
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

/** The list of a booking's receipts; `version` changes when the booking's money may have moved. */
export function ReceiptList({ kind, id, version }: { kind: BoardBooking['kind']; id: number; version: string }) {
  const [receipts, setReceipts] = useState<Receipt[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [printing, setPrinting] = useState<number | null>(null)
  const [printError, setPrintError] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    setError(null)
    loadReceipts(kind, id)
      .then((r) => live && setReceipts(r))
      .catch((err) => live && setError(messageOf(err)))
    return () => {
      live = false
    }
  }, [kind, id, version])

  const print = async (r: Receipt) => {
    setPrinting(r.id)
    setPrintError(null)
    try {
      await printReceipt(r)
    } catch (err) {
      setPrintError(messageOf(err))
    } finally {
      setPrinting(null)
    }
  }

  // A div, not a named section: the panel's own printable receipt is the region named "Receipt".
  return (
    <div class="panel-part receipts">
      <h3>Receipts</h3>
      {error && <Notice kind="error">{error}</Notice>}
      {printError && <Notice kind="error">{printError}</Notice>}
      {!receipts && !error && <Loading what="Loading the receipts" />}
      {receipts &&
        (receipts.length ? (
          <table>
            <caption class="sr-only">Issued receipts and credit notes</caption>
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Type</th>
                <th scope="col" class="num">
                  Total
                </th>
                <th scope="col">Issued</th>
                <th scope="col">
                  <span class="sr-only">Print</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {receipts.map((r) => (
                <tr key={r.id}>
                  <td>{r.receipt_number}</td>
                  <td>{TYPE_LABELS[r.type] ?? r.type}</td>
                  <td class="num">{money(r.total)}</td>
                  <td>{r.issued_at.slice(0, 16)}</td>
                  <td>
                    <button
                      type="button"
                      onClick={() => void print(r)}
                      disabled={printing === r.id}
                      aria-label={`Print ${r.receipt_number}`}
                    >
                      Print
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p class="muted">No receipts issued yet.</p>
        ))}
    </div>
  )
}
