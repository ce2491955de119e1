import type { FastifyInstance } from 'fastify';
import { reportRoutes } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import { contractRoutes } from '../../lib/contract-routes.js';
import { sendTable } from '../../lib/table-writer.js';
import type { ReportsService } from './reports.service.js';

const tags = ['Reports'];

/** What every report's description says about the file. */
const FILE =
  'CSV (UTF-8 with BOM, comma-separated, CRLF) by default, XLSX with `format=xlsx`; an attachment named after the ' +
  'project, the report and today’s date. Rows are read from the database a page at a time as the file is sent. ' +
  'Test users (TESTUSER) and archived participants are left out. Text beginning with =, +, - or @ is written with ' +
  'an apostrophe before it, so a spreadsheet shows it as text. Times are UTC. 404 PROJECT_NOT_FOUND for a project ' +
  'the caller may not see (another client’s).';
const PERSON = 'Last name, First name, Email, User ID (the client’s own), Profession';
const PROGRESS =
  `One row per participant and season they are assigned to (name order; \`seasonName\` narrows to one season, ` +
  `an unknown one is 400 VALIDATION_ERROR), \`search\` matching name or email. Columns: ${PERSON}, Season, ` +
  'Rounds assigned, Start date; for each round of the season: progress (Complete, In progress, Not started, Not ' +
  'open yet, No cases, Not assigned), cases completed, cases assigned and average score; then Cases assigned, ' +
  'Cases completed, Overall progress (Complete, In progress, Not started), Average score (of completed cases) and ' +
  'Last activity. `filter` (JSON): `{"progress": "NOT_STARTED"|"IN_PROGRESS"|"COMPLETE", "round_number": 1-4}` ' +
  'keeps the rows whose progress (over the season’s cases, or over the round’s when `round_number` is given) ' +
  'is that, and with `round_number` only participants assigned to that round.';

export function registerReportsRoutes(app: FastifyInstance, service: ReportsService): void {
  const implement = contractRoutes(app);

  implement(
    reportRoutes.participantsProgress,
    {
      tags,
      summary: 'Report: each participant’s progress and score, round by round',
      description: `${PROGRESS} \`filter\` is optional here. ${FILE}`,
    },
    async (request, reply) =>
      sendTable(
        reply,
        await service.participantsProgress(caller(request), request.params.projectId, request.query),
        request.query.format,
      ),
  );

  implement(
    reportRoutes.participantsProgressSubset,
    {
      tags,
      summary: 'Report: the participants’ progress, narrowed by a filter',
      description: `${PROGRESS} \`filter\` is required and must name progress or round_number (400 VALIDATION_ERROR otherwise). ${FILE}`,
    },
    async (request, reply) =>
      sendTable(
        reply,
        await service.participantsProgressSubset(caller(request), request.params.projectId, request.query),
        request.query.format,
      ),
  );

  implement(
    reportRoutes.projectProgress,
    {
      tags,
      summary: 'Report: each case’s progress, round by round',
      description:
        'One row per case and season round (season order, round, case name): Season, Round, Round starts, Round ends, ' +
        'Case, Participants assigned, Started (incl. completed), Completed, Completion rate (%) (completed ÷ ' +
        'assigned) and Average score (of completed attempts). A published case placed in a round nobody is assigned ' +
        'to yet has a row of zeros. `filter` (JSON, optional): `{"season_name": "…", "round_number": 1-4}` (an ' +
        `unknown season is 400 VALIDATION_ERROR). ${FILE}`,
    },
    async (request, reply) =>
      sendTable(
        reply,
        await service.projectProgress(caller(request), request.params.projectId, request.query.filter),
        request.query.format,
      ),
  );

  implement(
    reportRoutes.itemAnalysis,
    {
      tags,
      summary: 'Report: the item analysis of a season’s cases (difficulty, discrimination, picks, flags)',
      description:
        'The rows of GET /statistics/{id}/item-analysis as a file, one per scored question and then one per choice ' +
        '(round, case, question order): Round, Case, Question, Question text, Choice, Marked as, Completed ' +
        'attempts, Chosen, Chosen (%), Full marks (%) (the question’s difficulty), Discrimination (point-biserial, ' +
        '−1 to 1), Change since the first round (points: of the full-marks or chosen share, where a copy of the ' +
        'same case was answered in an earlier round) and Flags. `seasonName` is required; one the project lacks is 404 NOT_FOUND. ' +
        FILE,
    },
    async (request, reply) =>
      sendTable(
        reply,
        await service.itemAnalysis(caller(request), request.params.projectId, request.query.seasonName),
        request.query.format,
      ),
  );

  implement(
    reportRoutes.certificates,
    {
      tags,
      summary: 'Report: the project’s CME certificates, for the accreditation body',
      description:
        'One row per certificate, in the order issued: Participant, Email, User ID, Profession (as recorded when ' +
        'issued), Course ID, Credits, MOC points, Cases required, Cases completed, Issued, Certificate code, Status ' +
        '(Valid or Revoked), Revoked and Revocation reason. `status` narrows to VALID or REVOKED. ' +
        FILE,
    },
    async (request, reply) =>
      sendTable(
        reply,
        await service.certificates(caller(request), request.params.projectId, request.query.status),
        request.query.format,
      ),
  );

  implement(
    reportRoutes.projectScore,
    {
      tags,
      summary: 'Report: each participant’s score in each case, with under- and over-use by question category',
      description:
        `One row per participant and assigned case (name order, then season, round and case; \`seasonName\` narrows ` +
        `to one season). Columns: ${PERSON}, Season, Round, Case, Status (Not started, Opened, In progress, ` +
        'Complete), Submitted, Score, Change from Round 1 (this score minus their average over completed Round 1 ' +
        'cases of the season, for later rounds), Necessary choices missed, Unnecessary choices chosen, and for each ' +
        'question category of the project: under-use (%) (necessary choices missed ÷ necessary choices in that ' +
        'category’s questions) and over-use (%) (unnecessary choices chosen ÷ unnecessary choices offered). Scores ' +
        `and use are of completed cases only, counted by the platform’s scoring rule. ${FILE}`,
    },
    async (request, reply) =>
      sendTable(
        reply,
        await service.projectScore(caller(request), request.params.projectId, request.query.seasonName),
        request.query.format,
      ),
  );

  implement(
    reportRoutes.projectSurveyResponse,
    {
      tags,
      summary: 'Report: answers to the project’s surveys of one type, a row per participant and survey',
      description:
        '`type`: START_NEW, START_RETURNING, REVIEW or END. Columns: Last name, First name, Email, User ID, Season, ' +
        'Round, Case (the UserSeasonRoundCase the survey was answered on), Survey (the template), Complete (No: left ' +
        'half-way, its answers so far), Answered (UTC), then one column per question of the templates of that type ' +
        'the project’s participants answered (prefixed with the template’s name when there are several). An answer ' +
        `is its choices' texts joined by "; ", "Other: …", "None of the below", or the text typed. ${FILE}`,
    },
    async (request, reply) =>
      sendTable(
        reply,
        await service.projectSurveyResponse(caller(request), request.params.projectId, request.params.type),
        request.query.format,
      ),
  );

  implement(
    reportRoutes.projectUsage,
    {
      tags,
      summary: 'Report: each participant’s sign-ins and activity',
      description:
        `One row per participant (name order). Columns: ${PERSON}, Seasons (those assigned), Sign-ins (password or ` +
        'dashboard link; a sign-in is not tied to a project), First sign-in, Last sign-in, Last seen (their latest ' +
        'session refresh), Cases assigned, Cases started, Cases completed, Last answer (in this project). ' +
        FILE,
    },
    async (request, reply) =>
      sendTable(reply, await service.projectUsage(caller(request), request.params.projectId), request.query.format),
  );

  implement(
    reportRoutes.projectEmails,
    {
      tags,
      summary: 'Report: the emails each participant was sent, by email',
      description:
        `One row per participant (name order). Columns: ${PERSON}, then one per email type (in the Emails ` +
        'screen’s order, a season’s variant counted with its type): how many of it the mail server took (SENT), ' +
        'then Not delivered (FAILED or SUPPRESSED, of every type) and Last sent. Test sends are left out. ' +
        FILE,
    },
    async (request, reply) =>
      sendTable(reply, await service.projectEmails(caller(request), request.params.projectId), request.query.format),
  );
}
