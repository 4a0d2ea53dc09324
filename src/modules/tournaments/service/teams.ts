import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import { Invalid, NotFound, Unprocessable } from '../../../lib/errors.ts'
import { notify } from '../../notifications/index.ts'
import * as repo from '../repository.ts'
import { teamResource } from '../resource.ts'
import type { TeamInput } from '../schemas.ts'
import { visibleTournament } from './tournaments.ts'

export const REGISTRATION_CLOSED = 'Tournament registration is closed.'
const NAME_TAKEN = 'The name has already been taken.'

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505'

/**
 * Registers the caller's team. Inside one transaction the tournament row is locked (SELECT … FOR
 * UPDATE), so racing registrations are serialised: each re-reads the status and the count after
 * the previous one committed, and only one can take the last place. The name check runs under the
 * same lock; the unique index on (tournament, lower(name)) backs it up.
 * A registration fee is only recorded on the tournament; collecting it is out of scope.
 */
export async function registerTeam(ctx: AppContext, user: AuthUser, tournamentId: number, input: TeamInput) {
  await visibleTournament(ctx, tournamentId, user)
  const name = input.name.trim()
  const captain = input.captain_name.trim()
  const errors: Record<string, string[]> = {}
  if (!name) errors.name = ['The name field is required.']
  if (!captain) errors.captain_name = ['The captain name field is required.']
  if (Object.keys(errors).length) throw new Invalid(errors)
  try {
    const team = await ctx.db.transaction().execute(async (trx) => {
      const t = await repo.findTournament(trx, tournamentId, true)
      if (!t) throw new NotFound()
      if (t.status !== 'registration_open' || t.registered_teams >= t.max_teams) {
        throw new Unprocessable(REGISTRATION_CLOSED)
      }
      if (await repo.teamNameTaken(trx, t.id, name)) throw new Invalid('name', NAME_TAKEN)
      await repo.takePlace(trx, t.id, ctx.clock.now())
      const row = await repo.insertTeam(trx, {
        tournament_id: t.id,
        user_id: user.id,
        name,
        captain_name: captain,
        contact_phone: input.contact_phone?.trim() || null,
        players: (input.players ?? []).map((p) => ({ name: p.name.trim(), position: p.position ?? null })),
      })
      await notify(
        ctx,
        user.id,
        'TournamentRegistered',
        {
          message: `Your team ${row.name} is registered for ${t.name}.`,
          tournament_id: t.id,
          team_id: row.id,
        },
        trx,
      )
      return row
    })
    return teamResource(team, ctx.zone)
  } catch (err) {
    if (isUniqueViolation(err)) throw new Invalid('name', NAME_TAKEN)
    throw err
  }
}
