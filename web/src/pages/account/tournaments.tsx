import { useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../../api.ts'
import { Field, formValues, Loaded, Outcome, useAction, useLoad } from '../../components/account.tsx'
import { formatDate, formatMoney, formatNumber, t } from '../../i18n/index.ts'
import { Link } from '../../router.ts'
import { useSession } from '../../session.ts'

type Tournament = Schemas['Tournament']
type Team = Schemas['Team']

/** Tournaments open to all (GET /api/tournaments), newest first as the service lists them. */
export function TournamentsPage() {
  const state = useLoad(() => ok(api().GET('/api/tournaments')))
  return (
    <section>
      <h1>{t('tournaments.title')}</h1>
      <Loaded state={state}>
        {({ data }) =>
          data.length === 0 ? (
            <p>{t('tournaments.none')}</p>
          ) : (
            <ul class="cards">
              {data.map((tour) => (
                <li key={tour.id} class="card">
                  <Link href={`/tournaments/${tour.id}`}>{tour.name}</Link>
                  <TournamentFacts tour={tour} />
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  )
}

function TournamentFacts({ tour }: { tour: Tournament }) {
  return (
    <>
      <p class="muted">
        {tour.venue.name} · {t('tournaments.starts', { date: formatDate(tour.starts_at) })}
      </p>
      <p>
        <span class="status">{t(`tournaments.status.${tour.status}`)}</span> ·{' '}
        {t('tournaments.teams', { count: tour.registered_teams, max: tour.max_teams })}
        {Number(tour.registration_fee) > 0 && (
          <> · {t('tournaments.fee', { amount: formatMoney(tour.registration_fee) })}</>
        )}
      </p>
    </>
  )
}

/** One tournament: teams, fixtures, standings, and registering a team (signed in, while open). */
export function TournamentPage({ id }: { id: string }) {
  const state = useLoad(async () => {
    const path = { params: { path: { tournament: id } } }
    const [tour, fixtures] = await Promise.all([
      ok(api().GET('/api/tournaments/{tournament}', path)),
      ok(api().GET('/api/tournaments/{tournament}/fixtures', path)),
    ])
    return { tour: tour.data, fixtures: fixtures.data }
  }, [id])
  return (
    <section>
      <Loaded state={state}>
        {({ tour, fixtures }) => (
          <>
            <h1>{tour.name}</h1>
            <TournamentFacts tour={tour} />
            {Number(tour.prize_pool) > 0 && <p>{t('tournaments.prize', { prize: formatMoney(tour.prize_pool) })}</p>}
            {tour.description && <p>{tour.description}</p>}
            {tour.status === 'registration_open' && <RegisterTeam tour={tour} onDone={state.reload} />}
            <h2>{t('tournaments.teamsTitle')}</h2>
            {(tour.teams ?? []).length === 0 ? (
              <p>{t('common.none')}</p>
            ) : (
              <ul class="rows">
                {(tour.teams ?? []).map((team) => (
                  <li key={team.id}>
                    {team.name} <span class="muted">({team.captain_name})</span>
                  </li>
                ))}
              </ul>
            )}
            {fixtures.length > 0 && (
              <>
                <h2>{t('tournaments.fixtures')}</h2>
                <ul class="rows">
                  {fixtures.map((f) => (
                    <li key={f.id}>
                      {f.round}: {t('tournaments.vs', { a: f.team_a?.name ?? '—', b: f.team_b?.name ?? '—' })}
                      {f.result && ` · ${formatNumber(f.result.score_a)}–${formatNumber(f.result.score_b)}`}
                    </li>
                  ))}
                </ul>
              </>
            )}
            {(tour.standings ?? []).length > 0 && (
              <>
                <h2>{t('tournaments.standings')}</h2>
                <div class="scroll">
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">{t('tournaments.rank')}</th>
                        <th scope="col">{t('tournaments.team')}</th>
                        <th scope="col">{t('tournaments.played')}</th>
                        <th scope="col">{t('tournaments.points')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {(tour.standings ?? []).map((row) => (
                        <tr key={row.team.id}>
                          <td>{formatNumber(row.rank)}</td>
                          <th scope="row">{row.team.name}</th>
                          <td>{formatNumber(row.played)}</td>
                          <td>{formatNumber(row.points)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </>
            )}
            <p>
              <Link href="/tournaments">{t('tournaments.title')}</Link>
            </p>
          </>
        )}
      </Loaded>
    </section>
  )
}

function RegisterTeam({ tour, onDone }: { tour: Tournament; onDone: () => void }) {
  const session = useSession()
  const action = useAction()
  const [team, setTeam] = useState<Team | null>(null)
  if (!session) {
    return (
      <p>
        <Link class="button" href={`/signin?next=${encodeURIComponent(`/tournaments/${tour.id}`)}`}>
          {t('tournaments.register')}
        </Link>
      </p>
    )
  }
  const path = (teamId?: number) => ({ tournament: String(tour.id), team: String(teamId ?? 0) })
  return (
    <section class="panel" aria-labelledby="register-title">
      <h2 id="register-title">{t('tournaments.register')}</h2>
      {team ? (
        <>
          <p>{t('tournaments.registered', { name: team.name })}</p>
          {team.fee_status === 'unpaid' && Number(tour.registration_fee) > 0 && (
            <button
              type="button"
              disabled={action.busy}
              onClick={() =>
                action.run(async () => {
                  const paid = await ok(
                    api().POST('/api/tournaments/{tournament}/teams/{team}/pay', { params: { path: path(team.id) } }),
                  )
                  setTeam(paid.data)
                  return t('tournaments.feePaid', { amount: formatMoney(paid.data.fee_paid) })
                })
              }
            >
              {t('tournaments.payFee', { amount: formatMoney(tour.registration_fee) })}
            </button>
          )}
        </>
      ) : (
        <form
          onSubmit={(e) => {
            const v = formValues(e)
            action.run(async () => {
              const players = v.players
                .split('\n')
                .map((name) => name.trim())
                .filter(Boolean)
                .map((name) => ({ name, position: null }))
              const answer = await ok(
                api().POST('/api/tournaments/{tournament}/teams', {
                  params: { path: { tournament: String(tour.id) } },
                  body: {
                    name: v.name,
                    captain_name: v.captain_name,
                    contact_phone: v.contact_phone || null,
                    players: players.length ? players : undefined,
                  },
                }),
              )
              setTeam(answer.data)
              onDone()
            })
          }}
        >
          <Field label={t('tournaments.teamName')} name="name" required error={action.field('name')} />
          <Field
            label={t('tournaments.captain')}
            name="captain_name"
            required
            defaultValue={session.user.name}
            error={action.field('captain_name')}
          />
          <Field
            label={`${t('tournaments.contact')} ${t('common.optional')}`}
            name="contact_phone"
            type="tel"
            defaultValue={session.user.phone ?? ''}
            error={action.field('contact_phone')}
          />
          <label for="team-players">
            {t('tournaments.players')} {t('common.optional')}
          </label>
          <textarea id="team-players" name="players" rows={4} />
          <button type="submit" disabled={action.busy}>
            {t('tournaments.register')}
          </button>
        </form>
      )}
      <Outcome notice={action.notice} message={action.message} />
    </section>
  )
}
