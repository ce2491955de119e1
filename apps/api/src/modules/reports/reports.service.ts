import type { z } from 'zod';
import type { ParticipantsProgressFilter, Project, ProjectProgressFilter, SurveyTemplateType } from '@pss/contract';
import { dayIn, type Clock } from '../../lib/clock.js';
import { validationError } from '../../lib/errors.js';
import type { Cell, Column, Table } from '../../lib/table-writer.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { SurveysService } from '../surveys/surveys.service.js';
import {
  answerBreakdown,
  averageScore,
  completedScores,
  groupBy,
  lastActivity,
  percent,
  progressLabels,
  progressOf,
  roundProgressLabel,
  roundsText,
  statusLabels,
  surveyAnswerText,
} from './report-rows.js';
import { questionsOf } from '../surveys/surveys.service.js';
import type { AttemptRow, PageAfter, PageRequirement, PersonRow, ReportsRepository } from './reports.repository.js';

/**
 * The project's downloadable reports. Each call checks the caller and its parameters first
 * (so a refusal answers a catalogue error, not a broken file), then answers a `Table` whose
 * rows are read a page of participants at a time, in name order by keyset, as the file is
 * written (`lib/table-writer.ts`). Every report leaves out test users (TESTUSER) and
 * archived participants. Columns are described in docs/ARCHITECTURE.md ("Reports").
 */

/**
 * Participants read per page. A page is what the server holds while it writes it, and
 * small pages are what keep memory flat: a page that outlives a few young-generation
 * collections is promoted to the old generation, which V8 lets grow by 150 MB of garbage
 * before collecting it. The score report reads each participant's answers too (about 50
 * rows each), so its pages are smaller still. Measured in docs/benchmarks.md (reports
 * over 1,000,000 answers): 100 and 25 keep growth under 20 MB and are faster than 500/100.
 */
const PAGE = 100;
const SCORE_PAGE = 25;

const personColumns: Column[] = [
  { header: 'Last name', width: 18 },
  { header: 'First name', width: 16 },
  { header: 'Email', width: 30 },
  { header: 'User ID', width: 12 },
  { header: 'Profession', width: 11 },
];
const personCells = (p: PersonRow): Cell[] => [p.lastName, p.firstName, p.email, p.employeeId, p.profession];

type SurveyType = z.infer<typeof SurveyTemplateType>;
const surveyNames: Record<SurveyType, string> = {
  START_NEW: 'start-new',
  START_RETURNING: 'start-returning',
  REVIEW: 'review',
  END: 'end',
};

export function createReportsService(deps: {
  reports: ReportsRepository;
  projects: Pick<ProjectsService, 'get'>;
  surveys: Pick<SurveysService, 'answeredTemplates' | 'responsesOf'>;
  clock: Clock;
  timeZone: string;
}) {
  const { reports } = deps;
  const today = () => dayIn(deps.timeZone, deps.clock.now());

  /** The project, checked for the caller (another client's is PROJECT_NOT_FOUND). */
  const projectFor = (caller: AccessClaims, projectId: string) => deps.projects.get(caller, projectId);

  /** The season a name names (regardless of case), or a VALIDATION_ERROR on the parameter that gave it. */
  function seasonNamed(project: Project, name: string | undefined, field: string) {
    if (name === undefined) return null;
    const season = project.seasons.find((s) => s.name.toLowerCase() === name.toLowerCase());
    if (!season) throw validationError([{ field, message: `The project has no season "${name}".` }]);
    return season;
  }

  /** `Project name[ - Season]-kind-YYYY-MM-DD` (made safe by the table writer). */
  const fileName = (project: Project, kind: string, season?: { name: string } | null) =>
    [project.name, season?.name, kind, today()].filter(Boolean).join('-');

  /** The clinicians taking part, a page at a time, with what the page needs read for it. */
  async function* pagesOf<T>(
    projectId: string,
    options: { search?: string | undefined; requirement: PageRequirement; limit: number },
    read: (people: PersonRow[]) => Promise<T>,
  ): AsyncGenerator<{ people: PersonRow[]; data: T }> {
    const search = options.search
      ? { text: options.search, indexed: await reports.searchIndexed(projectId) }
      : undefined;
    let after: PageAfter | null = null;
    for (;;) {
      const people = await reports.participantPage(projectId, { ...options, search, after });
      if (!people.length) return;
      yield { people, data: await read(people) };
      if (people.length < options.limit) return;
      const last = people.at(-1)!;
      after = { sortName: last.sortName, userId: last.userId };
    }
  }

  function participantsProgress(
    kind: 'participants-progress' | 'participants-progress-subset',
    title: string,
  ): (
    caller: AccessClaims,
    projectId: string,
    query: { seasonName?: string | undefined; filter?: ParticipantsProgressFilter | undefined; search?: string },
  ) => Promise<Table> {
    return async (caller, projectId, query) => {
      const project = await projectFor(caller, projectId);
      const season = seasonNamed(project, query.seasonName, 'querystring.seasonName');
      const filter = query.filter ?? {};
      await reports.syncAttempts(projectId);
      const seasons = season ? [season] : project.seasons;
      const seasonById = new Map(seasons.map((s, position) => [s.id, { ...s, position }]));
      const roundCount = Math.max(1, ...seasons.map((s) => s.rounds.length));
      const roundNumbers = Array.from({ length: roundCount }, (_, i) => i + 1);
      const day = today();
      const columns: Column[] = [
        ...personColumns,
        { header: 'Season', width: 16 },
        { header: 'Rounds assigned' },
        { header: 'Start date', kind: 'date', width: 11 },
        ...roundNumbers.flatMap((n): Column[] => [
          { header: `Round ${n} progress`, width: 16 },
          { header: `Round ${n} cases completed`, kind: 'number' },
          { header: `Round ${n} cases assigned`, kind: 'number' },
          { header: `Round ${n} average score`, kind: 'number' },
        ]),
        { header: 'Cases assigned', kind: 'number' },
        { header: 'Cases completed', kind: 'number' },
        { header: 'Overall progress', width: 16 },
        { header: 'Average score', kind: 'number' },
        { header: 'Last activity (UTC)', kind: 'datetime', width: 20 },
      ];
      const seasonId = season?.id ?? null;
      async function* rows(): AsyncGenerator<Cell[][]> {
        const pages = pagesOf(
          projectId,
          { search: query.search, requirement: { assignedIn: seasonId }, limit: PAGE },
          async (people) => {
            const ids = people.map((p) => p.userId);
            const [assignments, attempts] = await Promise.all([
              reports.assignmentsOf(projectId, ids, seasonId),
              reports.attemptsOf(projectId, ids, seasonId),
            ]);
            return { assignments: groupBy(assignments, (a) => a.userId), attempts: groupBy(attempts, (a) => a.userId) };
          },
        );
        for await (const { people, data } of pages) {
          const page: Cell[][] = [];
          for (const person of people) {
            const assignments = (data.assignments.get(person.userId) ?? [])
              .filter((a) => seasonById.has(a.seasonId))
              .sort((a, b) => seasonById.get(a.seasonId)!.position - seasonById.get(b.seasonId)!.position);
            const theirs = data.attempts.get(person.userId) ?? [];
            for (const assignment of assignments) {
              const s = seasonById.get(assignment.seasonId)!;
              const inSeason = theirs.filter((a) => a.seasonId === s.id);
              const assignedTo = (n: number) => n >= assignment.firstRound && n <= assignment.lastRound;
              if (filter.round_number !== undefined && !assignedTo(filter.round_number)) continue;
              const judged = filter.round_number
                ? inSeason.filter((a) => a.roundNumber === filter.round_number)
                : inSeason;
              if (filter.progress && progressOf(judged) !== filter.progress) continue;
              const perRound = roundNumbers.flatMap((n): Cell[] => {
                if (!s.rounds.some((r) => r.number === n)) return [null, null, null, null];
                if (!assignedTo(n)) return [roundProgressLabel(false, [], day), null, null, null];
                const inRound = inSeason.filter((a) => a.roundNumber === n);
                return [
                  roundProgressLabel(true, inRound, day),
                  inRound.filter((a) => a.status === 'COMPLETE').length,
                  inRound.length,
                  averageScore(completedScores(inRound)),
                ];
              });
              page.push([
                ...personCells(person),
                s.name,
                roundsText(assignment.firstRound, assignment.lastRound),
                assignment.startDate,
                ...perRound,
                inSeason.length,
                inSeason.filter((a) => a.status === 'COMPLETE').length,
                progressLabels[progressOf(inSeason)],
                averageScore(completedScores(inSeason)),
                lastActivity(inSeason),
              ]);
            }
          }
          yield page;
        }
      }
      return { title, fileName: fileName(project, kind, season), columns, rows: rows() };
    };
  }

  return {
    participantsProgress: participantsProgress('participants-progress', 'Participants progress'),
    participantsProgressSubset: participantsProgress('participants-progress-subset', 'Participants progress subset'),

    /** Per case and season round: assigned, started, completed, completion rate and average score. */
    async projectProgress(
      caller: AccessClaims,
      projectId: string,
      filter: ProjectProgressFilter | undefined,
    ): Promise<Table> {
      const project = await projectFor(caller, projectId);
      const season = seasonNamed(project, filter?.season_name, 'querystring.filter.season_name');
      await reports.syncAttempts(projectId);
      const seasons = new Map(project.seasons.map((s) => [s.id, s]));
      const columns: Column[] = [
        { header: 'Season', width: 16 },
        { header: 'Round', kind: 'number' },
        { header: 'Round starts', kind: 'date', width: 12 },
        { header: 'Round ends', kind: 'date', width: 12 },
        { header: 'Case', width: 30 },
        { header: 'Participants assigned', kind: 'number' },
        { header: 'Started (incl. completed)', kind: 'number' },
        { header: 'Completed', kind: 'number' },
        { header: 'Completion rate (%)', kind: 'number' },
        { header: 'Average score', kind: 'number' },
      ];
      async function* rows(): AsyncGenerator<Cell[][]> {
        const counted = await reports.caseProgress(projectId, {
          seasonId: season?.id ?? null,
          round: filter?.round_number ?? null,
        });
        yield counted.map((c) => {
          const s = seasons.get(c.seasonId);
          const round = s?.rounds.find((r) => r.number === c.roundNumber);
          return [
            s?.name ?? null,
            c.roundNumber,
            round?.start_date ?? null,
            round?.end_date ?? null,
            c.caseName,
            c.assigned,
            c.started,
            c.completed,
            percent(c.completed, c.assigned),
            c.averageScore === null ? null : Math.round(c.averageScore * 10) / 10,
          ];
        });
      }
      return {
        title: 'Project progress',
        fileName: fileName(project, 'project-progress', season),
        columns,
        rows: rows(),
      };
    },

    /**
     * Per participant and case: status, score, the change from their Round 1 average, and
     * under-use (necessary choices missed) and over-use (unnecessary choices chosen) in
     * total and per question category, from their answers by the one scoring rule.
     */
    async projectScore(caller: AccessClaims, projectId: string, seasonName: string | undefined): Promise<Table> {
      const project = await projectFor(caller, projectId);
      const season = seasonNamed(project, seasonName, 'querystring.seasonName');
      await reports.syncAttempts(projectId);
      const caseRows = await reports.casesOf(projectId);
      const caseById = new Map(caseRows.map((c) => [c.id, c]));
      const seasonById = new Map(project.seasons.map((s, position) => [s.id, { ...s, position }]));
      // The project's question categories, and any other its cases' questions name.
      const categories = new Map(project.question_categories.map((c) => [c.id, c.name]));
      const unnamed = caseRows
        .flatMap((c) => c.body.questions.map((q) => q.category_id))
        .filter((id): id is string => !!id && !categories.has(id));
      for (const id of new Set(unnamed)) categories.set(id, 'Other category');
      const categoryList = [...categories].sort((a, b) => a[1].localeCompare(b[1]));
      const columns: Column[] = [
        ...personColumns,
        { header: 'Season', width: 16 },
        { header: 'Round', kind: 'number' },
        { header: 'Case', width: 30 },
        { header: 'Status', width: 12 },
        { header: 'Submitted (UTC)', kind: 'datetime', width: 20 },
        { header: 'Score', kind: 'number' },
        { header: 'Change from Round 1', kind: 'number' },
        { header: 'Necessary choices missed', kind: 'number' },
        { header: 'Unnecessary choices chosen', kind: 'number' },
        ...categoryList.flatMap(([, name]): Column[] => [
          { header: `${name}: under-use (%)`, kind: 'number' },
          { header: `${name}: over-use (%)`, kind: 'number' },
        ]),
      ];
      const seasonId = season?.id ?? null;
      const order = (a: AttemptRow, b: AttemptRow) =>
        (seasonById.get(a.seasonId)?.position ?? 0) - (seasonById.get(b.seasonId)?.position ?? 0) ||
        a.roundNumber - b.roundNumber ||
        (caseById.get(a.caseId)?.name ?? '').localeCompare(caseById.get(b.caseId)?.name ?? '') ||
        a.caseId.localeCompare(b.caseId);
      async function* rows(): AsyncGenerator<Cell[][]> {
        const pages = pagesOf(
          projectId,
          { requirement: { attemptsIn: seasonId }, limit: SCORE_PAGE },
          async (people) => {
            const attempts = await reports.attemptsOf(
              projectId,
              people.map((p) => p.userId),
              seasonId,
            );
            const complete = attempts.filter((a) => a.status === 'COMPLETE').map((a) => a.id);
            const answers = await reports.answersOf(complete);
            return { attempts: groupBy(attempts, (a) => a.userId), answers: groupBy(answers, (a) => a.attemptId) };
          },
        );
        for await (const { people, data } of pages) {
          const page: Cell[][] = [];
          for (const person of people) {
            const theirs = (data.attempts.get(person.userId) ?? []).sort(order);
            // Their Round 1 average in each season, which later rounds are compared with.
            const roundOne = new Map(
              [...groupBy(theirs, (a) => a.seasonId)].map(([id, inSeason]) => [
                id,
                averageScore(completedScores(inSeason.filter((a) => a.roundNumber === 1))),
              ]),
            );
            for (const attempt of theirs) {
              const doc = caseById.get(attempt.caseId);
              const complete = attempt.status === 'COMPLETE';
              const breakdown = complete && doc ? answerBreakdown(doc.body, data.answers.get(attempt.id) ?? []) : null;
              const base = roundOne.get(attempt.seasonId);
              const change =
                complete && attempt.roundNumber > 1 && attempt.score !== null && base !== null && base !== undefined
                  ? Math.round((attempt.score - base) * 10) / 10
                  : null;
              page.push([
                ...personCells(person),
                seasonById.get(attempt.seasonId)?.name ?? null,
                attempt.roundNumber,
                doc?.name ?? null,
                statusLabels[attempt.status],
                complete ? attempt.submittedAt : null,
                complete ? attempt.score : null,
                change,
                breakdown?.necessaryMissed ?? null,
                breakdown?.unnecessaryChosen ?? null,
                ...categoryList.flatMap(([id]): Cell[] => {
                  const use = breakdown?.byCategory.get(id);
                  return use
                    ? [
                        percent(use.necessaryMissed, use.necessaryAvailable),
                        percent(use.unnecessaryChosen, use.unnecessaryAvailable),
                      ]
                    : [null, null];
                }),
              ]);
            }
          }
          yield page;
        }
      }
      return { title: 'Project score', fileName: fileName(project, 'project-score', season), columns, rows: rows() };
    },

    /**
     * Answers to the project's surveys of one type: a row per participant and survey answered
     * (on one UserSeasonRoundCase), a column per question of the templates of that type its
     * participants answered (named after the template too when there are several). An
     * answer is its choices' texts, "Other: …", "None of the below", or the text typed.
     */
    async projectSurveyResponse(caller: AccessClaims, projectId: string, type: SurveyType): Promise<Table> {
      const project = await projectFor(caller, projectId);
      const templates = await deps.surveys.answeredTemplates(projectId, type);
      const seasonById = new Map(project.seasons.map((s) => [s.id, s.name]));
      const questions = templates.flatMap((t) =>
        questionsOf(t.pages).map((q) => ({ templateId: t.id, templateName: t.name, question: q })),
      );
      const templateName = new Map(templates.map((t) => [t.id, t.name]));
      const columns: Column[] = [
        ...personColumns.slice(0, 4),
        { header: 'Season', width: 16 },
        { header: 'Round', kind: 'number' },
        { header: 'Case', width: 30 },
        { header: 'Survey', width: 20 },
        { header: 'Complete', width: 10 },
        { header: 'Answered (UTC)', kind: 'datetime', width: 20 },
        ...questions.map((q): Column => ({
          header: templates.length > 1 ? `${q.templateName}: ${q.question.text}` : q.question.text,
          width: 30,
        })),
      ];
      async function* rows(): AsyncGenerator<Cell[][]> {
        if (!templates.length) return;
        const pages = pagesOf(projectId, { requirement: null, limit: PAGE }, async (people) =>
          groupBy(
            await deps.surveys.responsesOf(
              projectId,
              type,
              people.map((p) => p.userId),
            ),
            (r) => r.userId,
          ),
        );
        for await (const { people, data } of pages) {
          const page: Cell[][] = [];
          for (const person of people) {
            for (const response of data.get(person.userId) ?? []) {
              const given = new Map(response.answers.map((a) => [a.component_id, a]));
              page.push([
                ...personCells(person).slice(0, 4),
                seasonById.get(response.seasonId) ?? null,
                response.roundNumber,
                response.caseName,
                templateName.get(response.templateId) ?? null,
                response.completedAt ? 'Yes' : 'No',
                response.completedAt ?? response.updatedAt,
                ...questions.map((q) =>
                  q.templateId === response.templateId ? surveyAnswerText(q.question, given.get(q.question.id)) : null,
                ),
              ]);
            }
          }
          yield page;
        }
      }
      return {
        title: 'Survey responses',
        fileName: fileName(project, `survey-responses-${surveyNames[type]}`),
        columns,
        rows: rows(),
      };
    },

    /** Per participant: seasons, sign-ins, when last seen, and their cases begun and completed. */
    async projectUsage(caller: AccessClaims, projectId: string): Promise<Table> {
      const project = await projectFor(caller, projectId);
      await reports.syncAttempts(projectId);
      const seasonById = new Map(project.seasons.map((s, position) => [s.id, { ...s, position }]));
      const columns: Column[] = [
        ...personColumns,
        { header: 'Seasons', width: 24 },
        { header: 'Sign-ins', kind: 'number' },
        { header: 'First sign-in (UTC)', kind: 'datetime', width: 20 },
        { header: 'Last sign-in (UTC)', kind: 'datetime', width: 20 },
        { header: 'Last seen (UTC)', kind: 'datetime', width: 20 },
        { header: 'Cases assigned', kind: 'number' },
        { header: 'Cases started', kind: 'number' },
        { header: 'Cases completed', kind: 'number' },
        { header: 'Last answer (UTC)', kind: 'datetime', width: 20 },
      ];
      async function* rows(): AsyncGenerator<Cell[][]> {
        const pages = pagesOf(projectId, { requirement: null, limit: PAGE }, async (people) => {
          const ids = people.map((p) => p.userId);
          const [assignments, attempts, usage] = await Promise.all([
            reports.assignmentsOf(projectId, ids, null),
            reports.attemptsOf(projectId, ids, null),
            reports.usageOf(projectId, ids),
          ]);
          return {
            assignments: groupBy(assignments, (a) => a.userId),
            attempts: groupBy(attempts, (a) => a.userId),
            usage: new Map(usage.map((u) => [u.userId, u])),
          };
        });
        for await (const { people, data } of pages) {
          yield people.map((person) => {
            const seasons = (data.assignments.get(person.userId) ?? [])
              .map((a) => seasonById.get(a.seasonId))
              .filter((s) => s !== undefined)
              .sort((a, b) => a.position - b.position)
              .map((s) => s.name);
            const attempts = data.attempts.get(person.userId) ?? [];
            const usage = data.usage.get(person.userId);
            return [
              ...personCells(person),
              seasons.join('; '),
              usage?.signIns ?? 0,
              usage?.firstSignIn ?? null,
              usage?.lastSignIn ?? null,
              usage?.lastSeen ?? null,
              attempts.length,
              attempts.filter((a) => a.status !== 'NOT_STARTED').length,
              attempts.filter((a) => a.status === 'COMPLETE').length,
              usage?.lastAnswer ?? null,
            ];
          });
        }
      }
      return { title: 'Project usage', fileName: fileName(project, 'project-usage'), columns, rows: rows() };
    },
  };
}
export type ReportsService = ReturnType<typeof createReportsService>;
