import type { App } from '../../src/app.ts'
import { createIndoorGame, createUser, createVenue, type TestUser } from '../helpers/factories.ts'

// Fixtures shared by the indoor booking tests.

export interface Scene {
  owner: TestUser
  customer: TestUser
  venue: { id: number; slug: string; owner_id: number }
  game: { id: number; capacity: number; venue_id: number }
}

/** A verified venue (06:00–22:00) with one station (capacity 4, 60-minute slots, 300.00 an hour) and a customer. */
export async function scene(
  app: App,
  opts: { capacity?: number; slotMinutes?: number; freeCancellationHours?: number; wallet?: number } = {},
): Promise<Scene> {
  const owner = await createUser(app, { roles: ['venue_owner'] })
  const venue = await createVenue(app, owner.id, { free_cancellation_hours: opts.freeCancellationHours ?? 24 })
  const game = await createIndoorGame(app, venue.id, {
    capacity: opts.capacity ?? 4,
    slot_minutes: opts.slotMinutes ?? 60,
    price_per_hour: 30000,
  })
  const customer = await createUser(app, { wallet: opts.wallet })
  return { owner, customer, venue, game }
}

export function book(app: App, user: { headers: Record<string, string> }, body: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/indoor-game-bookings', headers: user.headers, payload: body })
}

/** Inserts an indoor booking row directly (to reach states and times the API cannot create). */
export async function insertIndoor(
  app: App,
  s: Scene,
  fields: {
    date: string
    start: string
    end: string
    status?: string
    userId?: number | null
    total?: number
    paid?: number
  },
) {
  const n = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`
  return app.ctx.db
    .insertInto('indoor_game_bookings')
    .values({
      booking_number: `IG-T-${n}`,
      tenant_id: s.venue.owner_id,
      user_id: fields.userId === undefined ? s.customer.id : fields.userId,
      indoor_game_id: s.game.id,
      venue_id: s.venue.id,
      status: fields.status ?? 'pending',
      date: fields.date,
      start_time: fields.start,
      end_time: fields.end,
      base_amount: fields.total ?? 30000,
      total_amount: fields.total ?? 30000,
      paid_amount: fields.paid ?? 0,
      customer_name: 'Direct Customer',
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function row(app: App, id: number) {
  return app.ctx.db.selectFrom('indoor_game_bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

export async function notificationsOf(app: App, userId: number) {
  return app.ctx.db
    .selectFrom('notifications')
    .select(['type', 'data'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute()
}
