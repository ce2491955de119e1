import type { Project } from '@pss/contract';
import { dayIn, type Clock } from '../../lib/clock.js';
import { validationError } from '../../lib/errors.js';
import type { Cell, Column } from '../../lib/table-writer.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { CertificatesService } from '../certificates/certificates.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { StatisticsService } from '../statistics/statistics.service.js';
import type { SurveysService } from '../surveys/surveys.service.js';
import type { PageAfter, PageRequirement, PersonRow, ReportsRepository } from './reports.repository.js';

/**
 * Participants read per page. A page is what the server holds while it writes it, and
 * small pages are what keep memory flat: a page that outlives a few young-generation
 * collections is promoted to the old generation, which V8 lets grow by a great deal of
 * garbage before collecting it. The score report reads each participant's answers too
 * (dozens of rows each), so its pages are smaller still. These sizes are the ones measured
 * (docs/benchmarks.md, reports) to keep memory growth small while being faster than larger
 * pages.
 */
export const PAGE = 100;
export const SCORE_PAGE = 25;

export const personColumns: Column[] = [
  { header: 'Last name', width: 18 },
  { header: 'First name', width: 16 },
  { header: 'Email', width: 30 },
  { header: 'User ID', width: 12 },
  { header: 'Profession', width: 11 },
];
export const personCells = (p: PersonRow): Cell[] => [p.lastName, p.firstName, p.email, p.employeeId, p.profession];

/** What the reports service is built from. */
export interface ReportsDeps {
  reports: ReportsRepository;
  projects: Pick<ProjectsService, 'get'>;
  surveys: Pick<SurveysService, 'answeredTemplates' | 'responsesOf'>;
  statistics: Pick<StatisticsService, 'itemAnalysis'>;
  certificates: Pick<CertificatesService, 'reportPages'>;
  clock: Clock;
  timeZone: string;
}

/**
 * What every report shares: the project checked for the caller, a season named in the
 * parameters, the file's name, and the participants a page at a time.
 */
export function createReportContext(deps: ReportsDeps) {
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

  return { deps, reports, today, projectFor, seasonNamed, fileName, pagesOf };
}

export type ReportContext = ReturnType<typeof createReportContext>;
