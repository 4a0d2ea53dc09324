import { useEffect, useState } from 'preact/hooks'
import { ApiError, messageOf } from '../../api.ts'
import { Dialog, Field, Loading, Notice, SelectField } from '../../components/ui.tsx'
import { longDate, money, STATUS_LABELS } from '../../format.ts'
import {
  addCashPayment,
  addCharge,
  allowedTargets,
  cancelSeriesFrom,
  createBlock,
  createBooking,
  createSeries,
  type DeskQr,
  type DeskType,
  deleteBlock,
  loadSeries,
  paymentNow,
  type QrMethod,
  type Series,
  setStatus,
  startQrPayment,
  type Target,
} from './actions.ts'
import { type Board, type BoardBlock, type BoardBooking, type BookingDetail, type Column, loadBooking } from './data.ts'
import { holdText, WEEKDAYS } from './grid.tsx'
import { MatchPart } from './match-part.tsx'
import { ReceiptList } from './receipts.tsx'

// The board's dialogs: a new desk booking on a free slot, a booking's panel (status, charges, cash,
// receipt), a maintenance block on a court and its removal. A 422 is shown next to the field it
// names (ApiError.field), a 409 or any other refusal as the form's alert.

type Failure = ApiError | string | null

/** The message for `names` (the first the service gave), and the form-level message otherwise. */
function errorsOf(error: Failure, fields: Record<string, string[]>) {
  const field = (name: string) => {
    if (!(error instanceof ApiError)) return undefined
    for (const n of fields[name] ?? [name]) {
      const m = error.field(n)
      if (m) return m
    }
    return undefined
  }
  let form: string | null = null
  if (typeof error === 'string') form = error
  else if (error) {
    const known = Object.values(fields).flat()
    const shown = Object.keys(error.fields).some((f) => known.includes(f))
    form = shown ? null : error.message
  }
  return { field, form }
}

const failure = (err: unknown): Failure => (err instanceof ApiError ? err : messageOf(err))

/** What a form or button runs: busy while it runs, its failure kept for the form to show. */
function useAction() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<Failure>(null)
  async function run(action: () => Promise<void>) {
    setBusy(true)
    setError(null)
    try {
      await action()
    } catch (err) {
      setError(failure(err))
    } finally {
      setBusy(false)
    }
  }
  /** An onSubmit handler running `action`. */
  const submit = (action: () => Promise<void>) => (e: Event) => {
    e.preventDefault()
    void run(action)
  }
  return { busy, error, run, submit }
}

// --- New booking on a free slot ----------------------------------------------------------------

export function NewBookingDialog({
  venueId,
  board,
  column,
  start,
  onDone,
  onClose,
}: {
  venueId: number
  board: Board
  column: Column
  start: string
  onDone: (message: string) => void
  onClose: () => void
}) {
  // Consecutive slots from `start` that were free when the dialog opened (up to 8).
  const [choices] = useState(() => {
    const from = column.slots.findIndex((s) => s.start_time === start)
    const out: { value: string; label: string }[] = []
    for (let i = from; i >= 0 && i < column.slots.length && out.length < 8; i++) {
      if (i > from && column.slots[i].state !== 'free') break
      const n = i - from + 1
      out.push({
        value: column.slots[i].end_time,
        label: `${n} slot${n > 1 ? 's' : ''} (${start}–${column.slots[i].end_time})`,
      })
    }
    return out
  })
  const [name, setName] = useState('')
  const [phone, setPhone] = useState('')
  const [type, setType] = useState<DeskType>('walkin')
  const [end, setEnd] = useState(choices[0]?.value ?? start)
  const [notes, setNotes] = useState('')
  // A court can be booked every week for a regular team: 1 is this date only.
  const [weeks, setWeeks] = useState('1')
  const [skipTaken, setSkipTaken] = useState(false)
  const weekly = column.kind === 'court' && weeks !== '1'
  const action = useAction()
  const { busy, error } = action
  const { field, form } = errorsOf(error, {
    customer_name: ['customer_name'],
    customer_phone: ['customer_phone'],
    duration: ['start_time', 'end_time', 'date', 'start_date', 'court_id', 'indoor_game_id'],
    weeks: ['weeks', 'on_conflict'],
    notes: ['notes'],
    type: ['type'],
  })

  const submit = action.submit(async () => {
    if (weekly) {
      const series = await createSeries(venueId, {
        courtId: column.id,
        startDate: board.date,
        weeks: Number(weeks),
        start_time: start,
        end_time: end,
        type,
        customer_name: name,
        customer_phone: phone,
        notes,
        skipTaken,
      })
      const skipped = series.skipped.length
        ? ` Taken weeks skipped: ${series.skipped.map((s) => longDate(s.date)).join(', ')}.`
        : ''
      onDone(
        `Booked ${series.customer_name} every ${WEEKDAYS[series.weekday]} ${series.start_time}–${series.end_time}: ` +
          `${series.occurrences.length} weeks from ${longDate(series.start_date)}.${skipped}`,
      )
      return
    }
    const made = await createBooking(venueId, {
      kind: column.kind,
      resourceId: column.id,
      date: board.date,
      start_time: start,
      end_time: end,
      type,
      customer_name: name,
      customer_phone: phone,
      notes,
    })
    onDone(`Booked ${made.booking_number} for ${made.customer_name}, ${made.start_time}–${made.end_time}.`)
  })

  return (
    <Dialog title={`New booking: ${column.name}, ${start}`} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p class="muted">{longDate(board.date)}</p>
        {form && <Notice kind="error">{form}</Notice>}
        <Field
          label="Customer name"
          name="customer_name"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          error={field('customer_name')}
          autoComplete="off"
          autoFocus
          required
        />
        <Field
          label="Phone"
          name="customer_phone"
          type="tel"
          value={phone}
          onInput={(e) => setPhone(e.currentTarget.value)}
          error={field('customer_phone')}
          autoComplete="off"
        />
        <div class="row">
          <SelectField
            label="Booking type"
            value={type}
            onChange={(e) => setType(e.currentTarget.value as DeskType)}
            error={field('type')}
            options={[
              { value: 'walkin', label: 'Walk-in' },
              { value: 'offline', label: 'Phone booking' },
            ]}
          />
          <SelectField
            label="Duration"
            value={end}
            onChange={(e) => setEnd(e.currentTarget.value)}
            error={field('duration')}
            options={choices}
          />
        </div>
        {column.kind === 'court' && (
          <div class="row">
            <SelectField
              label="Repeat"
              value={weeks}
              onChange={(e) => setWeeks(e.currentTarget.value)}
              error={field('weeks')}
              options={[
                { value: '1', label: 'This date only' },
                ...Array.from({ length: 25 }, (_, i) => ({
                  value: String(i + 2),
                  label: `Every ${WEEKDAYS[weekdayOf(board.date)]} for ${i + 2} weeks`,
                })),
              ]}
            />
            {weekly && (
              <div class="field check">
                <span>
                  <input
                    id="series-skip"
                    type="checkbox"
                    checked={skipTaken}
                    onChange={(e) => setSkipTaken(e.currentTarget.checked)}
                  />
                  <label for="series-skip">Skip weeks already taken</label>
                </span>
              </div>
            )}
          </div>
        )}
        <Field label="Notes" value={notes} onInput={(e) => setNotes(e.currentTarget.value)} error={field('notes')} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Booking…' : weekly ? 'Book every week' : 'Book'}
          </button>
        </div>
      </form>
    </Dialog>
  )
}

/** 0 = Sunday … 6 = Saturday of a YYYY-MM-DD date (calendar arithmetic, no time zone). */
function weekdayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay()
}

// --- A booking: details, status, charges, cash, receipt ----------------------------------------

const TARGET_LABELS: Record<Target, string> = {
  playing: 'Mark playing',
  completed: 'Mark completed',
  no_show: 'Mark no-show',
  cancelled: 'Cancel booking…',
}

const METHOD_LABELS: Record<string, string> = {
  cash: 'Cash',
  wallet: 'Wallet',
  gateway_1: 'eSewa',
  gateway_2: 'Khalti',
  gateway_3: 'Fonepay',
}

const QR_METHODS: QrMethod[] = ['gateway_1', 'gateway_2', 'gateway_3']

/** How often the desk asks whether the customer has paid the QR, and for how long. */
const QR_POLL_MS = 3000
const QR_GIVE_UP_MS = 15 * 60 * 1000

export function BookingDialog({
  venueId,
  venueName,
  board,
  booking,
  started,
  onChanged,
  onClose,
}: {
  venueId: number
  venueName: string
  board: Board
  booking: BoardBooking
  started: boolean
  onChanged: (message: string) => void
  onClose: () => void
}) {
  const [detail, setDetail] = useState<BookingDetail | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [receipt, setReceipt] = useState(false)
  const column = board.columns.find((c) => c.kind === booking.kind && c.id === booking.resource_id)
  const where = column?.name ?? ''

  useEffect(() => {
    let live = true
    loadBooking(venueId, board.date, booking)
      .then((d) => live && setDetail(d))
      .catch((err) => live && setLoadError(messageOf(err)))
    return () => {
      live = false
    }
    // Reloaded when the board shows the booking changed (another desk took cash, a status moved).
  }, [venueId, board.date, booking.id, booking.kind, booking.status, booking.paid_amount, booking.total_amount])

  const changed = (next: BookingDetail, message: string) => {
    setDetail(next)
    setDone(message)
    onChanged(message)
  }

  return (
    <Dialog title={`Booking ${booking.booking_number}`} onClose={onClose}>
      {loadError && <Notice kind="error">{loadError}</Notice>}
      {!detail && !loadError && <Loading what="Loading the booking" />}
      {detail && (
        <div class="booking-panel">
          {done && <Notice kind="success">{done}</Notice>}
          <dl class="booking-facts">
            <dt>Customer</dt>
            <dd>
              {detail.customer_name}
              {detail.customer_phone && <> · {detail.customer_phone}</>}
            </dd>
            <dt>When</dt>
            <dd>
              {where}, {longDate(detail.date)}, {detail.start_time}–{detail.end_time}
            </dd>
            <dt>Status</dt>
            <dd>
              {STATUS_LABELS[detail.status] ?? detail.status}
              {detail.cancel_reason && <> ({detail.cancel_reason})</>}
              {booking.is_hold && <> · {holdText(booking, board.now)}</>}
            </dd>
            <dt>Type</dt>
            <dd>{detail.type === 'walkin' ? 'Walk-in' : detail.type === 'offline' ? 'Phone booking' : 'Online'}</dd>
            <dt>Total</dt>
            <dd>{money(detail.total_amount)}</dd>
            <dt>Paid</dt>
            <dd>{money(detail.paid_amount)}</dd>
            <dt>Balance due</dt>
            <dd class="strong">{money(detail.balance_due)}</dd>
            {booking.shares && (
              <>
                <dt>Shares</dt>
                <dd data-testid="booking-shares">
                  Split in {booking.shares.total} shares: {booking.shares.paid} paid,{' '}
                  {booking.shares.total - booking.shares.paid} unpaid
                  {booking.is_hold && <> · the unpaid ones are due before the hold ends</>}
                </dd>
              </>
            )}
            {booking.kind === 'court' && (
              <>
                <dt>Waitlist</dt>
                <dd>
                  {booking.waitlist_count === 0
                    ? 'Nobody waiting'
                    : `${booking.waitlist_count} customer${booking.waitlist_count === 1 ? '' : 's'} waiting for this slot`}
                  {booking.is_waitlist_offer && (
                    <>
                      {' '}
                      · offered to {booking.customer_name} from the waitlist; {holdText(booking, board.now)}
                    </>
                  )}
                </dd>
              </>
            )}
          </dl>
          {booking.series_id !== null && (
            <SeriesPart
              venueId={venueId}
              seriesId={booking.series_id}
              booking={booking}
              now={board.now}
              onChanged={(message) => {
                setDone(message)
                onChanged(message)
              }}
            />
          )}
          <MatchPart booking={booking} />
          <h3>Charges</h3>
          {detail.charges.length ? (
            <table>
              <caption class="sr-only">Extra charges</caption>
              <thead>
                <tr>
                  <th scope="col">Description</th>
                  <th scope="col" class="num">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {detail.charges.map((c) => (
                  <tr key={c.id}>
                    <td>{c.description}</td>
                    <td class="num">{money(c.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">No extra charges.</p>
          )}
          <h3>Payments</h3>
          {detail.payments.length ? (
            <table>
              <caption class="sr-only">Payments</caption>
              <thead>
                <tr>
                  <th scope="col">Method</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {detail.payments.map((p) => (
                  <tr key={p.id}>
                    <td>{METHOD_LABELS[p.method] ?? p.method}</td>
                    <td>{p.status.replace('_', ' ')}</td>
                    <td class="num">{money(p.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">No payments yet.</p>
          )}
          <ReceiptList
            kind={booking.kind}
            id={detail.id}
            version={`${detail.status} ${detail.paid_amount} ${detail.payments.length}`}
          />
          <StatusActions detail={detail} kind={booking.kind} started={started} onChanged={changed} />
          {detail.status !== 'cancelled' && detail.status !== 'no_show' && (
            <MoneyForms
              detail={detail}
              kind={booking.kind}
              onChanged={changed}
              reload={() => loadBooking(venueId, board.date, booking)}
            />
          )}
          <div class="actions">
            <button type="button" onClick={() => setReceipt(!receipt)} aria-expanded={receipt}>
              {receipt ? 'Hide receipt' : 'Show receipt'}
            </button>
            {receipt && (
              <button type="button" class="primary" onClick={() => window.print()}>
                Print receipt
              </button>
            )}
          </div>
          {receipt && <Receipt detail={detail} venueName={venueName} where={where} />}
        </div>
      )}
    </Dialog>
  )
}

/**
 * The booking's weekly series: when and how long, every week with its status, and a cancel of the
 * weeks from a chosen date on (the desk's series cancel; weeks already started stay).
 */
function SeriesPart({
  venueId,
  seriesId,
  booking,
  now,
  onChanged,
}: {
  venueId: number
  seriesId: number
  booking: BoardBooking
  /** The service's "now" (venue wall clock, "YYYY-MM-DD HH:mm:ss"), as the board last saw it. */
  now: string
  onChanged: (message: string) => void
}) {
  const [series, setSeries] = useState<Series | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [version, setVersion] = useState(0)
  const [from, setFrom] = useState('')
  const [reason, setReason] = useState('')
  const { busy, error, submit } = useAction()
  const { field, form } = errorsOf(error, { from: ['from_date'], reason: ['reason'] })

  useEffect(() => {
    let live = true
    loadSeries(venueId, seriesId)
      .then((s) => live && setSeries(s))
      .catch((err) => live && setLoadError(messageOf(err)))
    return () => {
      live = false
    }
  }, [venueId, seriesId, version, booking.status])

  if (loadError) return <Notice kind="error">{loadError}</Notice>
  if (!series) return <Loading what="Loading the series" />
  // The weeks a cancel can still take: pending or confirmed and not started (venue time).
  const today = now.slice(0, 10)
  const open = series.occurrences.filter(
    (o) =>
      (o.status === 'pending' || o.status === 'confirmed') &&
      (o.date > today || (o.date === today && o.start_time > now.slice(11, 16))),
  )
  const chosen = open.some((o) => o.date === from)
    ? from
    : (open.find((o) => o.date >= dateIn(series, booking))?.date ?? open[0]?.date ?? '')

  const cancel = submit(async () => {
    const message = await cancelSeriesFrom(venueId, seriesId, chosen, reason)
    setReason('')
    setVersion((v) => v + 1)
    onChanged(message)
  })

  return (
    <section class="panel-part" aria-labelledby="series-head">
      <h3 id="series-head">Weekly series</h3>
      <p>
        {series.customer_name}, every {WEEKDAYS[series.weekday]} {series.start_time}–{series.end_time}, {series.weeks}{' '}
        weeks from {longDate(series.start_date)}.
      </p>
      <ul class="series-weeks">
        {series.occurrences.map((o) => (
          <li key={o.id} aria-current={o.id === booking.id ? 'true' : undefined}>
            {longDate(o.date)} · {o.booking_number} · {STATUS_LABELS[o.status] ?? o.status}
            {o.id === booking.id && ' (this booking)'}
          </li>
        ))}
        {series.skipped.map((k) => (
          <li key={k.date}>
            {longDate(k.date)} · not booked ({k.reason})
          </li>
        ))}
      </ul>
      {open.length > 0 ? (
        <form class="subform" onSubmit={cancel} noValidate>
          {form && <Notice kind="error">{form}</Notice>}
          <div class="row">
            <SelectField
              label="Cancel the series from"
              value={chosen}
              onChange={(e) => setFrom(e.currentTarget.value)}
              error={field('from')}
              options={open.map((o) => ({ value: o.date, label: longDate(o.date) }))}
            />
            <Field
              label="Reason for cancelling the series"
              value={reason}
              onInput={(e) => setReason(e.currentTarget.value)}
              error={field('reason')}
            />
          </div>
          <div class="actions">
            <button type="submit" class="danger" disabled={busy || !chosen}>
              Cancel {open.filter((o) => o.date >= chosen).length} weeks from {chosen ? longDate(chosen) : '…'}
            </button>
          </div>
        </form>
      ) : (
        <p class="muted">No week of this series can be cancelled any more.</p>
      )}
    </section>
  )
}

/** The date of `booking` among the series' weeks, else the series' start. */
function dateIn(series: Series, booking: BoardBooking): string {
  return series.occurrences.find((o) => o.id === booking.id)?.date ?? series.start_date
}

function StatusActions({
  detail,
  kind,
  started,
  onChanged,
}: {
  detail: BookingDetail
  kind: BoardBooking['kind']
  started: boolean
  onChanged: (next: BookingDetail, message: string) => void
}) {
  const [cancelling, setCancelling] = useState(false)
  const [reason, setReason] = useState('')
  const { busy, error, run: act } = useAction()
  const targets = allowedTargets(detail.status, started)
  const { field, form } = errorsOf(error, { reason: ['reason', 'cancel_reason'], status: ['status'] })
  if (!targets.length) return null

  const run = (target: Target) =>
    act(async () => {
      const next = await setStatus(kind, detail.id, target, target === 'cancelled' ? reason : undefined)
      setCancelling(false)
      onChanged(next, `${detail.booking_number} is now ${(STATUS_LABELS[next.status] ?? next.status).toLowerCase()}.`)
    })

  return (
    <section class="panel-part" aria-labelledby="status-head">
      <h3 id="status-head">Status</h3>
      {form && <Notice kind="error">{form}</Notice>}
      {field('status') && <p class="error">{field('status')}</p>}
      <div class="actions">
        {targets.map((t) =>
          t === 'cancelled' ? (
            <button key={t} type="button" class="danger" onClick={() => setCancelling(true)} disabled={busy}>
              {TARGET_LABELS[t]}
            </button>
          ) : (
            <button key={t} type="button" class="primary" onClick={() => run(t)} disabled={busy}>
              {TARGET_LABELS[t]}
            </button>
          ),
        )}
      </div>
      {cancelling && (
        <form
          class="subform"
          onSubmit={(e) => {
            e.preventDefault()
            run('cancelled')
          }}
          noValidate
        >
          <Field
            label="Reason for cancelling"
            value={reason}
            onInput={(e) => setReason(e.currentTarget.value)}
            error={field('reason')}
            required
          />
          <div class="actions">
            <button type="submit" class="danger" disabled={busy || !reason.trim()}>
              Confirm cancellation
            </button>
            <button type="button" onClick={() => setCancelling(false)}>
              Keep booking
            </button>
          </div>
        </form>
      )}
    </section>
  )
}

function MoneyForms({
  detail,
  kind,
  onChanged,
  reload,
}: {
  detail: BookingDetail
  kind: BoardBooking['kind']
  onChanged: (next: BookingDetail, message: string) => void
  reload: () => Promise<BookingDetail>
}) {
  const due = Number(detail.balance_due)
  const [amount, setAmount] = useState(due.toFixed(2))
  const [chargeWhat, setChargeWhat] = useState('')
  const [chargeAmount, setChargeAmount] = useState('')
  const cash = useAction()
  const extra = useAction()
  const busy = cash.busy || extra.busy
  // A new balance (a charge added, a payment taken) becomes the default amount.
  useEffect(() => setAmount(Number(detail.balance_due).toFixed(2)), [detail.balance_due])
  const pay = errorsOf(cash.error, { amount: ['amount'], method: ['method'] })
  const charge = errorsOf(extra.error, { description: ['description'], amount: ['amount'] })

  const [qr, setQr] = useState<DeskQr | null>(null)
  const [qrNote, setQrNote] = useState<string | null>(null)
  const startQr = (method: QrMethod) =>
    cash.submit(async () => {
      setQrNote(null)
      setQr(await startQrPayment(kind, detail.id, amount.trim(), method))
    })
  // While a QR is shown, ask the service (which asks the gateway) until the payment is settled.
  useEffect(() => {
    if (!qr) return
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const started = Date.now()
    const ask = async () => {
      try {
        const p = await paymentNow(qr.payment.id)
        if (!live) return
        if (p.status === 'completed') {
          setQr(null)
          onChanged(
            await reload(),
            `${METHOD_LABELS[p.method]} ${money(p.amount)} received for ${detail.booking_number}.`,
          )
          return
        }
        if (p.status === 'failed') {
          setQr(null)
          setQrNote(`The ${METHOD_LABELS[p.method]} payment was not completed. Nothing was recorded.`)
          return
        }
      } catch {
        // A missed answer is asked again.
      }
      if (live && Date.now() - started < QR_GIVE_UP_MS) timer = setTimeout(ask, QR_POLL_MS)
    }
    timer = setTimeout(ask, QR_POLL_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [qr?.payment.id])

  const takeCash = cash.submit(async () => {
    const next = await addCashPayment(kind, detail.id, amount.trim())
    onChanged(next, `Cash ${money(amount.trim())} recorded for ${detail.booking_number}.`)
  })
  const addExtra = extra.submit(async () => {
    const next = await addCharge(kind, detail.id, chargeWhat.trim(), chargeAmount.trim())
    setChargeWhat('')
    setChargeAmount('')
    onChanged(next, `Charge ${money(chargeAmount.trim())} added to ${detail.booking_number}.`)
  })

  return (
    <>
      {due > 0 && (
        <form class="panel-part" onSubmit={takeCash} aria-labelledby="cash-head" noValidate>
          <h3 id="cash-head">Take cash</h3>
          {pay.form && <Notice kind="error">{pay.form}</Notice>}
          <div class="row">
            <Field
              label="Cash amount (Rs)"
              value={amount}
              inputMode="decimal"
              onInput={(e) => setAmount(e.currentTarget.value)}
              error={pay.field('amount')}
            />
            <div class="field field-button">
              <button type="submit" class="primary" disabled={busy}>
                Record cash payment
              </button>
            </div>
          </div>
          <p class="hint">
            Paid by eSewa, Khalti or Fonepay? Show the customer a QR: it counts when the gateway confirms it.
          </p>
          <div class="row">
            {QR_METHODS.map((m) => (
              <button key={m} type="button" disabled={busy || qr !== null} onClick={startQr(m)}>
                {METHOD_LABELS[m]} QR
              </button>
            ))}
          </div>
          {qrNote && <Notice kind="error">{qrNote}</Notice>}
          {qr && (
            <fieldset class="desk-qr" aria-label="Payment QR">
              <img
                src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr.qr_svg)}`}
                alt={`QR code: pay ${money(qr.payment.amount)} by ${METHOD_LABELS[qr.payment.method]}`}
                width={220}
                height={220}
              />
              <p role="status">
                Waiting for the customer to pay {money(qr.payment.amount)} by {METHOD_LABELS[qr.payment.method]}…{' '}
                <a href={qr.payment_url} target="_blank" rel="noreferrer">
                  Open the payment page
                </a>
              </p>
              <button type="button" onClick={() => setQr(null)}>
                Close the QR
              </button>
            </fieldset>
          )}
        </form>
      )}
      <form class="panel-part" onSubmit={addExtra} aria-labelledby="charge-head" noValidate>
        <h3 id="charge-head">Add an extra charge</h3>
        {charge.form && <Notice kind="error">{charge.form}</Notice>}
        <div class="row">
          <Field
            label="Charge for"
            value={chargeWhat}
            placeholder="Ball rental, drinks…"
            onInput={(e) => setChargeWhat(e.currentTarget.value)}
            error={charge.field('description')}
          />
          <Field
            label="Charge amount (Rs)"
            value={chargeAmount}
            inputMode="decimal"
            onInput={(e) => setChargeAmount(e.currentTarget.value)}
            error={charge.field('amount')}
          />
          <div class="field field-button">
            <button type="submit" disabled={busy}>
              Add charge
            </button>
          </div>
        </div>
      </form>
    </>
  )
}

function Receipt({ detail, venueName, where }: { detail: BookingDetail; venueName: string; where: string }) {
  const base = Number(detail.base_amount)
  const discount = Number(detail.discount_amount)
  const paid = detail.payments.filter((p) => p.status === 'completed' || p.status === 'partially_refunded')
  return (
    <section class="receipt" aria-label="Receipt">
      <h3>{venueName}</h3>
      <p>
        Receipt for booking <strong>{detail.booking_number}</strong>
      </p>
      <p>
        {detail.customer_name}
        <br />
        {where}, {longDate(detail.date)}, {detail.start_time}–{detail.end_time}
      </p>
      <table>
        <tbody>
          <tr>
            <td>Booking</td>
            <td class="num">{money(base.toFixed(2))}</td>
          </tr>
          {discount > 0 && (
            <tr>
              <td>Discount</td>
              <td class="num">-{money(discount.toFixed(2))}</td>
            </tr>
          )}
          {detail.charges.map((c) => (
            <tr key={c.id}>
              <td>{c.description}</td>
              <td class="num">{money(c.amount)}</td>
            </tr>
          ))}
          <tr class="strong">
            <td>Total</td>
            <td class="num">{money(detail.total_amount)}</td>
          </tr>
          {paid.map((p) => (
            <tr key={p.id}>
              <td>Paid ({METHOD_LABELS[p.method] ?? p.method})</td>
              <td class="num">{money(p.amount)}</td>
            </tr>
          ))}
          <tr class="strong">
            <td>Balance due</td>
            <td class="num">{money(detail.balance_due)}</td>
          </tr>
        </tbody>
      </table>
      <p class="muted">Status: {STATUS_LABELS[detail.status] ?? detail.status}</p>
    </section>
  )
}

// --- Maintenance blocks ------------------------------------------------------------------------

export function BlockDialog({
  board,
  column,
  start,
  onDone,
  onClose,
}: {
  board: Board
  column: Column
  start?: string
  onDone: (message: string) => void
  onClose: () => void
}) {
  const open = column.slots.filter((s) => s.state !== 'past')
  const starts = (open.length ? open : column.slots).map((s) => s.start_time)
  const [from, setFrom] = useState(start ?? starts[0] ?? '')
  const ends = column.slots.filter((s) => s.start_time >= from).map((s) => s.end_time)
  const [to, setTo] = useState(ends[0] ?? '')
  const [reason, setReason] = useState('')
  const action = useAction()
  const { busy, error } = action
  const { field, form } = errorsOf(error, {
    start_time: ['start_time', 'date'],
    end_time: ['end_time'],
    reason: ['reason'],
  })
  // "Until" follows "From" in the same render: an effect would run after the next paint and could
  // overwrite a choice made in between (a fast hand, or a test) with the first end time.
  const until = ends.includes(to) ? to : (ends[0] ?? '')

  const submit = action.submit(async () => {
    await createBlock(column.id, board.date, from, until, reason)
    onDone(`${column.name} blocked ${from}–${until}.`)
  })

  return (
    <Dialog title={`Block ${column.name} for maintenance`} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p class="muted">{longDate(board.date)}</p>
        {form && <Notice kind="error">{form}</Notice>}
        <div class="row">
          <SelectField
            label="From"
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
            error={field('start_time')}
            options={starts.map((t) => ({ value: t, label: t }))}
          />
          <SelectField
            label="Until"
            value={until}
            onChange={(e) => setTo(e.currentTarget.value)}
            error={field('end_time')}
            options={ends.map((t) => ({ value: t, label: t }))}
          />
        </div>
        <Field
          label="Reason"
          value={reason}
          onInput={(e) => setReason(e.currentTarget.value)}
          error={field('reason')}
        />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Block court
          </button>
        </div>
      </form>
    </Dialog>
  )
}

export function UnblockDialog({
  column,
  block,
  onDone,
  onClose,
}: {
  column: Column
  block: BoardBlock
  onDone: (message: string) => void
  onClose: () => void
}) {
  const { busy, error, run } = useAction()
  const remove = () =>
    run(async () => {
      await deleteBlock(column.id, block.id)
      onDone(`The block on ${column.name} ${block.start_time}–${block.end_time} was removed.`)
    })
  return (
    <Dialog title={`Maintenance on ${column.name}`} onClose={onClose}>
      {error && <Notice kind="error">{typeof error === 'string' ? error : error.message}</Notice>}
      <p>
        {block.start_time}–{block.end_time}
        {block.reason ? `: ${block.reason}` : ''}
      </p>
      <div class="actions">
        <button type="button" class="danger" onClick={remove} disabled={busy}>
          Remove block
        </button>
      </div>
    </Dialog>
  )
}
