import { useEffect, useState } from 'preact/hooks'
import { api, ok, type Schemas } from '../api.ts'
import { Loaded, Outcome, useAction, useLoad } from '../components/account.tsx'
import { formatDate, formatDigits, formatMoney, formatNumber, t } from '../i18n/index.ts'
import { Link, navigate } from '../router.ts'
import { useSession } from '../session.ts'
import { JoinMatch, JoinPayment } from './match-join.tsx'

// Open matches (docs/matches.md): "Join a game" (the public list with its filters), one match (its
// players and their levels; join paying the share from the wallet or a gateway, or leave), and a
// player's levels.

type Match = Schemas['Match']
type Sport = Schemas['Sport']

const LEVELS = ['1', '2', '3', '4', '5', '6'] as const

function levelText(level: number): string {
  return formatDigits(level.toFixed(1))
}

function MatchFacts({ m }: { m: Match }) {
  return (
    <>
      <p class="muted">
        {t('matches.at', {
          venue: m.venue.name,
          date: formatDate(m.booking.date),
          time: formatDigits(m.booking.start_time),
        })}
      </p>
      <p>
        <span class="status">{t(`matches.status.${m.status}`)}</span> ·{' '}
        {m.spots_left > 0
          ? t('matches.spotsLeft', { count: formatNumber(m.spots_left), total: formatNumber(m.players_total) })
          : t('matches.full')}{' '}
        ·{' '}
        {m.level_min === null && m.level_max === null
          ? t('matches.anyLevelRange')
          : t('matches.levelRange', { min: levelText(m.level_min ?? 0), max: levelText(m.level_max ?? 7) })}{' '}
        · {t('matches.pricePerPlayer', { price: formatMoney(m.price_per_player) })}
      </p>
    </>
  )
}

/** GET /api/matches with the page's filters (sport, date, level) from the address. */
export function MatchesPage({ query }: { query: URLSearchParams }) {
  const sport = query.get('sport') ?? ''
  const date = query.get('date') ?? ''
  const level = query.get('level') ?? ''
  const [sports, setSports] = useState<Sport[]>([])
  useEffect(() => {
    ok(api().GET('/api/sports'))
      .then((r) => setSports(r.data))
      .catch(() => setSports([]))
  }, [])
  const state = useLoad(
    () =>
      ok(
        api().GET('/api/matches', {
          params: {
            query: {
              sport: sport || undefined,
              date: date || undefined,
              level: level ? Number(level) : undefined,
            },
          },
        }),
      ),
    [sport, date, level],
  )
  const filter = (name: string, value: string) => {
    const next = new URLSearchParams(query)
    if (value) next.set(name, value)
    else next.delete(name)
    const q = next.toString()
    navigate(q ? `/matches?${q}` : '/matches', true)
  }
  return (
    <section>
      <h1>{t('matches.title')}</h1>
      <p>{t('matches.intro')}</p>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label for="matches-sport">{t('matches.sport')}</label>
        <select id="matches-sport" value={sport} onChange={(e) => filter('sport', e.currentTarget.value)}>
          <option value="">{t('matches.anySport')}</option>
          {sports.map((s) => (
            <option key={s.id} value={s.key}>
              {s.label || s.name}
            </option>
          ))}
        </select>
        <label for="matches-date">{t('matches.date')}</label>
        <input id="matches-date" type="date" value={date} onChange={(e) => filter('date', e.currentTarget.value)} />
        <label for="matches-level">{t('matches.level')}</label>
        <select id="matches-level" value={level} onChange={(e) => filter('level', e.currentTarget.value)}>
          <option value="">{t('matches.anyLevel')}</option>
          {LEVELS.map((l) => (
            <option key={l} value={l}>
              {formatDigits(l)}
            </option>
          ))}
        </select>
      </form>
      <Loaded state={state}>
        {({ data }) =>
          data.length === 0 ? (
            <p>{t('matches.none')}</p>
          ) : (
            <ul class="cards">
              {data.map((m) => (
                <li key={m.id} class="card">
                  <Link href={`/matches/${m.id}`}>
                    {m.sport} · {m.venue.name}
                  </Link>
                  <MatchFacts m={m} />
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  )
}

/**
 * One match: its players and levels; join (the share paid from the wallet or a gateway, match-join.tsx)
 * or leave. Back from a gateway, `payment` (the return's payment_id) is followed until it settles.
 */
export function MatchPage({ id, token, payment }: { id: string; token: string | null; payment?: string | null }) {
  const session = useSession()
  const action = useAction()
  const [joined, setJoined] = useState<string | null>(null)
  const state = useLoad(
    () =>
      ok(
        api().GET('/api/matches/{match}', {
          params: { path: { match: id }, query: { token: token ?? undefined } },
        }),
      ),
    [id, token, session?.user.id],
  )
  const here = `/matches/${id}${token ? `?token=${encodeURIComponent(token)}` : ''}`
  return (
    <section>
      <Loaded state={state}>
        {({ data: m }) => {
          const mine = session ? m.players.some((p) => p.id === session.user.id) : false
          return (
            <>
              <h1>
                {m.sport} · {m.venue.name}
              </h1>
              <MatchFacts m={m} />
              {session && payment && /^\d+$/.test(payment) && (
                <JoinPayment payment={payment} onSettled={state.reload} />
              )}
              {m.note && (
                <p>
                  <span class="muted">{t('matches.note')}:</span> {m.note}
                </p>
              )}
              <h2>{t('matches.players')}</h2>
              <ul class="rows">
                {m.players.map((p) => (
                  <li key={p.id}>
                    <Link href={`/players/${p.id}`}>{p.name}</Link>{' '}
                    <span class="muted">({t('matches.playerLevel', { level: levelText(p.level) })})</span>
                  </li>
                ))}
              </ul>
              {mine && <p>{t('matches.youPlay')}</p>}
              {mine && m.link && (
                <p>
                  {t('matches.share')}: <a href={m.link}>{m.link}</a>
                </p>
              )}
              {!session && m.status === 'open' && (
                <p>
                  <Link class="button" href={`/signin?next=${encodeURIComponent(here)}`}>
                    {t('matches.signInToJoin')}
                  </Link>
                </p>
              )}
              {session && !mine && m.status === 'open' && (
                <JoinMatch
                  id={id}
                  token={token}
                  price={m.price_per_player}
                  here={here}
                  onJoined={(notice) => {
                    setJoined(notice)
                    state.reload()
                  }}
                />
              )}
              {session && mine && m.organizer_id !== session.user.id && ['open', 'full'].includes(m.status) && (
                <button
                  type="button"
                  class="secondary"
                  disabled={action.busy}
                  onClick={() =>
                    action.run(async () => {
                      const left = await ok(
                        api().POST('/api/matches/{match}/leave', { params: { path: { match: id } } }),
                      )
                      state.reload()
                      return t('matches.left', { amount: formatMoney(left.data.refunded) })
                    })
                  }
                >
                  {t('matches.leave')}
                </button>
              )}
              <Outcome notice={joined ?? action.notice} message={action.message} />
              <p>
                <Link href="/matches">{t('matches.back')}</Link>
              </p>
            </>
          )
        }}
      </Loaded>
    </section>
  )
}

/** A player's levels per sport (GET /api/players/{user}). */
export function PlayerPage({ id }: { id: string }) {
  const state = useLoad(() => ok(api().GET('/api/players/{user}', { params: { path: { user: id } } })), [id])
  return (
    <section>
      <Loaded state={state}>
        {({ data: p }) => (
          <>
            <h1>{t('player.title', { name: p.name })}</h1>
            <p>{t('player.played', { count: formatNumber(p.matches_played) })}</p>
            <p>{t('player.showUp', { percent: formatNumber(p.reliability) })}</p>
            {p.levels.length === 0 ? (
              <p>{t('player.none')}</p>
            ) : (
              <ul class="rows">
                {p.levels.map((l) => (
                  <li key={l.sport}>
                    {t('player.levelIn', { sport: l.sport, level: levelText(l.level) })} ·{' '}
                    <span class="muted">{t('player.reliability', { percent: formatNumber(l.reliability) })}</span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </Loaded>
    </section>
  )
}
