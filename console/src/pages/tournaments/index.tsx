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

const FORMATS = [
  { value: 'league', label: 'League (everyone plays everyone)' },
  { value: 'knockout', label: 'Knockout' },
  { value: 'group_knockout', label: 'Groups, then knockout' },
]
const FORMAT_NAMES: Record<string, string> = {
  league: 'League',
  knockout: 'Knockout',
  group_knockout: 'Groups, then knockout',
}
export const STATUS_NAMES: Record<string, string> = {
  registration_open: 'Registration open',
  registration_closed: 'Registration closed',
  ongoing: 'Ongoing',
  completed: 'Completed',
  cancelled: 'Cancelled',
}
/** The forward move from each status, as the API's state machine allows it (cancel is apart). */
const NEXT: Partial<Record<string, { status: Status; label: string }>> = {
  registration_open: { status: 'registration_closed', label: 'Close registration' },
  registration_closed: { status: 'ongoing', label: 'Start the tournament' },
  ongoing: { status: 'completed', label: 'Mark completed' },
}

export function TournamentsPage({ user, venue, tournamentId }: { user: User; venue: Venue; tournamentId?: number }) {
  if (!managesVenue(user, venue)) {
    return (
      <section>
        <h1>Tournaments at {venue.name}</h1>
        <Notice kind="error">
          Tournaments are run by the venue's owner and managers. You work here as staff: you can use the day board.
        </Notice>
        <p>
          <a href={href(`/venues/${venue.id}/board`)}>Back to the day board</a>
        </p>
      </section>
    )
  }
  return tournamentId ? (
    <TournamentDetail venue={venue} id={tournamentId} />
  ) : (
    <section>
      <h1>Tournaments at {venue.name}</h1>
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
    <Section title="The venue's tournaments">
      <Loaded state={list} loading="Loading the tournaments" empty="No tournament yet.">
        {(rows) => (
          <ScrollBox label="Tournaments, scrolls sideways">
            <Table
              caption="Tournaments"
              columns={['Tournament', 'Format', 'Dates', 'Teams', { label: 'Fee', num: true }, 'Status']}
            >
              {rows.map((t) => (
                <tr key={t.id}>
                  <td>
                    <a href={href(`/venues/${venue.id}/tournaments/${t.id}`)}>{t.name}</a>
                  </td>
                  <td>{FORMAT_NAMES[t.format] ?? t.format}</td>
                  <td class="nowrap">
                    {t.starts_at} to {t.ends_at}
                  </td>
                  <td>
                    {t.registered_teams} of {t.max_teams}
                  </td>
                  <td class="num nowrap">{money(t.registration_fee)}</td>
                  <td>{STATUS_NAMES[t.status] ?? t.status}</td>
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
    <Section title="New tournament">
      <form onSubmit={create}>
        <Outcome error={f.error} notice={f.notice} />
        <Field label="Name" required {...f.bind('name')} />
        <Field label="Sport" required {...f.bind('sport_type')} />
        <SelectField label="Format" options={FORMATS} {...f.bindSelect('format')} />
        <Field label="Most teams" type="number" min={2} max={128} required {...f.bind('max_teams')} />
        <Field
          label="Registration fee (Rs)"
          inputMode="decimal"
          hint="Paid by each team from its wallet; refunded to it if the tournament is cancelled."
          {...f.bind('registration_fee')}
        />
        <Field label="Prize pool (Rs)" inputMode="decimal" {...f.bind('prize_pool')} />
        <Field label="Starts on" type="date" required {...f.bind('starts_at')} />
        <Field label="Ends on" type="date" required {...f.bind('ends_at')} />
        <TextAreaField label="Description" {...f.bind('description')} />
        <div class="actions">
          <button type="submit" class="primary" disabled={f.busy}>
            Create tournament
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
        <a href={href(`/venues/${venue.id}/tournaments`)}>All tournaments</a>
      </p>
      <Loaded state={tournament} loading="Loading the tournament" empty="" isEmpty={() => false}>
        {(t) => (
          <>
            <h1>{t.name}</h1>
            <div class="manage-stack">
              <Summary t={t} onChanged={reload} />
              <Teams t={t} />
              <Fixtures t={t} state={fixtures} onChanged={reload} />
              <Standings t={t} />
            </div>
          </>
        )}
      </Loaded>
    </section>
  )
}

function Summary({ t, onChanged }: { t: Tournament; onChanged: () => void }) {
  const f = useForm({ reason: '' })
  const [confirming, setConfirming] = useState(false)
  const paidFees = (t.teams ?? []).filter((x) => x.fee_status === 'paid')
  const next = NEXT[t.status]
  const open = t.status !== 'completed' && t.status !== 'cancelled'

  async function move(status: Status, notice: string) {
    const done = await f.submit(async () => {
      await ok(
        api().PATCH('/api/tournaments/{tournament}/status', {
          params: { path: { tournament: String(t.id) } },
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
    ['Status', STATUS_NAMES[t.status] ?? t.status],
    ['Format', FORMAT_NAMES[t.format] ?? t.format],
    ['Sport', t.sport_type],
    ['Dates', `${longDate(t.starts_at)} to ${longDate(t.ends_at)}`],
    ['Teams', `${t.registered_teams} of ${t.max_teams}`],
    ['Registration fee', money(t.registration_fee)],
    ['Prize pool', money(t.prize_pool)],
  ]
  return (
    <Section title="Summary">
      <Outcome error={f.error} notice={f.notice} />
      <dl class="facts">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {t.description && <p>{t.description}</p>}
      {open && !confirming && (
        <div class="actions">
          {next && (
            <button
              type="button"
              class="primary"
              disabled={f.busy}
              onClick={() => move(next.status, `${STATUS_NAMES[next.status]}.`)}
            >
              {next.label}
            </button>
          )}
          <button type="button" class="danger" disabled={f.busy} onClick={() => setConfirming(true)}>
            Cancel the tournament…
          </button>
        </div>
      )}
      {open && confirming && (
        <section class="card" aria-labelledby={`cancel-${t.id}`}>
          <h3 id={`cancel-${t.id}`}>Cancel {t.name}?</h3>
          <p>
            {paidFees.length === 0
              ? 'No team has paid its fee online: nothing is refunded.'
              : `${paidFees.length} team${paidFees.length === 1 ? '' : 's'} paid ${money(t.registration_fee)} from the wallet; each fee goes back to that wallet, charged to the venue's balance with the platform.`}
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
                    ? 'The tournament is cancelled.'
                    : `The tournament is cancelled and ${paidFees.length} fee${paidFees.length === 1 ? ' was' : 's were'} refunded to the wallets.`,
                )
              }
            >
              Cancel and refund the fees
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep the tournament
            </button>
          </div>
        </section>
      )}
    </Section>
  )
}

const FEE_NAMES: Record<string, string> = { unpaid: 'Not paid', paid: 'Paid online', refunded: 'Refunded to wallet' }

function Teams({ t }: { t: Tournament }) {
  const teams = t.teams ?? []
  return (
    <Section title="Registered teams">
      {teams.length === 0 ? (
        <p>No team has registered yet.</p>
      ) : (
        <ScrollBox label="Registered teams, scrolls sideways">
          <Table
            caption="Registered teams"
            columns={['Team', 'Captain', 'Phone', 'Players', 'Registered', 'Entry fee']}
          >
            {teams.map((team) => (
              <tr key={team.id}>
                <td class="strong">{team.name}</td>
                <td>{team.captain_name}</td>
                <td class="nowrap">{team.contact_phone ?? '—'}</td>
                <td>{team.player_count}</td>
                <td class="nowrap">{team.registered_at.slice(0, 16)}</td>
                <td>
                  {FEE_NAMES[team.fee_status] ?? team.fee_status}
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
  t,
  state,
  onChanged,
}: {
  t: Tournament
  state: { data: Fixture[] | null; error: string | null }
  onChanged: () => void
}) {
  const f = useForm({})
  const results = (state.data ?? []).some((x) => x.status === 'completed')
  const mayGenerate =
    (t.status === 'registration_closed' || t.status === 'ongoing') && !results && t.registered_teams >= 2
  async function generate() {
    const done = await f.submit(async () => {
      const made = await ok(
        api().POST('/api/tournaments/{tournament}/fixtures/generate', {
          params: { path: { tournament: String(t.id) } },
        }),
      )
      return `${made.data.length} fixtures generated.`
    })
    if (done) onChanged()
  }
  return (
    <Section title="Fixtures and results">
      <Outcome error={f.error} notice={f.notice} />
      {mayGenerate && (
        <div class="actions">
          <button type="button" class="primary" disabled={f.busy} onClick={generate}>
            {(state.data ?? []).length > 0 ? 'Generate the fixtures again' : 'Generate the fixtures'}
          </button>
        </div>
      )}
      {t.status === 'registration_open' && <p class="muted">Close registration to generate the fixtures.</p>}
      <Loaded state={state} loading="Loading the fixtures" empty="No fixtures yet.">
        {(rows) => (
          <ol class="fixture-list">
            {rows.map((fx) => (
              <li key={fx.id}>
                <FixtureRow
                  fixture={fx}
                  editable={t.status === 'registration_closed' || t.status === 'ongoing'}
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
  const a = fx.team_a?.name ?? 'To be decided'
  const b = fx.team_b?.name ?? 'To be decided'
  const match = `match ${fx.match_number}`
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
      return `Result of ${match} saved.`
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
        <span class="strong">Match {fx.match_number}</span> · {fx.round}
        {fx.group && ` · Group ${fx.group}`}
      </p>
      <p>
        {a} <span class="muted">v</span> {b}
        {fx.status === 'bye' && <span class="muted"> (bye)</span>}
        {fx.result && (
          <span class="strong">
            {' '}
            · {fx.result.score_a}–{fx.result.score_b}
          </span>
        )}
      </p>
      {playable && (
        <form class="row subform" onSubmit={save}>
          <Field label={`Goals of ${a} in ${match}`} type="number" min={0} max={999} required {...f.bind('score_a')} />
          <Field label={`Goals of ${b} in ${match}`} type="number" min={0} max={999} required {...f.bind('score_b')} />
          {knockout && (
            <SelectField
              label={`Winner of ${match} after a draw`}
              options={[
                { value: '', label: 'No draw' },
                { value: String(fx.team_a!.id), label: a },
                { value: String(fx.team_b!.id), label: b },
              ]}
              {...f.bindSelect('winner_id')}
            />
          )}
          <div class="actions">
            <button type="submit" class="primary" disabled={f.busy}>
              {fx.result ? 'Correct the result' : 'Save the result'} <span class="sr-only">of {match}</span>
            </button>
          </div>
        </form>
      )}
    </div>
  )
}

function Standings({ t }: { t: Tournament }) {
  const rows = t.standings ?? []
  const groups = [...new Set(rows.map((r) => r.group ?? ''))]
  return (
    <Section title="Standings">
      {rows.length === 0 ? (
        <p>No standings yet.</p>
      ) : (
        groups.map((g) => (
          <ScrollBox key={g} label={g ? `Standings of group ${g}, scrolls sideways` : 'Standings, scrolls sideways'}>
            <Table
              caption={g ? `Standings of group ${g}` : 'Standings'}
              columns={[
                'Rank',
                'Team',
                { label: 'Played', num: true },
                { label: 'Won', num: true },
                { label: 'Drawn', num: true },
                { label: 'Lost', num: true },
                { label: 'Goals', num: true },
                { label: 'Points', num: true },
              ]}
            >
              {rows
                .filter((r) => (r.group ?? '') === g)
                .map((r) => (
                  <tr key={r.team.id}>
                    <td>{r.rank}</td>
                    <td class="strong">{r.team.name}</td>
                    <td class="num">{r.played}</td>
                    <td class="num">{r.won}</td>
                    <td class="num">{r.drawn}</td>
                    <td class="num">{r.lost}</td>
                    <td class="num nowrap">
                      {r.goals_for}–{r.goals_against}
                    </td>
                    <td class="num strong">{r.points}</td>
                  </tr>
                ))}
            </Table>
          </ScrollBox>
        ))
      )}
    </Section>
  )
}
