import type { FastifyInstance } from 'fastify';
import { statisticsRoutes } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import { contractRoutes } from '../../lib/contract-routes.js';
import type { StatisticsService } from './statistics.service.js';

const tags = ['Statistics'];
const who =
  'The season’s participants, archived participants and test users (TESTUSER) left out; a participant who has ' +
  'never opened their dashboard counts with every case not started. A season the project does not have: 404.';

export function registerStatisticsRoutes(app: FastifyInstance, service: StatisticsService): void {
  const implement = contractRoutes(app);

  implement(
    statisticsRoutes.participationRate,
    { tags, summary: 'Participants who have started at least one case ÷ participants assigned', description: who },
    async (request) => service.participationRate(caller(request), request.params.id, request.query.seasonName),
  );
  implement(
    statisticsRoutes.completionRate,
    {
      tags,
      summary:
        'Completion: of cases unlocked so far (CASES), or of participants who completed all theirs (PARTICIPANTS)',
      description: who,
    },
    async (request) => service.completionRate(caller(request), request.params.id, request.query),
  );
  implement(
    statisticsRoutes.byRound,
    { tags, summary: 'Participation and completion per round', description: who },
    async (request) => service.byRound(caller(request), request.params.id, request.query.seasonName),
  );
  implement(
    statisticsRoutes.caseCompletion,
    { tags, summary: 'Per case: assigned, started, completed, completion rate, average score', description: who },
    async (request) => service.caseCompletion(caller(request), request.params.id, request.query.seasonName),
  );
  implement(
    statisticsRoutes.completionsByDay,
    {
      tags,
      summary:
        'Cases completed per day over the last 14 days (days in the schedule’s time zone, SCHEDULE_TIME_ZONE; every day listed)',
      description: who,
    },
    async (request) => service.completionsByDay(caller(request), request.params.id, request.query.seasonName),
  );
  implement(
    statisticsRoutes.categoryUse,
    {
      tags,
      summary: 'Per question category: under-use (necessary choices missed) and over-use (unnecessary chosen)',
      description:
        `${who} Over completed cases, per round and for the season, with the change from the first round to the ` +
        'last with completed cases. Not in the specification.',
    },
    async (request) => service.categoryUse(caller(request), request.params.id, request.query.seasonName),
  );
  implement(
    statisticsRoutes.itemAnalysis,
    {
      tags,
      summary: 'Item analysis: per question its difficulty and discrimination, per choice how often it was picked',
      description:
        `${who} Over completed cases of the season's published cases, free-text questions left out. A question ` +
        'row (`choice_id` null): `difficulty` is the share of attempts with full marks on it (every necessary ' +
        'choice, no unnecessary one), `discrimination` the point-biserial correlation of those full marks with ' +
        'the rest of the case’s score (null without variance). A choice row: `chosen` attempts picked it. `change`: ' +
        'where a copy of the same case was answered in an earlier round of the season, the change of the ' +
        'difficulty (or chosen rate) since the earliest. Flags ' +
        '(from 5 attempts): ALMOST_ALL_RIGHT (difficulty ≥ 0.95), ALMOST_ALL_WRONG (≤ 0.05), ' +
        'NEGATIVE_DISCRIMINATION (from 20 attempts, r ≤ −2/√(N + 2): two standard errors below 0), OFTEN_MISSED (a necessary choice missed by a third or more), OFTEN_CHOSEN (an ' +
        'unnecessary choice picked by a third or more).',
    },
    async (request) => service.itemAnalysis(caller(request), request.params.id, request.query.seasonName),
  );
  implement(
    statisticsRoutes.participants,
    {
      tags,
      summary: 'Each participant’s progress and score, overall and per round (paged)',
      description:
        `${who} Sort: name, email, progress, average_score; filter: {"progress": …}; search: name or email. ` +
        '`seasonName` may be left out (as the specification lists the call): the project’s default season is ' +
        'answered — the one running today, else the latest that has begun (the Progress Dashboard’s first season).',
    },
    async (request) => service.participants(caller(request), request.params.id, request.query),
  );
  implement(
    statisticsRoutes.connectedAccounts,
    {
      tags,
      summary: 'The project’s client’s participants who have signed in, with their first and latest sign-in (paged)',
    },
    async (request) => service.connectedAccounts(caller(request), request.params.id, request.query),
  );
  implement(
    statisticsRoutes.scoringUpdate,
    {
      tags,
      summary: 'Score the project’s completed attempts again from their stored answers',
      description: 'Idempotent: answers how many attempts were checked and how many stored scores changed.',
    },
    async (request) => service.scoringUpdate(caller(request), request.body.project_id),
  );
}
