import type { AuthUser } from '../../../lib/auth.ts'
import type { AppContext } from '../../../lib/context.ts'
import type { Executor } from '../../../lib/db.ts'
import { Forbidden, NotFound, Unprocessable } from '../../../lib/errors.ts'
import { account } from '../../ledger/index.ts'
import { creditWallet, debitWallet } from '../../wallet/index.ts'
import * as repo from '../repository.ts'
import { teamResource } from '../resource.ts'

// Entry fees paid online (docs/payments.md, "Ledger"): the team's own account pays the
// registration fee from its wallet, which is online money owed to the venue (ledger: the wallet to
// the venue's balance with the platform, as a booking's wallet payment). A cancelled tournament
// gives every paid fee back to the wallet it came from, charged to the venue's balance.

export const NO_FEE = 'This tournament has no registration fee.'
export const FEE_ALREADY_PAID = 'The registration fee is already paid.'
export const NOT_TAKING_FEES = 'The tournament no longer takes registration fees.'

/** The team's user pays the fee from their wallet; 422 when there is none, it is paid, or the wallet is short. */
export async function payFee(ctx: AppContext, user: AuthUser, tournamentId: number, teamId: number) {
  const team = await ctx.db.transaction().execute(async (trx) => {
    const t = await repo.findTournament(trx, tournamentId, true)
    if (!t) throw new NotFound()
    const row = await repo.lockTeam(trx, t.id, teamId)
    if (!row) throw new NotFound()
    if (row.user_id !== user.id) throw new Forbidden()
    if (t.registration_fee <= 0) throw new Unprocessable(NO_FEE)
    if (row.fee_paid > 0) throw new Unprocessable(FEE_ALREADY_PAID)
    if (t.status !== 'registration_open' && t.status !== 'registration_closed') {
      throw new Unprocessable(NOT_TAKING_FEES)
    }
    const now = ctx.clock.now()
    await debitWallet(
      trx,
      user.id,
      t.registration_fee,
      {
        referenceType: 'tournament_team',
        referenceId: row.id,
        description: `Registration fee of ${row.name} for ${t.name}`,
      },
      { kind: 'wallet_payment', occurredAt: now, contra: account.venueBalance(t.venue_id), venueId: t.venue_id },
    )
    return repo.markFeePaid(trx, row.id, t.registration_fee, now)
  })
  return teamResource(team, ctx.zone)
}

/**
 * Inside the cancelling transaction (the tournament row locked): every fee paid and not yet
 * refunded goes back to its wallet from the venue's balance. Returns how many and how much.
 */
export async function refundFees(
  ctx: AppContext,
  trx: Executor,
  t: { id: number; name: string; venue_id: number },
  actorId: number,
): Promise<{ count: number; total: number }> {
  const now = ctx.clock.now()
  let total = 0
  const paid = await repo.lockPaidTeams(trx, t.id)
  for (const team of paid) {
    if (team.user_id === null) continue
    await creditWallet(
      trx,
      team.user_id,
      team.fee_paid,
      {
        referenceType: 'tournament_team',
        referenceId: team.id,
        description: `Refund of the registration fee of ${team.name}: ${t.name} was cancelled`,
      },
      {
        kind: 'refund_to_wallet',
        occurredAt: now,
        contra: account.venueBalance(t.venue_id),
        venueId: t.venue_id,
        createdBy: actorId,
      },
    )
    await repo.markFeeRefunded(trx, team.id, now)
    total += team.fee_paid
  }
  return { count: paid.length, total }
}
