import { useState } from 'preact/hooks'
import { api, ok, type Schemas, type User } from '../../api.ts'
import {
  Loaded,
  Outcome,
  orNull,
  rupees,
  Section,
  Table,
  TextAreaField,
  useForm,
  useLoad,
} from '../../components/forms.tsx'
import { ScrollBox } from '../../components/scroll.tsx'
import { Field, Notice, SelectField } from '../../components/ui.tsx'
import { longDate, money } from '../../format.ts'
import { count, digits, getLang, localName, type MessageKey, t } from '../../i18n/index.ts'
import { dayText, momentText } from '../../i18n/moments.ts'
import { go, href } from '../../router.ts'
import { managesVenue, type Venue } from '../../session.ts'

// The venue's tournaments for its owner and managers (issue 35): create one (format, fee, prize,
// dates, max teams), then on its page see the registered teams and their entry fees, close
// registration, generate the fixtures, record results, read the standings, and cancel it, which
// refunds every fee paid online to its wallet (charged to the venue's balance). All through the
// public API: /api/tournaments…, /api/fixtures/{fixture}.

type Tournament = Schemas['Tournament']
type Fixture = Schemas['Fixture']
type Status = Schemas['TournamentStatus']

const formats = () => [
  { value: 'league', label: t('tournaments.formatLeagueLong') },
  { value: 'knockout', label: t('tournaments.format.knockout') },
  { value: 'group_knockout', label: t('tournaments.format.group_knockout') },
]
const FORMATS = ['league', 'knockout', 'group_knockout'] as const
/** A format's name ("League" / "लिग"); an unknown one as is. */
const formatName = (format: string) =>
  (FORMATS as readonly string[]).includes(format)
    ? t(`tournaments.format.${format as (typeof FORMATS)[number]}`)
    : format
const STATUSES = ['registration_open', 'registration_closed', 'ongoing', 'completed', 'cancelled'] as const
/** A tournament's status as the console names it ("Registration open" / "दर्ता खुला"); an unknown one as is. */
const statusName = (status: string) =>
  (STATUSES as readonly string[]).includes(status)
    ? t(`tournaments.status.${status as (typeof STATUSES)[number]}`)
    : status
/** The forward move from each status, as the API's state machine allows it (cancel is apart). */
const NEXT: Partial<Record<string, { status: Status; label: MessageKey }>> = {
  registration_open: { status: 'registration_closed', label: 'tournaments.closeRegistration' },
  registration_closed: { status: 'ongoing', label: 'tournaments.start' },
  ongoing: { status: 'completed', label: 'tournaments.markCompleted' },
}
/** A tournament's day: "2026-03-20" in the list and "Fri 20 Mar 2026" on its page in English; with the BS date in Nepali. */
const day = (date: string, english: string) => dayText(date, english)

export function TournamentsPage({ user, venue, tournamentId }: { user: User; venue: Venue; tournamentId?: number }) {
  if (!managesVenue(user, venue)) {
    return (
      <section>
        <h1>{t('tournaments.title', { venue: localName(venue) })}</h1>
        <Notice kind="error">{t('tournaments.staffRefused')}</Notice>
        <p>
          <a href={href(`/venues/${venue.id}/board`)}>{t('common.backToBoard')}</a>
        </p>
      </section>
    )
  }
  return tournamentId ? (
    <TournamentDetail venue={venue} id={tournamentId} />
  ) : (
    <section>
      <h1>{t('tournaments.title', { venue: localName(venue) })}</h1>
      <div class="manage-stack">
        <TournamentList venue={venue} />
        <CreateTournament venue={venue} />
      </div>
    </section>
  )
}

function TournamentList({ venue }: { venue: Venue }) {
  const list = useLoad(
    () => ok(api().GET('/api/tournaments', { params: { query: { venue_id: venue.id } } })).then((r) => r.data),
    [venue.id],
  )
  return (
    <Section title={t('tournaments.listTitle')}>
      <Loaded state={list} loading={t('tournaments.loading')} empty={t('tournaments.none')}>
        {(rows) => (
          <ScrollBox label={t('tournaments.scroll')}>
            <Table
              caption={t('shell.tournaments')}
              columns={[
                t('tournaments.tournament'),
                t('tournaments.formatLabel'),
                t('tournaments.dates'),
                t('tournaments.teams'),
                { label: t('tournaments.fee'), num: true },
                t('tournaments.statusLabel'),
              ]}
            >
              {rows.map((tour) => (
                <tr key={tour.id}>
                  <td>
                    <a href={href(`/venues/${venue.id}/tournaments/${tour.id}`)}>{tour.name}</a>
                  </td>
                  <td>{formatName(tour.format)}</td>
                  <td class={getLang() === 'ne' ? undefined : 'nowrap'}>
                    {t('tournaments.fromTo', {
                      from: day(tour.starts_at, tour.starts_at),
                      to: day(tour.ends_at, tour.ends_at),
                    })}
                  </td>
                  <td>{t('tournaments.teamsOf', { n: tour.registered_teams, max: tour.max_teams })}</td>
                  <td class="num nowrap">{money(tour.registration_fee)}</td>
                  <td>{statusName(tour.status)}</td>
                </tr>
              ))}
            </Table>
          </ScrollBox>
        )}
      </Loaded>
    </Section>
  )
}

function CreateTournament({ venue }: { venue: Venue }) {
  const f = useForm({
    name: '',
    sport_type: 'futsal',
    format: 'league',
    max_teams: '8',
    registration_fee: '0',
    prize_pool: '0',
    starts_at: '',
    ends_at: '',
    description: '',
  })
  async function create(e: Event) {
    e.preventDefault()
    const v = f.values
    await f.submit(async () => {
      const created = await ok(
        api().POST('/api/tournaments', {
          body: {
            venue_id: venue.id,
            name: v.name,
            sport_type: v.sport_type,
            format: v.format as Schemas['TournamentFormat'],
            max_teams: Number(v.max_teams),
            registration_fee: rupees(v.registration_fee),
            prize_pool: rupees(v.prize_pool),
            starts_at: v.starts_at,
            ends_at: v.ends_at,
            description: orNull(v.description),
          },
        }),
      )
      go(`/venues/${venue.id}/tournaments/${created.data.id}`)
      return undefined
    })
  }
  return (
    <Section title={t('tournaments.newTitle')}>
      <form onSubmit={create}>
        <Outcome error={f.error} notice={f.notice} />
        <Field label={t('tournaments.name')} required {...f.bind('name')} />
        <Field label={t('tournaments.sport')} required {...f.bind('sport_type')} />
        <SelectField label={t('tournaments.formatLabel')} options={formats()} {...f.bindSelect('format')} />
        <Field label={t('tournaments.maxTeams')} type="number" min={2} max={128} required {...f.bind('max_teams')} />
        <Field
          label={t('tournaments.feeField')}
          inputMode="decimal"
          hint={t('tournaments.feeHint')}
          {...f.bind('registration_fee')}
        />
        <Field label={t('tournaments.prizeField')} inputMode="decimal" {...f.bind('prize_pool')} />
        <Field label={t('tournaments.startsOn')} type="date" required {...f.bind('starts_at')} />
        <Field label={t('tournaments.endsOn')} type="date" required {...f.bind('ends_at')} />
        <TextAreaField label={t('tournaments.description')} {...f.bind('description')} />
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy}>
            {t('tournaments.create')}
          </button>
        </div>
      </form>
    </Section>
  )
}

function TournamentDetail({ venue, id }: { venue: Venue; id: number }) {
  const path = { params: { path: { tournament: String(id) } } }
  const tournament = useLoad(() => ok(api().GET('/api/tournaments/{tournament}', path)).then((r) => r.data), [id])
  const fixtures = useLoad(
    () => ok(api().GET('/api/tournaments/{tournament}/fixtures', path)).then((r) => r.data),
    [id],
  )
  const reload = () => {
    tournament.reload()
    fixtures.reload()
  }
  return (
    <section>
      <p>
        <a href={href(`/venues/${venue.id}/tournaments`)}>{t('tournaments.all')}</a>
      </p>
      <Loaded state={tournament} loading={t('tournaments.loadingOne')} empty="" isEmpty={() => false}>
        {(tour) => (
          <>
            <h1>{tour.name}</h1>
            <div class="manage-stack">
              <Summary tour={tour} onChanged={reload} />
              <Teams tour={tour} />
              <Fixtures tour={tour} state={fixtures} onChanged={reload} />
              <Standings tour={tour} />
            </div>
          </>
        )}
      </Loaded>
    </section>
  )
}

function Summary({ tour, onChanged }: { tour: Tournament; onChanged: () => void }) {
  const f = useForm({ reason: '' })
  const [confirming, setConfirming] = useState(false)
  const paidFees = (tour.teams ?? []).filter((x) => x.fee_status === 'paid')
  const next = NEXT[tour.status]
  const open = tour.status !== 'completed' && tour.status !== 'cancelled'

  async function move(status: Status, notice: string) {
    const done = await f.submit(async () => {
      await ok(
        api().PATCH('/api/tournaments/{tournament}/status', {
          params: { path: { tournament: String(tour.id) } },
          body: { status },
        }),
      )
      return notice
    })
    if (done) {
      setConfirming(false)
      onChanged()
    }
  }

  const facts: [string, string][] = [
    [t('tournaments.statusLabel'), statusName(tour.status)],
    [t('tournaments.formatLabel'), formatName(tour.format)],
    [t('tournaments.sport'), tour.sport_type],
    [
      t('tournaments.dates'),
      t('tournaments.fromTo', {
        from: day(tour.starts_at, longDate(tour.starts_at)),
        to: day(tour.ends_at, longDate(tour.ends_at)),
      }),
    ],
    [t('tournaments.teams'), t('tournaments.teamsOf', { n: tour.registered_teams, max: tour.max_teams })],
    [t('tournaments.registrationFee'), money(tour.registration_fee)],
    [t('tournaments.prizePool'), money(tour.prize_pool)],
  ]
  return (
    <Section title={t('tournaments.summary')}>
      <Outcome error={f.error} notice={f.notice} />
      <dl class="facts">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {tour.description && <p>{tour.description}</p>}
      {open && !confirming && (
        <div class="actions">
          {next && (
            <button
              type="button"
              class="primary"
              disabled={f.busy}
              onClick={() => move(next.status, t('tournaments.moved', { status: statusName(next.status) }))}
            >
              {t(next.label)}
            </button>
          )}
          <button type="button" class="danger" disabled={f.busy} onClick={() => setConfirming(true)}>
            {t('tournaments.cancel')}
          </button>
        </div>
      )}
      {open && confirming && (
        <section class="card" aria-labelledby={`cancel-${tour.id}`}>
          <h3 id={`cancel-${tour.id}`}>{t('tournaments.cancelTitle', { name: tour.name })}</h3>
          <p>
            {paidFees.length === 0
              ? t('tournaments.nothingRefunded')
              : t(paidFees.length === 1 ? 'tournaments.paidOne' : 'tournaments.paidMany', {
                  n: paidFees.length,
                  fee: money(tour.registration_fee),
                })}
          </p>
          <div class="actions">
            <button
              type="button"
              class="danger"
              disabled={f.busy}
              onClick={() =>
                move(
                  'cancelled',
                  paidFees.length === 0
                    ? t('tournaments.cancelled')
                    : t(paidFees.length === 1 ? 'tournaments.cancelledOne' : 'tournaments.cancelledMany', {
                        n: paidFees.length,
                      }),
                )
              }
            >
              {t('tournaments.cancelAndRefund')}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {t('tournaments.keep')}
            </button>
          </div>
        </section>
      )}
    </Section>
  )
}

const FEES = ['unpaid', 'paid', 'refunded'] as const
/** A team's entry fee state; an unknown one as is. */
const feeName = (fee: string) =>
  (FEES as readonly string[]).includes(fee) ? t(`tournaments.fee.${fee as (typeof FEES)[number]}`) : fee

function Teams({ tour }: { tour: Tournament }) {
  const teams = tour.teams ?? []
  return (
    <Section title={t('tournaments.registeredTeams')}>
      {teams.length === 0 ? (
        <p>{t('tournaments.noTeams')}</p>
      ) : (
        <ScrollBox label={t('tournaments.teamsScroll')}>
          <Table
            caption={t('tournaments.registeredTeams')}
            columns={[
              t('tournaments.team'),
              t('tournaments.captain'),
              t('tournaments.phone'),
              t('tournaments.players'),
              t('tournaments.registered'),
              t('tournaments.entryFee'),
            ]}
          >
            {teams.map((team) => (
              <tr key={team.id}>
                <td class="strong">{team.name}</td>
                <td>{team.captain_name}</td>
                <td class="nowrap">{team.contact_phone ?? '—'}</td>
                <td>{count(team.player_count)}</td>
                <td class={getLang() === 'ne' ? undefined : 'nowrap'}>
                  {momentText(team.registered_at, team.registered_at.slice(0, 16))}
                </td>
                <td>
                  {feeName(team.fee_status)}
                  {team.fee_status !== 'unpaid' && ` (${money(team.fee_paid)})`}
                </td>
              </tr>
            ))}
          </Table>
        </ScrollBox>
      )}
    </Section>
  )
}

function Fixtures({
  tour,
  state,
  onChanged,
}: {
  tour: Tournament
  state: { data: Fixture[] | null; error: string | null }
  onChanged: () => void
}) {
  const f = useForm({})
  const results = (state.data ?? []).some((x) => x.status === 'completed')
  const mayGenerate =
    (tour.status === 'registration_closed' || tour.status === 'ongoing') && !results && tour.registered_teams >= 2
  async function generate() {
    const done = await f.submit(async () => {
      const made = await ok(
        api().POST('/api/tournaments/{tournament}/fixtures/generate', {
          params: { path: { tournament: String(tour.id) } },
        }),
      )
      return t('tournaments.generated', { n: made.data.length })
    })
    if (done) onChanged()
  }
  return (
    <Section title={t('tournaments.fixtures')}>
      <Outcome error={f.error} notice={f.notice} />
      {mayGenerate && (
        <div class="actions">
          <button type="button" class="primary" disabled={f.busy} onClick={generate}>
            {(state.data ?? []).length > 0 ? t('tournaments.generateAgain') : t('tournaments.generate')}
          </button>
        </div>
      )}
      {tour.status === 'registration_open' && <p class="muted">{t('tournaments.closeFirst')}</p>}
      <Loaded state={state} loading={t('tournaments.loadingFixtures')} empty={t('tournaments.noFixtures')}>
        {(rows) => (
          <ol class="fixture-list">
            {rows.map((fx) => (
              <li key={fx.id}>
                <FixtureRow
                  fixture={fx}
                  editable={tour.status === 'registration_closed' || tour.status === 'ongoing'}
                  onChanged={onChanged}
                />
              </li>
            ))}
          </ol>
        )}
      </Loaded>
    </Section>
  )
}

function FixtureRow({
  fixture: fx,
  editable,
  onChanged,
}: {
  fixture: Fixture
  editable: boolean
  onChanged: () => void
}) {
  const f = useForm({
    score_a: fx.result ? String(fx.result.score_a) : '',
    score_b: fx.result ? String(fx.result.score_b) : '',
    winner_id: fx.result?.winner_id ? String(fx.result.winner_id) : '',
  })
  const a = fx.team_a?.name ?? t('tournaments.tbd')
  const b = fx.team_b?.name ?? t('tournaments.tbd')
  const match = t('tournaments.matchLower', { n: fx.match_number })
  const playable = editable && fx.team_a !== null && fx.team_b !== null && fx.status !== 'bye'
  const knockout = fx.stage === 'knockout'
  async function save(e: Event) {
    e.preventDefault()
    const done = await f.submit(async () => {
      await ok(
        api().PATCH('/api/fixtures/{fixture}', {
          params: { path: { fixture: String(fx.id) } },
          body: {
            score_a: Number(f.values.score_a),
            score_b: Number(f.values.score_b),
            ...(knockout && f.values.winner_id ? { winner_id: Number(f.values.winner_id) } : {}),
          },
        }),
      )
      return t('tournaments.resultSaved', { match })
    })
    if (done) onChanged()
  }
  return (
    <div class="fixture">
      <Outcome
        error={f.error && !f.fieldError('score_a') && !f.fieldError('score_b') ? f.error : null}
        notice={f.notice}
      />
      <p>
        <span class="strong">{t('tournaments.match', { n: fx.match_number })}</span> · {roundName(fx.round)}
        {fx.group && t('tournaments.group', { group: fx.group })}
      </p>
      <p>
        {a} <span class="muted">{t('tournaments.versus')}</span> {b}
        {fx.status === 'bye' && <span class="muted">{t('tournaments.bye')}</span>}
        {fx.result && <span class="strong"> · {digits(`${fx.result.score_a}–${fx.result.score_b}`)}</span>}
      </p>
      {playable && (
        <form class="row subform" onSubmit={save}>
          <Field
            label={t('tournaments.goalsOf', { team: a, match })}
            type="number"
            min={0}
            max={999}
            required
            {...f.bind('score_a')}
          />
          <Field
            label={t('tournaments.goalsOf', { team: b, match })}
            type="number"
            min={0}
            max={999}
            required
            {...f.bind('score_b')}
          />
          {knockout && (
            <SelectField
              label={t('tournaments.winnerOf', { match })}
              options={[
                { value: '', label: t('tournaments.noDraw') },
                { value: String(fx.team_a!.id), label: a },
                { value: String(fx.team_b!.id), label: b },
              ]}
              {...f.bindSelect('winner_id')}
            />
          )}
          <div class="actions">
            <button type="submit" class="primary" disabled={f.busy}>
              {fx.result ? t('tournaments.correct') : t('tournaments.saveResult')}{' '}
              <span class="sr-only">{t('tournaments.ofMatch', { match })}</span>
            </button>
          </div>
        </form>
      )}
    </div>
  )
}

function Standings({ tour }: { tour: Tournament }) {
  const rows = tour.standings ?? []
  const groups = [...new Set(rows.map((r) => r.group ?? ''))]
  return (
    <Section title={t('tournaments.standings')}>
      {rows.length === 0 ? (
        <p>{t('tournaments.noStandings')}</p>
      ) : (
        groups.map((g) => (
          <ScrollBox
            key={g}
            label={g ? t('tournaments.groupStandingsScroll', { group: g }) : t('tournaments.standingsScroll')}
          >
            <Table
              caption={g ? t('tournaments.groupStandings', { group: g }) : t('tournaments.standings')}
              columns={[
                t('tournaments.rank'),
                t('tournaments.team'),
                { label: t('tournaments.played'), num: true },
                { label: t('tournaments.won'), num: true },
                { label: t('tournaments.drawn'), num: true },
                { label: t('tournaments.lost'), num: true },
                { label: t('tournaments.goals'), num: true },
                { label: t('tournaments.points'), num: true },
              ]}
            >
              {rows
                .filter((r) => (r.group ?? '') === g)
                .map((r) => (
                  <tr key={r.team.id}>
                    <td>{count(r.rank)}</td>
                    <td class="strong">{r.team.name}</td>
                    <td class="num">{count(r.played)}</td>
                    <td class="num">{count(r.won)}</td>
                    <td class="num">{count(r.drawn)}</td>
                    <td class="num">{count(r.lost)}</td>
                    <td class="num nowrap">{digits(`${r.goals_for}–${r.goals_against}`)}</td>
                    <td class="num strong">{count(r.points)}</td>
                  </tr>
                ))}
            </Table>
          </ScrollBox>
        ))
      )}
    </Section>
  )
}

/**
 * A fixture's round as the service names it ("Round 2", "Group A - Round 1", "Semi-final", "Round of
 * 16"; src/modules/tournaments/scheduling.ts) in the language shown; any other text as it is.
 */
function roundName(round: string): string {
  const named: Record<string, MessageKey> = {
    Final: 'tournaments.round.final',
    'Semi-final': 'tournaments.round.semi',
    'Quarter-final': 'tournaments.round.quarter',
  }
  if (named[round]) return t(named[round])
  const of = /^Round of (\d+)$/.exec(round)
  if (of) return t('tournaments.round.of', { n: Number(of[1]) })
  const plain = /^Round (\d+)$/.exec(round)
  if (plain) return t('tournaments.round.n', { n: Number(plain[1]) })
  const grouped = /^Group (\S+) - Round (\d+)$/.exec(round)
  if (grouped) return t('tournaments.round.group', { group: grouped[1], n: Number(grouped[2]) })
  return round
}
