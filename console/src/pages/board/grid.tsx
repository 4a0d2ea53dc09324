import { minutesOf, money, STATUS_LABELS, timeOf } from '../../format.ts'
import type { Board, BoardBlock, BoardBooking, Column, Slot } from './data.ts'

// The day's grid: a time axis and one column per court and indoor game, each on its own slot grid
// (slot lengths and opening hours differ), placed on one shared row unit. Every free slot, booking
// and block is a button, in time order inside its column (the focus order); positions are set with
// CSSOM (style objects), which the console's CSP allows.

export interface GridHandlers {
  onFree(column: Column, slot: Slot): void
  onBooking(booking: BoardBooking): void
  onBlock(column: Column, block: BoardBlock): void
  onBlockCourt(column: Column): void
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))
/** End of a range in minutes; "00:00" as an end is midnight at the end of the day. */
const endOf = (start: string, end: string) => {
  const m = minutesOf(end)
  return m <= minutesOf(start) ? m + 1440 : m
}

/** Pixels per minute: an hour has room for a booking's five lines, the shortest slot for two. */
const HOUR_PX = 104
const MIN_SLOT_PX = 46

interface Item {
  key: string
  start: number
  end: number
  node: preact.JSX.Element
}

export function holdText(b: BoardBooking, now: string): string {
  if (!b.is_hold || !b.hold_expires_at) return ''
  // Both are the venue's wall clock ("YYYY-MM-DD HH:mm:ss"), so their difference is the time left.
  const wall = (t: string) => Date.parse(`${t.replace(' ', 'T')}Z`)
  const left = Math.max(0, Math.round((wall(b.hold_expires_at) - wall(now)) / 60000))
  return `Hold ends ${b.hold_expires_at.slice(11, 16)} (${left} min)`
}

export function Grid({ board, on }: { board: Board; on: GridHandlers }) {
  const columns = board.columns
  const open = columns.filter((c) => !c.is_closed && c.slots.length)
  let first = open.length
    ? Math.min(...open.map((c) => minutesOf(c.slots[0].start_time)))
    : minutesOf(board.venue.opening_time)
  let last = open.length
    ? Math.max(...open.map((c) => endOf(c.slots[0].start_time, c.slots[c.slots.length - 1].end_time)))
    : endOf(board.venue.opening_time, board.venue.closing_time)
  first = Math.floor(first / 60) * 60
  last = Math.ceil(last / 60) * 60
  let unit = 60
  let shortest = 60
  for (const c of open) {
    unit = gcd(unit, c.slot_minutes)
    shortest = Math.min(shortest, c.slot_minutes)
    for (const s of c.slots) unit = gcd(unit, minutesOf(s.start_time) % 60 || 60)
  }
  const rows = Math.max(1, (last - first) / unit)
  const perMinute = Math.max(HOUR_PX / 60, MIN_SLOT_PX / shortest)
  const rowPx = Math.round(perMinute * unit)
  const rowOf = (m: number) => Math.round((m - first) / unit) + 1
  const place = (start: number, end: number) => ({ gridRow: `${rowOf(start)} / ${rowOf(end)}` })
  const body = { gridTemplateRows: `repeat(${rows}, ${rowPx}px)` }

  const hours: number[] = []
  for (let m = first; m < last; m += 60) hours.push(m)

  return (
    <div class="board-scroll">
      <div class="board-grid">
        <div class="board-axis" aria-hidden="true">
          <div class="col-head" />
          <div class="col-body" style={body}>
            {hours.map((m) => (
              <span key={m} class="axis-hour" style={place(m, m + 60 > last ? last : m + 60)}>
                {timeOf(m % 1440)}
              </span>
            ))}
          </div>
        </div>
        {columns.map((c) => (
          <ColumnView key={`${c.kind}-${c.id}`} column={c} board={board} on={on} place={place} body={body} />
        ))}
      </div>
    </div>
  )
}

function ColumnView({
  column: c,
  board,
  on,
  place,
  body,
}: {
  column: Column
  board: Board
  on: GridHandlers
  place: (start: number, end: number) => { gridRow: string }
  body: { gridTemplateRows: string }
}) {
  const headId = `col-${c.kind}-${c.id}`
  const occupying = new Set(c.slots.map((s) => s.booking_id).filter((id): id is number => id !== null))
  const bookings = board.bookings.filter((b) => b.kind === c.kind && b.resource_id === c.id && occupying.has(b.id))
  const blocks = c.kind === 'court' ? board.blocks.filter((k) => k.court_id === c.id) : []
  const items: Item[] = []
  for (const b of bookings) {
    const start = minutesOf(b.start_time)
    items.push({
      key: `b${b.id}`,
      start,
      end: endOf(b.start_time, b.end_time),
      node: <BookingCell b={b} c={c} board={board} on={on} />,
    })
  }
  for (const k of blocks) {
    const start = minutesOf(k.start_time)
    items.push({
      key: `k${k.id}`,
      start,
      end: endOf(k.start_time, k.end_time),
      node: (
        <button type="button" class="cell cell-blocked" onClick={() => on.onBlock(c, k)}>
          <span class="sr-only">{c.name}, </span>
          <span class="cell-time">
            {k.start_time}–{k.end_time}
          </span>{' '}
          <strong>Maintenance</strong> {k.reason && <span>{k.reason}</span>}
        </button>
      ),
    })
  }
  if (!c.is_closed) {
    for (const s of c.slots) {
      if (s.state === 'booked' || s.state === 'blocked') continue
      const start = minutesOf(s.start_time)
      const end = endOf(s.start_time, s.end_time)
      items.push({
        key: `s${s.start_time}`,
        start,
        end,
        node:
          s.state === 'free' ? (
            <button type="button" class="cell cell-free" onClick={() => on.onFree(c, s)}>
              <span class="sr-only">{c.name}, </span>
              <span class="cell-time">{s.start_time}</span>{' '}
              <span>Free{s.price && <span class="cell-price"> · {money(s.price)}/h</span>}</span>
            </button>
          ) : (
            <div class="cell cell-past">
              <span class="cell-time">{s.start_time}</span> <span>Past</span>{' '}
            </div>
          ),
      })
    }
  }
  items.sort((a, b) => a.start - b.start)
  return (
    <section class={`board-col${c.is_active ? '' : ' inactive'}`} aria-labelledby={headId}>
      <header class="col-head">
        <h2 id={headId}>{c.name}</h2>
        <span class="muted col-kind">
          {c.kind === 'court' ? c.type : `Game · ${c.type}`}
          {!c.is_active && ' · inactive'}
        </span>
        {c.kind === 'court' && !c.is_closed && (
          <button type="button" class="small" onClick={() => on.onBlockCourt(c)}>
            Block <span class="sr-only">{c.name}</span> time
          </button>
        )}
      </header>
      <div class="col-body" style={body}>
        {c.is_closed && <p class="cell cell-closed">Closed today</p>}
        {items.map((i) => (
          <div key={i.key} class="cell-wrap" style={place(i.start, i.end)}>
            {i.node}
          </div>
        ))}
      </div>
    </section>
  )
}

function BookingCell({ b, c, board, on }: { b: BoardBooking; c: Column; board: Board; on: GridHandlers }) {
  const due = Number(b.balance_due) > 0
  const hold = holdText(b, board.now)
  return (
    <button
      type="button"
      class={`cell cell-booking st-${b.status}${b.is_hold ? ' is-hold' : ''}`}
      onClick={() => on.onBooking(b)}
    >
      <span class="sr-only">{c.name}, </span>
      <span class="cell-time">
        {b.start_time}–{b.end_time}
      </span>{' '}
      <strong class="cell-name">{b.customer_name}</strong> <span class="cell-number">{b.booking_number}</span>{' '}
      {/* A payment hold is a pending booking: its expiry takes the status line (five lines fit an hour). */}
      {hold ? (
        <span class="cell-hold">{hold} </span>
      ) : (
        <span class="cell-status">{STATUS_LABELS[b.status] ?? b.status} </span>
      )}
      <span class={due ? 'cell-due' : 'cell-paid'}>{due ? `Due ${money(b.balance_due)}` : 'Paid in full'}</span>
    </button>
  )
}
