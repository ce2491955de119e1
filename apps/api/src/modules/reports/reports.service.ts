import type { reportRoutes } from '@pss/contract';
import type { Table } from '../../lib/table-writer.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { certificatesReport } from './certificates-report.js';
import { itemAnalysisReport } from './item-analysis-report.js';
import { participantsProgressReport } from './participants-progress-report.js';
import { projectProgressReport } from './project-progress-report.js';
import { projectScoreReport } from './project-score-report.js';
import { projectUsageReport } from './project-usage-report.js';
import { createReportContext, type ReportsDeps } from './report-context.js';
import { surveyResponsesReport } from './survey-responses-report.js';

/**
 * The project's downloadable reports. Each call checks the caller and its parameters first
 * (so a refusal answers a catalogue error, not a broken file), then answers a `Table` whose
 * rows are read a page of participants at a time, in name order by keyset, as the file is
 * written (`lib/table-writer.ts`). Every report leaves out test users (TESTUSER) and
 * archived participants. Columns are described in docs/design/reports.md.
 *
 * Each report is a module of its own (`*-report.ts`); what they share — the project and
 * season checks, the file name, the participants' pages — is `report-context.ts`. There is one
 * report for each route of the contract's `reportRoutes`, under the route's name: a route
 * declared without its report fails type-checking here.
 */
export function createReportsService(deps: ReportsDeps) {
  const context = createReportContext(deps);

  return {
    participantsProgress: participantsProgressReport(context, 'participants-progress', 'Participants progress'),
    participantsProgressSubset: participantsProgressReport(
      context,
      'participants-progress-subset',
      'Participants progress subset',
    ),
    ...projectProgressReport(context),
    ...projectScoreReport(context),
    ...surveyResponsesReport(context),
    ...projectUsageReport(context),
    ...itemAnalysisReport(context),
    ...certificatesReport(context),
  } satisfies Record<keyof typeof reportRoutes, (caller: AccessClaims, ...args: never[]) => Promise<Table>>;
}
export type ReportsService = ReturnType<typeof createReportsService>;
