import { useEffect, useState } from 'preact/hooks'
import { ApiError, api, messageOf, ok, type Schemas } from '../../api.ts'
import { Notice } from '../../components/ui.tsx'
import { money } from '../../format.ts'
import { digits, type MessageKey, t } from '../../i18n/index.ts'
import type { BoardBooking } from './data.ts'

// The booking dialog's open-match part (docs/matches.md): when a customer opened their booking as a
// match, the desk sees who is playing (names and levels), how many spots are left and each share's price.

type Match = Schemas['Match']

const STATUS: Record<string, MessageKey> = {
  open: 'match.open',
  full: 'match.full',
  cancelled: 'match.cancelled',
  played: 'match.played',
}

async function loadMatch(b: BoardBooking): Promise<Match | null> {
  try {
    const answer =
      b.kind === 'court'
        ? await ok(api().GET('/api/bookings/{booking}/match', { params: { path: { booking: String(b.id) } } }))
        : await ok(
            api().GET('/api/indoor-game-bookings/{indoorGameBooking}/match', {
              params: { path: { indoorGameBooking: String(b.id) } },
            }),
          )
    return answer.data
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null
    throw err
  }
}

export function MatchPart({ booking }: { booking: BoardBooking }) {
  const [match, setMatch] = useState<Match | null | undefined>(undefined)
  const [loadError, setLoadError] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    loadMatch(booking)
      .then((m) => live && setMatch(m))
      .catch((err) => live && setLoadError(messageOf(err)))
    return () => {
      live = false
    }
  }, [booking.id, booking.kind, booking.status, booking.paid_amount])

  if (loadError) return <Notice kind="error">{loadError}</Notice>
  if (!match) return null
  const range =
    match.level_min === null && match.level_max === null
      ? t('match.allLevels')
      : t('match.levels', {
          from: digits((match.level_min ?? 0).toFixed(1)),
          to: digits((match.level_max ?? 7).toFixed(1)),
        })
  return (
    <section aria-labelledby="match-players-title">
      <h3 id="match-players-title">{t('match.title', { n: match.players.length, total: match.players_total })}</h3>
      <p class="muted">
        {match.status in STATUS ? t(STATUS[match.status]) : match.status} ·{' '}
        {t(match.visibility === 'private' ? 'match.private' : 'match.public')} · {range} ·{' '}
        {t('match.price', { price: money(match.price_per_player) })}
      </p>
      <table>
        <caption class="sr-only">{t('match.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('match.player')}</th>
            <th scope="col" class="num">
              {t('match.level')}
            </th>
          </tr>
        </thead>
        <tbody>
          {match.players.map((p) => (
            <tr key={p.id}>
              <td>
                {p.name}
                {p.id === match.organizer_id && <span class="muted">{t('match.organizer')}</span>}
              </td>
              <td class="num">{digits(p.level.toFixed(1))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
