import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import type { Executor } from '../../../lib/db.ts'
import { Invalid, NotFound } from '../../../lib/errors.ts'
import { toPaisa } from '../../../lib/money.ts'
import { isValidDate } from '../../../lib/time.ts'
import { assertCanManage, canSeeHiddenVenue } from '../policy.ts'
import * as repo from '../repository.ts'
import { teamResource, tournamentResource } from '../resource.ts'
import type { CreateInput, Status, UpdateInput } from '../schemas.ts'
import { refundFees } from './fees.ts'
import { standingsOf } from './fixtures.ts'

/** Allowed status moves; anything else is 422. */
export const TRANSITIONS: Record<Status, Status[]> = {
  registration_open: ['registration_closed', 'cancelled'],
  registration_closed: ['ongoing', 'cancelled'],
  ongoing: ['completed', 'cancelled'],
  completed: [],
  cancelled: [],
}

/** A tournament the caller may see: hidden venues' tournaments are 404 except to the people who run them. */
export async function visibleTournament(ctx: AppContext, id: number, user?: AuthUser | null, db: Executor = ctx.db) {
  const t = await repo.findTournament(db, id)
  if (!t) throw new NotFound()
  if (!t.is_public && !(await canSeeHiddenVenue(db, user, t.venue_id))) throw new NotFound()
  return t
}

/** Tournaments of public venues; with venue_id, the people who run that venue also see it while hidden. */
export async function listTournaments(
  ctx: AppContext,
  filter: { venueId?: number; status?: string },
  user: AuthUser | null = null,
) {
  const includeHidden = filter.venueId !== undefined && (await canSeeHiddenVenue(ctx.db, user, filter.venueId))
  const rows = await repo.listTournaments(ctx.db, { ...filter, includeHidden })
  return rows.map((t) => tournamentResource(t, ctx.zone))
}

export async function showTournament(ctx: AppContext, id: number, user: AuthUser | null) {
  const t = await visibleTournament(ctx, id, user)
  const [teams, standings] = await Promise.all([repo.teamsOf(ctx.db, [t.id]), standingsOf(ctx.db, t)])
  return tournamentResource(t, ctx.zone, { teams: teams.map((team) => teamResource(team, ctx.zone)), standings })
}

function checkDates(ctx: AppContext, startsAt: string, endsAt: string, startsChanged: boolean) {
  const errors: Record<string, string[]> = {}
  if (!isValidDate(startsAt)) errors.starts_at = ['The starts at field must be a valid date.']
  else if (startsChanged && startsAt < ctx.zone.today(ctx.clock.now())) {
    errors.starts_at = ['The starts at field must be a date after or equal to today.']
  }
  if (!isValidDate(endsAt)) errors.ends_at = ['The ends at field must be a valid date.']
  else if (!errors.starts_at && endsAt < startsAt) {
    errors.ends_at = ['The ends at field must be a date after or equal to starts at.']
  }
  if (Object.keys(errors).length) throw new Invalid(errors)
}

const money = (v: number | string | undefined) => (v === undefined ? undefined : toPaisa(v))

export async function createTournament(ctx: AppContext, user: AuthUser, input: CreateInput) {
  if (!(await repo.venueExists(ctx.db, input.venue_id))) {
    throw new Invalid('venue_id', 'The selected venue id is invalid.')
  }
  await assertCanManage(ctx.db, user, input.venue_id)
  checkDates(ctx, input.starts_at, input.ends_at, true)
  const row = await repo.insertTournament(ctx.db, {
    venue_id: input.venue_id,
    name: input.name.trim(),
    description: input.description ?? null,
    format: input.format,
    sport_type: input.sport_type,
    max_teams: input.max_teams,
    registration_fee: money(input.registration_fee) ?? 0,
    prize_pool: money(input.prize_pool) ?? 0,
    starts_at: input.starts_at,
    ends_at: input.ends_at,
    created_by: user.id,
  })
  return showTournament(ctx, row.id, user)
}

export async function updateTournament(ctx: AppContext, user: AuthUser, id: number, input: UpdateInput) {
  const current = await repo.findTournament(ctx.db, id)
  if (!current) throw new NotFound()
  await assertCanManage(ctx.db, user, current.venue_id)
  await ctx.db.transaction().execute(async (trx) => {
    const t = (await repo.findTournament(trx, id, true))!
    const startsAt = input.starts_at ?? t.starts_at
    checkDates(
      ctx,
      startsAt,
      input.ends_at ?? t.ends_at,
      input.starts_at !== undefined && input.starts_at !== t.starts_at,
    )
    if (input.max_teams !== undefined && input.max_teams < t.registered_teams) {
      throw new Invalid('max_teams', `The max teams field must be at least ${t.registered_teams}.`)
    }
    if (input.format !== undefined && input.format !== t.format && (await repo.fixturesOf(trx, id)).length > 0) {
      throw new Invalid('format', 'The format cannot change once fixtures are generated.')
    }
    await repo.updateTournament(
      trx,
      id,
      {
        name: input.name?.trim(),
        description: input.description,
        format: input.format,
        sport_type: input.sport_type,
        max_teams: input.max_teams,
        registration_fee: money(input.registration_fee),
        prize_pool: money(input.prize_pool),
        starts_at: input.starts_at,
        ends_at: input.ends_at,
      },
      ctx.clock.now(),
    )
  })
  return showTournament(ctx, id, user)
}

export async function changeStatus(ctx: AppContext, user: AuthUser, id: number, status: Status) {
  const current = await repo.findTournament(ctx.db, id)
  if (!current) throw new NotFound()
  await assertCanManage(ctx.db, user, current.venue_id)
  await ctx.db.transaction().execute(async (trx) => {
    const t = (await repo.findTournament(trx, id, true))!
    const from = t.status as Status
    if (!TRANSITIONS[from].includes(status)) {
      throw new Invalid('status', `The tournament cannot move from ${from} to ${status}.`)
    }
    await repo.updateTournament(trx, id, { status }, ctx.clock.now())
    if (status === 'cancelled') await refundFees(ctx, trx, t, user.id)
  })
  return showTournament(ctx, id, user)
}
