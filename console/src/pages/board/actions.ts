import { api, ok } from '../../api.ts'
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

export async function addCashPayment(kind: Kind, id: number, amount: string): Promise<BookingDetail> {
  const body = { amount, method: 'cash' as const }
  if (kind === 'court') {
    return (
      await ok(api().POST('/api/bookings/{booking}/payments', { params: { path: { booking: String(id) } }, body }))
    ).data
  }
  return (
    await ok(
      api().POST('/api/indoor-game-bookings/{indoorGameBooking}/payments', {
        params: { path: { indoorGameBooking: String(id) } },
        body,
      }),
    )
  ).data
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
      return ['cancelled']
    case 'confirmed':
      return started ? ['playing', 'no_show', 'cancelled'] : ['playing', 'cancelled']
    case 'playing':
      return ['completed']
    default:
      return []
  }
}
