import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { api, currentSession, messageOf, ok, type Schemas } from '../../api.ts'
import { digits, t } from '../../i18n/index.ts'

// The board's data: GET /api/venues/{venue}/board for a date, reloaded on every `change` of the
// venue's server-sent events (GET /api/venues/{venue}/events, read with a streaming fetch because
// EventSource cannot send the Authorization header), and one booking's details through the venue's
// booking lists (staff may not read GET /api/bookings/{booking}, which is the customer's).

export type Board = Schemas['DeskBoard']
export type Column = Schemas['BoardColumn']
export type BoardBooking = Schemas['BoardBooking']
export type BoardBlock = Schemas['BoardBlock']
export type Slot = Schemas['BoardSlot']
export type CourtBooking = Schemas['Booking']
export type IndoorBooking = Schemas['IndoorGameBooking']
/** A booking of either kind with its payments and charges, as the desk routes answer it. */
export type BookingDetail = CourtBooking | IndoorBooking
export type Kind = Column['kind']

export type Live = 'connecting' | 'live' | 'offline'

/** Milliseconds the board waits after a change for more (a payment and its booking update arrive together). */
const DEBOUNCE_MS = 150
const MAX_BACKOFF_MS = 30_000

/**
 * The board of `venueId` on `date` (undefined: the venue's today), kept current by the events
 * stream. `announce` is the latest live-region message ("Board updated at …").
 */
export function useBoard(venueId: number, date: string | undefined) {
  const [board, setBoard] = useState<Board | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [live, setLive] = useState<Live>('connecting')
  const [announce, setAnnounce] = useState('')
  const seq = useRef(0)

  const load = useCallback(
    async (announceIt?: boolean) => {
      const mine = ++seq.current
      try {
        const answer = await ok(
          api().GET('/api/venues/{venue}/board', {
            params: { path: { venue: String(venueId) }, query: date ? { date } : {} },
          }),
        )
        if (mine !== seq.current) return
        setBoard(answer.data)
        setError(null)
        // Venue time as the service said it, never this device's zone.
        if (announceIt) setAnnounce(t('board.updated', { time: digits(answer.data.now.slice(11, 16)) }))
      } catch (err) {
        if (mine === seq.current) setError(messageOf(err))
      }
    },
    [venueId, date],
  )

  useEffect(() => {
    setBoard(null)
    load()
  }, [load])

  // The stream stays open across date changes; it reloads whatever date is shown.
  const latest = useRef(load)
  latest.current = load
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const onChange = () => {
      clearTimeout(timer)
      timer = setTimeout(() => latest.current(true), DEBOUNCE_MS)
    }
    const stop = followEvents(venueId, {
      change: onChange,
      // After a reconnect, changes may have been missed: reload once.
      ready: (first) => {
        setLive('live')
        if (!first) onChange()
      },
      down: () => setLive('offline'),
    })
    return () => {
      clearTimeout(timer)
      stop()
    }
  }, [venueId])

  return { board, error, live, announce, reload: () => load() }
}

interface Handlers {
  change(): void
  ready(first: boolean): void
  down(): void
}

/** Follows the venue's event stream, reconnecting with back-off (1 s doubling to 30 s); returns stop. */
export function followEvents(venueId: number, on: Handlers): () => void {
  let stopped = false
  let controller: AbortController | undefined
  let backoff = 1000
  let connected = 0
  let retry: ReturnType<typeof setTimeout> | undefined

  const connect = async () => {
    if (stopped || !currentSession()) return
    controller = new AbortController()
    try {
      const answer = await api().GET('/api/venues/{venue}/events', {
        params: { path: { venue: String(venueId) } },
        parseAs: 'stream',
        signal: controller.signal,
        headers: { accept: 'text/event-stream' },
      })
      const body = answer.data
      if (!answer.response.ok || !body) {
        // 401/403/404 will not mend by retrying soon; anything else (429, 5xx) backs off like a drop.
        if ([401, 403, 404].includes(answer.response.status)) backoff = MAX_BACKOFF_MS
        throw new Error(`events answered ${answer.response.status}`)
      }
      await readEvents(body, (event) => {
        if (event === 'ready') {
          backoff = 1000
          on.ready(connected++ === 0)
        } else if (event === 'change') on.change()
      })
    } catch {
      // A drop, an abort or a refusal: reconnect below unless stopped.
    }
    if (stopped) return
    on.down()
    retry = setTimeout(connect, backoff)
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)
  }
  connect()
  return () => {
    stopped = true
    clearTimeout(retry)
    controller?.abort()
  }
}

/** Reads a text/event-stream until it ends, calling `on` with each event's name. */
async function readEvents(body: ReadableStream<Uint8Array>, on: (event: string) => void) {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n')
    let end = buffer.indexOf('\n\n')
    while (end >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const name = /^event: ?(.*)$/m.exec(block)?.[1]
      if (name) on(name.trim())
      end = buffer.indexOf('\n\n')
    }
  }
}

/** One booking with payments and charges, from the venue's list of that day and court or game. */
export async function loadBooking(venueId: number, date: string, b: BoardBooking): Promise<BookingDetail> {
  const venue = String(venueId)
  const list =
    b.kind === 'court'
      ? (
          await ok(
            api().GET('/api/venues/{venue}/bookings', {
              params: { path: { venue }, query: { date, court_id: b.resource_id, per_page: 100 } },
            }),
          )
        ).data
      : (
          await ok(
            api().GET('/api/venues/{venue}/indoor-game-bookings', {
              params: { path: { venue }, query: { date, indoor_game_id: b.resource_id, per_page: 100 } },
            }),
          )
        ).data
  const found = (list as BookingDetail[]).find((x) => x.id === b.id)
  if (!found) throw new Error('This booking is no longer on the list of its day.')
  return found
}
