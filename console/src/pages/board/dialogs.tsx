import { useEffect, useState } from 'preact/hooks'
import { ApiError, messageOf } from '../../api.ts'
import { Dialog, Field, Loading, Notice, SelectField } from '../../components/ui.tsx'
import { longDate, money, statusLabel } from '../../format.ts'
import { bothDates, digits, type MessageKey, t } from '../../i18n/index.ts'
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
import { holdText, weekdayName } from './grid.tsx'
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
        label: t(n > 1 ? 'book.slots' : 'book.slot', {
          n,
          from: digits(start),
          to: digits(column.slots[i].end_time),
        }),
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
        ? t('book.skipped', { dates: series.skipped.map((s) => longDate(s.date)).join(', ') })
        : ''
      onDone(
        t('book.seriesDone', {
          name: series.customer_name,
          day: weekdayName(series.weekday),
          from: digits(series.start_time),
          to: digits(series.end_time),
          weeks: series.occurrences.length,
          date: longDate(series.start_date),
          skipped,
        }),
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
    onDone(
      t('book.done', {
        number: made.booking_number,
        name: made.customer_name,
        from: digits(made.start_time),
        to: digits(made.end_time),
      }),
    )
  })

  return (
    <Dialog title={t('book.title', { court: column.name, time: digits(start) })} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p class="muted">{bothDates(board.date)}</p>
        {form && <Notice kind="error">{form}</Notice>}
        <Field
          label={t('book.name')}
          name="customer_name"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          error={field('customer_name')}
          autoComplete="off"
          autoFocus
          required
        />
        <Field
          label={t('common.phone')}
          name="customer_phone"
          type="tel"
          value={phone}
          onInput={(e) => setPhone(e.currentTarget.value)}
          error={field('customer_phone')}
          autoComplete="off"
        />
        <div class="row">
          <SelectField
            label={t('book.type')}
            value={type}
            onChange={(e) => setType(e.currentTarget.value as DeskType)}
            error={field('type')}
            options={[
              { value: 'walkin', label: t('book.walkin') },
              { value: 'offline', label: t('book.offline') },
            ]}
          />
          <SelectField
            label={t('book.duration')}
            value={end}
            onChange={(e) => setEnd(e.currentTarget.value)}
            error={field('duration')}
            options={choices}
          />
        </div>
        {column.kind === 'court' && (
          <div class="row">
            <SelectField
              label={t('book.repeat')}
              value={weeks}
              onChange={(e) => setWeeks(e.currentTarget.value)}
              error={field('weeks')}
              options={[
                { value: '1', label: t('book.once') },
                ...Array.from({ length: 25 }, (_, i) => ({
                  value: String(i + 2),
                  label: t('book.every', { day: weekdayName(weekdayOf(board.date)), weeks: i + 2 }),
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
                  <label for="series-skip">{t('book.skipTaken')}</label>
                </span>
              </div>
            )}
          </div>
        )}
        <Field
          label={t('book.notes')}
          value={notes}
          onInput={(e) => setNotes(e.currentTarget.value)}
          error={field('notes')}
        />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? t('book.booking') : weekly ? t('book.everyWeek') : t('book.book')}
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

/** A status change's button ("Mark playing"), in the console's language. */
const targetLabel = (target: Target) => t(`target.${target}`)

/** A payment method's name (eSewa, Khalti and Fonepay are their own names in both languages). */
const methodName = (method: string) => (method in METHOD_KEYS ? t(METHOD_KEYS[method]) : method)
const METHOD_KEYS: Record<string, MessageKey> = {
  cash: 'method.cash',
  wallet: 'method.wallet',
  gateway_1: 'method.gateway_1',
  gateway_2: 'method.gateway_2',
  gateway_3: 'method.gateway_3',
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
    <Dialog title={t('panel.title', { number: booking.booking_number })} onClose={onClose}>
      {loadError && <Notice kind="error">{loadError}</Notice>}
      {!detail && !loadError && <Loading what={t('panel.loading')} />}
      {detail && (
        <div class="booking-panel">
          {done && <Notice kind="success">{done}</Notice>}
          <dl class="booking-facts">
            <dt>{t('common.customer')}</dt>
            <dd>
              {detail.customer_name}
              {detail.customer_phone && <> · {detail.customer_phone}</>}
            </dd>
            <dt>{t('panel.when')}</dt>
            <dd>
              {where}, {longDate(detail.date)}, {digits(`${detail.start_time}–${detail.end_time}`)}
            </dd>
            <dt>{t('common.status')}</dt>
            <dd>
              {statusLabel(detail.status)}
              {detail.cancel_reason && <> ({detail.cancel_reason})</>}
              {booking.is_hold && <> · {holdText(booking, board.now)}</>}
            </dd>
            <dt>{t('panel.type')}</dt>
            <dd>
              {t(detail.type === 'walkin' ? 'book.walkin' : detail.type === 'offline' ? 'book.offline' : 'book.online')}
            </dd>
            <dt>{t('panel.total')}</dt>
            <dd>{money(detail.total_amount)}</dd>
            <dt>{t('board.paid')}</dt>
            <dd>{money(detail.paid_amount)}</dd>
            <dt>{t('panel.balance')}</dt>
            <dd class="strong">{money(detail.balance_due)}</dd>
            {booking.shares && (
              <>
                <dt>{t('panel.shares')}</dt>
                <dd data-testid="booking-shares">
                  {t('panel.split', {
                    total: booking.shares.total,
                    paid: booking.shares.paid,
                    unpaid: booking.shares.total - booking.shares.paid,
                  })}
                  {booking.is_hold && t('panel.splitHold')}
                </dd>
              </>
            )}
            {booking.kind === 'court' && (
              <>
                <dt>{t('panel.waitlist')}</dt>
                <dd>
                  {booking.waitlist_count === 0
                    ? t('panel.nobody')
                    : t(booking.waitlist_count === 1 ? 'panel.waitingOne' : 'panel.waitingMany', {
                        n: booking.waitlist_count,
                      })}
                  {booking.is_waitlist_offer && (
                    <> {t('panel.offered', { name: booking.customer_name, hold: holdText(booking, board.now) })}</>
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
          <h3>{t('panel.charges')}</h3>
          {detail.charges.length ? (
            <table>
              <caption class="sr-only">{t('panel.chargesCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('panel.description')}</th>
                  <th scope="col" class="num">
                    {t('common.amount')}
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
            <p class="muted">{t('panel.noCharges')}</p>
          )}
          <h3>{t('panel.payments')}</h3>
          {detail.payments.length ? (
            <table>
              <caption class="sr-only">{t('panel.payments')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('common.method')}</th>
                  <th scope="col">{t('common.status')}</th>
                  <th scope="col" class="num">
                    {t('common.amount')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {detail.payments.map((p) => (
                  <tr key={p.id}>
                    <td>{methodName(p.method)}</td>
                    <td>{p.status.replace('_', ' ')}</td>
                    <td class="num">{money(p.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">{t('panel.noPayments')}</p>
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
              {receipt ? t('panel.hideReceipt') : t('panel.showReceipt')}
            </button>
            {receipt && (
              <button type="button" class="primary" onClick={() => window.print()}>
                {t('panel.printReceipt')}
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
  if (!series) return <Loading what={t('series.loading')} />
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
      <h3 id="series-head">{t('series.title')}</h3>
      <p>
        {t('series.summary', {
          name: series.customer_name,
          day: weekdayName(series.weekday),
          from: digits(series.start_time),
          to: digits(series.end_time),
          weeks: series.weeks,
          date: longDate(series.start_date),
        })}
      </p>
      <ul class="series-weeks">
        {series.occurrences.map((o) => (
          <li key={o.id} aria-current={o.id === booking.id ? 'true' : undefined}>
            {longDate(o.date)} · {o.booking_number} · {statusLabel(o.status)}
            {o.id === booking.id && t('series.this')}
          </li>
        ))}
        {series.skipped.map((k) => (
          <li key={k.date}>{t('series.notBooked', { date: longDate(k.date), reason: k.reason })}</li>
        ))}
      </ul>
      {open.length > 0 ? (
        <form class="subform" onSubmit={cancel} noValidate>
          {form && <Notice kind="error">{form}</Notice>}
          <div class="row">
            <SelectField
              label={t('series.from')}
              value={chosen}
              onChange={(e) => setFrom(e.currentTarget.value)}
              error={field('from')}
              options={open.map((o) => ({ value: o.date, label: longDate(o.date) }))}
            />
            <Field
              label={t('series.reason')}
              value={reason}
              onInput={(e) => setReason(e.currentTarget.value)}
              error={field('reason')}
            />
          </div>
          <div class="actions">
            <button type="submit" class="danger" disabled={busy || !chosen}>
              {t('series.cancel', {
                n: open.filter((o) => o.date >= chosen).length,
                date: chosen ? longDate(chosen) : '…',
              })}
            </button>
          </div>
        </form>
      ) : (
        <p class="muted">{t('series.none')}</p>
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
      onChanged(
        next,
        t('panel.statusNow', { number: detail.booking_number, status: statusLabel(next.status).toLowerCase() }),
      )
    })

  return (
    <section class="panel-part" aria-labelledby="status-head">
      <h3 id="status-head">{t('common.status')}</h3>
      {form && <Notice kind="error">{form}</Notice>}
      {field('status') && <p class="error">{field('status')}</p>}
      <div class="actions">
        {targets.map((target) =>
          target === 'cancelled' ? (
            <button key={target} type="button" class="danger" onClick={() => setCancelling(true)} disabled={busy}>
              {targetLabel(target)}
            </button>
          ) : (
            <button key={target} type="button" class="primary" onClick={() => run(target)} disabled={busy}>
              {targetLabel(target)}
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
            label={t('panel.cancelReason')}
            value={reason}
            onInput={(e) => setReason(e.currentTarget.value)}
            error={field('reason')}
            required
          />
          <div class="actions">
            <button type="submit" class="danger" disabled={busy || !reason.trim()}>
              {t('panel.confirmCancel')}
            </button>
            <button type="button" onClick={() => setCancelling(false)}>
              {t('panel.keep')}
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
            t('pay.received', { method: methodName(p.method), amount: money(p.amount), number: detail.booking_number }),
          )
          return
        }
        if (p.status === 'failed') {
          setQr(null)
          setQrNote(t('pay.failed', { method: methodName(p.method) }))
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
    onChanged(next, t('pay.cashDone', { amount: money(amount.trim()), number: detail.booking_number }))
  })
  const addExtra = extra.submit(async () => {
    const next = await addCharge(kind, detail.id, chargeWhat.trim(), chargeAmount.trim())
    setChargeWhat('')
    setChargeAmount('')
    onChanged(next, t('charge.done', { amount: money(chargeAmount.trim()), number: detail.booking_number }))
  })

  return (
    <>
      {due > 0 && (
        <form class="panel-part" onSubmit={takeCash} aria-labelledby="cash-head" noValidate>
          <h3 id="cash-head">{t('pay.title')}</h3>
          {pay.form && <Notice kind="error">{pay.form}</Notice>}
          <div class="row">
            <Field
              label={t('pay.amount')}
              value={amount}
              inputMode="decimal"
              onInput={(e) => setAmount(e.currentTarget.value)}
              error={pay.field('amount')}
            />
            <div class="field field-button">
              <button type="submit" class="primary" disabled={busy}>
                {t('pay.record')}
              </button>
            </div>
          </div>
          <p class="hint">{t('pay.hint')}</p>
          <div class="row">
            {QR_METHODS.map((m) => (
              <button key={m} type="button" disabled={busy || qr !== null} onClick={startQr(m)}>
                {t('pay.qr', { method: methodName(m) })}
              </button>
            ))}
          </div>
          {qrNote && <Notice kind="error">{qrNote}</Notice>}
          {qr && (
            <fieldset class="desk-qr" aria-label={t('pay.qrLabel')}>
              <img
                src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr.qr_svg)}`}
                alt={t('pay.qrAlt', { amount: money(qr.payment.amount), method: methodName(qr.payment.method) })}
                width={220}
                height={220}
              />
              <p role="status">
                {t('pay.waiting', { amount: money(qr.payment.amount), method: methodName(qr.payment.method) })}{' '}
                <a href={qr.payment_url} target="_blank" rel="noreferrer">
                  {t('pay.openPage')}
                </a>
              </p>
              <button type="button" onClick={() => setQr(null)}>
                {t('pay.closeQr')}
              </button>
            </fieldset>
          )}
        </form>
      )}
      <form class="panel-part" onSubmit={addExtra} aria-labelledby="charge-head" noValidate>
        <h3 id="charge-head">{t('charge.title')}</h3>
        {charge.form && <Notice kind="error">{charge.form}</Notice>}
        <div class="row">
          <Field
            label={t('charge.for')}
            value={chargeWhat}
            placeholder={t('charge.placeholder')}
            onInput={(e) => setChargeWhat(e.currentTarget.value)}
            error={charge.field('description')}
          />
          <Field
            label={t('charge.amount')}
            value={chargeAmount}
            inputMode="decimal"
            onInput={(e) => setChargeAmount(e.currentTarget.value)}
            error={charge.field('amount')}
          />
          <div class="field field-button">
            <button type="submit" disabled={busy}>
              {t('charge.add')}
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
    <section class="receipt" aria-label={t('receipt.label')}>
      <h3>{venueName}</h3>
      <p>
        {t('receipt.for')} <strong>{detail.booking_number}</strong>
      </p>
      <p>
        {detail.customer_name}
        <br />
        {where}, {longDate(detail.date)}, {digits(`${detail.start_time}–${detail.end_time}`)}
      </p>
      <table>
        <tbody>
          <tr>
            <td>{t('common.booking')}</td>
            <td class="num">{money(base.toFixed(2))}</td>
          </tr>
          {discount > 0 && (
            <tr>
              <td>{t('receipt.discount')}</td>
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
            <td>{t('panel.total')}</td>
            <td class="num">{money(detail.total_amount)}</td>
          </tr>
          {paid.map((p) => (
            <tr key={p.id}>
              <td>{t('receipt.paid', { method: methodName(p.method) })}</td>
              <td class="num">{money(p.amount)}</td>
            </tr>
          ))}
          <tr class="strong">
            <td>{t('panel.balance')}</td>
            <td class="num">{money(detail.balance_due)}</td>
          </tr>
        </tbody>
      </table>
      <p class="muted">{t('receipt.status', { status: statusLabel(detail.status) })}</p>
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
    onDone(t('block.done', { court: column.name, from: digits(from), to: digits(until) }))
  })

  return (
    <Dialog title={t('block.title', { court: column.name })} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p class="muted">{longDate(board.date)}</p>
        {form && <Notice kind="error">{form}</Notice>}
        <div class="row">
          <SelectField
            label={t('block.from')}
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
            error={field('start_time')}
            options={starts.map((time) => ({ value: time, label: digits(time) }))}
          />
          <SelectField
            label={t('block.until')}
            value={until}
            onChange={(e) => setTo(e.currentTarget.value)}
            error={field('end_time')}
            options={ends.map((time) => ({ value: time, label: digits(time) }))}
          />
        </div>
        <Field
          label={t('block.reason')}
          value={reason}
          onInput={(e) => setReason(e.currentTarget.value)}
          error={field('reason')}
        />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {t('block.submit')}
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
      onDone(t('unblock.done', { court: column.name, from: digits(block.start_time), to: digits(block.end_time) }))
    })
  return (
    <Dialog title={t('unblock.title', { court: column.name })} onClose={onClose}>
      {error && <Notice kind="error">{typeof error === 'string' ? error : error.message}</Notice>}
      <p>
        {digits(`${block.start_time}–${block.end_time}`)}
        {block.reason ? `: ${block.reason}` : ''}
      </p>
      <div class="actions">
        <button type="button" class="danger" onClick={remove} disabled={busy}>
          {t('unblock.remove')}
        </button>
      </div>
    </Dialog>
  )
}
