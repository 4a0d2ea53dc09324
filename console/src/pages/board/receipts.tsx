import { useEffect, useState } from 'preact/hooks'
import { api, messageOf, ok, type Schemas } from '../../api.ts'
import { openPdf } from '../../components/pdf.ts'
import { Loading, Notice } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import { digits, type MessageKey, t } from '../../i18n/index.ts'
import type { BoardBooking } from './data.ts'

// A booking's receipts and credit notes as the service issued them (docs/payments.md, "Receipts and
// VAT"), each printable as the service's one-page PDF. The PDF needs the bearer token, so it is
// fetched as a Blob and opened in a new tab through an object URL (a plain link cannot send it).

type Receipt = Schemas['Receipt']

const TYPE_LABELS: Record<Receipt['type'], MessageKey> = {
  receipt: 'receipt.label',
  credit_note: 'receipts.creditNote',
}

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
  openPdf(blob, `${receipt.receipt_number.replaceAll('/', '-')}.pdf`)
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
      <h3>{t('receipts.title')}</h3>
      {error && <Notice kind="error">{error}</Notice>}
      {printError && <Notice kind="error">{printError}</Notice>}
      {!receipts && !error && <Loading what={t('receipts.loading')} />}
      {receipts &&
        (receipts.length ? (
          <table>
            <caption class="sr-only">{t('receipts.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('receipts.number')}</th>
                <th scope="col">{t('panel.type')}</th>
                <th scope="col" class="num">
                  {t('panel.total')}
                </th>
                <th scope="col">{t('receipts.issued')}</th>
                <th scope="col">
                  <span class="sr-only">{t('receipts.print')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {receipts.map((r) => (
                <tr key={r.id}>
                  <td>{r.receipt_number}</td>
                  <td>{r.type in TYPE_LABELS ? t(TYPE_LABELS[r.type]) : r.type}</td>
                  <td class="num">{money(r.total)}</td>
                  <td>{digits(r.issued_at.slice(0, 16))}</td>
                  <td>
                    <button
                      type="button"
                      onClick={() => void print(r)}
                      disabled={printing === r.id}
                      aria-label={t('receipts.printOne', { number: r.receipt_number })}
                    >
                      {t('receipts.print')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p class="muted">{t('receipts.none')}</p>
        ))}
    </div>
  )
}
