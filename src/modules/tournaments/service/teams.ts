import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import { Invalid, Unprocessable } from '../../../lib/errors.ts'
import { notify } from '../../notifications/service.ts'
import * as repo from '../repository.ts'
import { teamResource } from '../resource.ts'
import type { TeamInput } from '../schemas.ts'
import { visibleTournament } from './tournaments.ts'

export const REGISTRATION_CLOSED = 'Tournament registration is closed.'
const NAME_TAKEN = 'The name has already been taken.'

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505'

/**
 * Registers the caller's team. The place is taken by a conditional UPDATE in the same transaction
 * as the insert, so racing registrations for the last place cannot over-fill the tournament, and
 * the unique index on (tournament, lower(name)) refuses a duplicate name even when raced.
 * A registration fee is only recorded on the tournament; collecting it is out of scope.
 */
export async function registerTeam(ctx: AppContext, user: AuthUser, tournamentId: number, input: TeamInput) {
  const t = await visibleTournament(ctx, tournamentId, user)
  const name = input.name.trim()
  if (!name) throw new Invalid('name', 'The name field is required.')
  if (t.status !== 'registration_open' || t.registered_teams >= t.max_teams)
    throw new Unprocessable(REGISTRATION_CLOSED)
  if (await repo.teamNameTaken(ctx.db, t.id, name)) throw new Invalid('name', NAME_TAKEN)
  try {
    const team = await ctx.db.transaction().execute(async (trx) => {
      const place = await repo.claimPlace(trx, t.id)
      if (!place) throw new Unprocessable(REGISTRATION_CLOSED)
      const row = await repo.insertTeam(trx, {
        tournament_id: t.id,
        user_id: user.id,
        name,
        captain_name: input.captain_name.trim() || input.captain_name,
        contact_phone: input.contact_phone?.trim() || null,
        players: (input.players ?? []).map((p) => ({ name: p.name, position: p.position ?? null })),
      })
      await notify(
        ctx,
        user.id,
        'TournamentRegistered',
        {
          message: `Your team ${row.name} is registered for ${place.name}.`,
          tournament_id: t.id,
          team_id: row.id,
        },
        trx,
      )
      return row
    })
    return teamResource(team)
  } catch (err) {
    if (isUniqueViolation(err)) throw new Invalid('name', NAME_TAKEN)
    throw err
  }
}
