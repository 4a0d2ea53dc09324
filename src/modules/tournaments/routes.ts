import { Type } from 'typebox'
import { signedIn } from '../../lib/auth.ts'
import { pathId } from '../../lib/ids.ts'
import type { Routes } from '../../lib/route.ts'
import { Data, errorResponses, Message } from '../../lib/schemas.ts'
import { fixtureManagerFirst, tournamentManagerFirst } from './hooks.ts'
import {
  CreateBody,
  FixtureSchema,
  ListQuery,
  ResultBody,
  StandingSchema,
  StatusBody,
  TeamBody,
  TeamSchema,
  TournamentSchema,
  UpdateBody,
} from './schemas.ts'
import { payFee } from './service/fees.ts'
import * as fixtures from './service/fixtures.ts'
import { registerTeam } from './service/teams.ts'
import * as tournaments from './service/tournaments.ts'

const tags = ['Tournaments']
const security = [{ bearer: [] }]
const TournamentParams = Type.Object({ tournament: Type.String() })
// Refusals (registration closed, generation or result not allowed) are 422 with a message only;
// field validation adds errors.
const Refused = Type.Object({
  message: Type.String(),
  errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
})
const List = <T extends Parameters<typeof Type.Array>[0]>(item: T) => Type.Object({ data: Type.Array(item) })

const tournamentId = (req: { params: { tournament: string } }) => pathId(req.params.tournament)

const routes: Routes = async (app) => {
  const { ctx } = app

  app.get(
    '/tournaments',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        operationId: 'listTournaments',
        security: [],
        summary: 'Tournaments of public venues, latest start first',
        description: 'With venue_id and a bearer token of someone who runs that venue, also while the venue is hidden.',
        querystring: ListQuery,
        response: { 200: List(TournamentSchema), 422: errorResponses[422] },
      },
    },
    async (req) => {
      const filter = { venueId: req.query.venue_id, status: req.query.status }
      return { data: await tournaments.listTournaments(ctx, filter, req.user ?? null) }
    },
  )

  app.get(
    '/tournaments/:tournament',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        operationId: 'getTournament',
        security: [],
        summary: 'A tournament with its venue, teams and standings',
        params: TournamentParams,
        response: { 200: Data(TournamentSchema), 404: Message },
      },
    },
    async (req) => ({ data: await tournaments.showTournament(ctx, tournamentId(req), req.user ?? null) }),
  )

  app.get(
    '/tournaments/:tournament/fixtures',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        operationId: 'listFixtures',
        security: [],
        summary: 'Fixtures in match order',
        params: TournamentParams,
        response: { 200: List(FixtureSchema), 404: Message },
      },
    },
    async (req) => {
      const t = await tournaments.visibleTournament(ctx, tournamentId(req), req.user ?? null)
      return { data: await fixtures.fixturesOf(ctx, t.id) }
    },
  )

  app.get(
    '/tournaments/:tournament/standings',
    {
      onRequest: app.auth.optional,
      schema: {
        tags,
        operationId: 'getStandings',
        security: [],
        summary: 'Standings: 3 points a win, 1 a draw; ties by goal difference, goals for, head-to-head, name',
        description: 'group_knockout: one table per group of the group stage, each row carrying its group.',
        params: TournamentParams,
        response: { 200: List(StandingSchema), 404: Message },
      },
    },
    async (req) => {
      const t = await tournaments.visibleTournament(ctx, tournamentId(req), req.user ?? null)
      return { data: await fixtures.standingsOf(ctx.db, t) }
    },
  )

  app.post(
    '/tournaments/:tournament/teams',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'registerTeam',
        summary: 'Register a team',
        description:
          '422 "Tournament registration is closed." unless the status is registration_open and a place is left. ' +
          'A registration fee is shown on the tournament; paying it is not part of this API.',
        params: TournamentParams,
        body: TeamBody,
        response: { 201: Data(TeamSchema), ...errorResponses, 422: Refused },
      },
    },
    async (req, reply) => {
      const data = await registerTeam(ctx, signedIn(req), tournamentId(req), req.body)
      return reply.code(201).send({ data })
    },
  )

  app.post(
    '/tournaments/:tournament/teams/:team/pay',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'payTournamentFee',
        summary: 'Pay the team’s registration fee from the wallet (the account that registered the team)',
        description:
          'Online money owed to the venue (ledger: wallet → venue balance). Cancelling the tournament refunds it to ' +
          'the wallet, charged to the venue’s balance. 422 when the tournament has no fee, the fee is paid, the ' +
          'tournament is ongoing, completed or cancelled, or the wallet is short ("Insufficient wallet balance.").',
        params: Type.Object({ tournament: Type.String(), team: Type.String() }),
        response: { 200: Data(TeamSchema), ...errorResponses, 422: Refused },
      },
    },
    async (req) => ({
      data: await payFee(ctx, signedIn(req), tournamentId(req), pathId(req.params.team)),
    }),
  )

  app.post(
    '/tournaments',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'createTournament',
        summary: 'Create a tournament (owner or manager of venue_id)',
        body: CreateBody,
        response: { 201: Data(TournamentSchema), ...errorResponses },
      },
    },
    async (req, reply) => {
      const data = await tournaments.createTournament(ctx, signedIn(req), req.body)
      return reply.code(201).send({ data })
    },
  )

  app.put(
    '/tournaments/:tournament',
    {
      onRequest: app.auth.required,
      preValidation: tournamentManagerFirst(ctx),
      schema: {
        tags,
        security,
        operationId: 'updateTournament',
        summary: 'Update a tournament (owner or manager of its venue); partial',
        params: TournamentParams,
        body: UpdateBody,
        response: { 200: Data(TournamentSchema), ...errorResponses },
      },
    },
    async (req) => ({
      data: await tournaments.updateTournament(ctx, signedIn(req), tournamentId(req), req.body),
    }),
  )

  app.patch(
    '/tournaments/:tournament/status',
    {
      onRequest: app.auth.required,
      preValidation: tournamentManagerFirst(ctx),
      schema: {
        tags,
        security,
        operationId: 'updateTournamentStatus',
        summary: 'Move the tournament along its states',
        description:
          'registration_open → registration_closed → ongoing → completed; any state but completed → cancelled. ' +
          'Anything else is 422. Cancelling refunds every registration fee paid online to its wallet, charged ' +
          'to the venue’s balance, in the same transaction (the teams then show fee_status refunded).',
        params: TournamentParams,
        body: StatusBody,
        response: { 200: Data(TournamentSchema), ...errorResponses },
      },
    },
    async (req) => ({
      data: await tournaments.changeStatus(ctx, signedIn(req), tournamentId(req), req.body.status),
    }),
  )

  app.post(
    '/tournaments/:tournament/fixtures/generate',
    {
      onRequest: app.auth.required,
      schema: {
        tags,
        security,
        operationId: 'generateFixtures',
        summary: 'Generate (or regenerate) the fixtures',
        description:
          'league: round robin (circle method, byes for odd counts). knockout: single elimination, byes to the ' +
          'next power of two for the first registered teams. group_knockout: groups of 3–4 play a round robin, the ' +
          'top two of each group enter a knockout. Needs registration closed and at least 2 teams; refused once a ' +
          'result is recorded.',
        params: TournamentParams,
        response: { 201: List(FixtureSchema), ...errorResponses, 422: Refused },
      },
    },
    async (req, reply) => {
      const data = await fixtures.generateFixtures(ctx, signedIn(req), tournamentId(req))
      return reply.code(201).send({ data })
    },
  )

  app.patch(
    '/fixtures/:fixture',
    {
      onRequest: app.auth.required,
      preValidation: fixtureManagerFirst(ctx),
      schema: {
        tags,
        security,
        operationId: 'updateFixture',
        summary: 'Record a result (owner or manager of the venue)',
        description:
          'A knockout draw needs winner_id (one of the two teams); the winner moves into the next round. ' +
          'When the last group match is played, the top two of each group fill the knockout.',
        params: Type.Object({ fixture: Type.String() }),
        body: ResultBody,
        response: { 200: Data(FixtureSchema), ...errorResponses, 422: Refused },
      },
    },
    async (req) => ({
      data: await fixtures.recordResult(ctx, signedIn(req), pathId(req.params.fixture), req.body),
    }),
  )
}
export default routes
