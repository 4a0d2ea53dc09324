import { api, ok, type Schemas } from '../../api.ts'
import type { BookingDetail, Kind } from './data.ts'

// The desk's writes, each through the typed client: court and indoor routes differ in path and in
// a few body fields (a court cancel takes `reason`, an indoor one `cancel_reason`).

export type DeskType = 'walkin' | 'offline'
export type Target = 'playing' | 'completed' | 'no_show' | 'cancelled'

export interface NewBooking {
  kind: Kind
  resourceId: number
  date: string
  start_time: string
  end_time: string
  type: DeskType
  customer_name: string
  customer_phone: string
  notes: string
}

export async function createBooking(venueId: number, b: NewBooking): Promise<BookingDetail> {
  const venue = String(venueId)
  const common = {
    date: b.date,
    start_time: b.start_time,
    end_time: b.end_time,
    type: b.type,
    customer_name: b.customer_name,
    customer_phone: b.customer_phone.trim() || null,
    notes: b.notes.trim() || null,
  }
  if (b.kind === 'court') {
    const answer = await ok(
      api().POST('/api/venues/{venue}/bookings', {
        params: { path: { venue } },
        body: { ...common, court_id: b.resourceId },
      }),
    )
    return answer.data
  }
  const answer = await ok(
    api().POST('/api/venues/{venue}/indoor-game-bookings', {
      params: { path: { venue } },
      body: { ...common, indoor_game_id: b.resourceId },
    }),
  )
  return answer.data
}

export async function setStatus(kind: Kind, id: number, status: Target, reason?: string): Promise<BookingDetail> {
  const why = reason?.trim() || undefined
  // Both kinds take the same status body (booking-core's StatusBody).
  const body = { status, cancel_reason: why ?? null }
  if (kind === 'court') {
    const answer = await ok(
      api().PATCH('/api/bookings/{booking}/status', { params: { path: { booking: String(id) } }, body }),
    )
    return answer.data
  }
  const answer = await ok(
    api().PATCH('/api/indoor-game-bookings/{indoorGameBooking}/status', {
      params: { path: { indoorGameBooking: String(id) } },
      body,
    }),
  )
  return answer.data
}

export async function addCharge(kind: Kind, id: number, description: string, amount: string): Promise<BookingDetail> {
  const body = { description, amount }
  if (kind === 'court') {
    return (
      await ok(api().POST('/api/bookings/{booking}/charges', { params: { path: { booking: String(id) } }, body }))
    ).data
  }
  return (
    await ok(
      api().POST('/api/indoor-game-bookings/{indoorGameBooking}/charges', {
        params: { path: { indoorGameBooking: String(id) } },
        body,
      }),
    )
  ).data
}

/** What POST …/payments answers: the booking (cash), or a desk QR payment intent (a gateway). */
type PaymentAnswer = BookingDetail | DeskQr

/** A desk QR payment: the customer scans `qr_svg` (payment_url) and pays at the gateway. */
export interface DeskQr {
  payment: Schemas['Payment']
  payment_url: string
  qr_svg: string
}

export type QrMethod = 'gateway_1' | 'gateway_2' | 'gateway_3'

async function postPayment(kind: Kind, id: number, body: { amount: string; method: 'cash' | QrMethod }) {
  if (kind === 'court') {
    return (
      await ok(api().POST('/api/bookings/{booking}/payments', { params: { path: { booking: String(id) } }, body }))
    ).data as PaymentAnswer
  }
  return (
    await ok(
      api().POST('/api/indoor-game-bookings/{indoorGameBooking}/payments', {
        params: { path: { indoorGameBooking: String(id) } },
        body,
      }),
    )
  ).data as PaymentAnswer
}

export async function addCashPayment(kind: Kind, id: number, amount: string): Promise<BookingDetail> {
  const answer = await postPayment(kind, id, { amount, method: 'cash' })
  if ('payment_url' in answer) throw new Error('The service answered a cash payment with a payment link.')
  return answer
}

/** Starts a desk QR payment: counted only when the gateway confirms the customer paid it. */
export async function startQrPayment(kind: Kind, id: number, amount: string, method: QrMethod): Promise<DeskQr> {
  const answer = await postPayment(kind, id, { amount, method })
  if (!('payment_url' in answer)) throw new Error('The service recorded a gateway payment without the gateway.')
  return answer
}

/** A payment as the service knows it now (asks the gateway while it is initiated). */
export async function paymentNow(id: number): Promise<Schemas['Payment']> {
  return (await ok(api().GET('/api/payments/{payment}', { params: { path: { payment: String(id) } } }))).data
}

export async function createBlock(court: number, date: string, start_time: string, end_time: string, reason: string) {
  return (
    await ok(
      api().POST('/api/courts/{court}/blocks', {
        params: { path: { court: String(court) } },
        body: { date, start_time, end_time, reason: reason.trim() || null },
      }),
    )
  ).data
}

export async function deleteBlock(court: number, block: number) {
  return ok(
    api().DELETE('/api/courts/{court}/blocks/{block}', {
      params: { path: { court: String(court), block: String(block) } },
    }),
  )
}

/** The staff transitions the state machine allows from `status` (booking-core/state.ts). */
export function allowedTargets(status: BookingDetail['status'], started: boolean): Target[] {
  switch (status) {
    case 'pending':
      // An unpaid phone booking that never came is a no-show, not a cancellation (decisions.md).
      return started ? ['no_show', 'cancelled'] : ['cancelled']
    case 'confirmed':
      return started ? ['playing', 'no_show', 'cancelled'] : ['playing', 'cancelled']
    case 'playing':
      return ['completed']
    default:
      return []
  }
}

// --- Weekly series (desk routes: /api/venues/{venue}/bookings/series…) -------------------------

export type Series = Schemas['BookingSeries']

export interface NewSeries {
  courtId: number
  startDate: string
  weeks: number
  start_time: string
  end_time: string
  type: DeskType
  customer_name: string
  customer_phone: string
  notes: string
  /** Skip the weeks already taken instead of booking nothing. */
  skipTaken: boolean
}

/** A court booked every week for a named customer (a regular team), from the desk. */
export async function createSeries(venueId: number, s: NewSeries): Promise<Series> {
  const answer = await ok(
    api().POST('/api/venues/{venue}/bookings/series', {
      params: { path: { venue: String(venueId) } },
      body: {
        court_id: s.courtId,
        start_date: s.startDate,
        weeks: s.weeks,
        start_time: s.start_time,
        end_time: s.end_time,
        type: s.type,
        customer_name: s.customer_name,
        customer_phone: s.customer_phone.trim() || null,
        notes: s.notes.trim() || null,
        on_conflict: s.skipTaken ? 'skip' : 'fail',
      },
    }),
  )
  return answer.data
}

export async function loadSeries(venueId: number, seriesId: number): Promise<Series> {
  const answer = await ok(
    api().GET('/api/venues/{venue}/bookings/series/{series}', {
      params: { path: { venue: String(venueId), series: String(seriesId) } },
    }),
  )
  return answer.data
}

/** Cancels the series' weeks from `fromDate` on; the service's message ("2 bookings cancelled. …"). */
export async function cancelSeriesFrom(
  venueId: number,
  seriesId: number,
  fromDate: string,
  reason: string,
): Promise<string> {
  const answer = await ok(
    api().PATCH('/api/venues/{venue}/bookings/series/{series}/cancel', {
      params: { path: { venue: String(venueId), series: String(seriesId) } },
      body: { from_date: fromDate, reason: reason.trim() || null },
    }),
  )
  return answer.message
}
