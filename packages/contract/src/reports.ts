import { z } from 'zod';
import { certificateStatuses } from './certificates.js';
import { SurveyTemplateType } from './enums.js';
import { requiredText } from './text-fields.js';

/**
 * Downloadable reports of a project (`/reports/{projectId}/…`): CSV by default, XLSX with
 * `format=xlsx`, sent as attachments. Their columns are described in the OpenAPI document
 * and in docs/design/reports.md; test users and archived participants are left
 * out of every one. The reports are the routes of `reportRoutes` (./routes/reports.ts), one
 * each; their queries are here.
 */
export const reportFormats = ['csv', 'xlsx'] as const;
export const ReportFormat = z.enum(reportFormats);
export type ReportFormat = z.infer<typeof ReportFormat>;

/** The content type of each format (the CSV is UTF-8 with a byte order mark). */
export const reportContentTypes: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const format = ReportFormat.default('csv');
const seasonName = requiredText(120);
const search = z.string().trim().max(200).optional();

/** A `filter` query parameter: a JSON object checked against the report's filter schema. */
function jsonFilter<S extends z.ZodType<Record<string, unknown>>>(schema: S, describe: string) {
  return z
    .string()
    .max(2000)
    .transform((raw, ctx): z.output<S> => {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: `filter must be a JSON object: ${describe}` });
        return z.NEVER;
      }
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: 'custom', path: issue.path.map(String), message: issue.message });
      }
      return z.NEVER;
    });
}

const roundNumber = z.number().int().min(1).max(4);

/**
 * Which rows of the participants' progress: `progress` over the row's cases (or the cases
 * of `round_number`'s round when it is given) — NOT_STARTED: none begun; IN_PROGRESS: some
 * begun, not all complete; COMPLETE: every case complete — and `round_number`: only
 * participants assigned to that round.
 */
export const participantsProgressFilter = z.strictObject({
  progress: z.enum(['NOT_STARTED', 'IN_PROGRESS', 'COMPLETE']).optional(),
  round_number: roundNumber.optional(),
});
export type ParticipantsProgressFilter = z.infer<typeof participantsProgressFilter>;
const progressFilterText = '{"progress": "NOT_STARTED"|"IN_PROGRESS"|"COMPLETE", "round_number": 1-4}';

/** `GET /reports/{projectId}/participants-progress`: the whole report; the filter is optional. */
export const participantsProgressQuery = z.object({
  seasonName: seasonName.optional(),
  filter: jsonFilter(participantsProgressFilter, progressFilterText).optional(),
  search,
  format,
});

/** `GET /reports/{projectId}/participants-progress-subset`: the same rows narrowed by a filter that names something. */
export const participantsProgressSubsetQuery = z.object({
  seasonName: seasonName.optional(),
  filter: jsonFilter(
    participantsProgressFilter.refine((f) => f.progress !== undefined || f.round_number !== undefined, {
      message: 'A subset needs a filter naming progress or round_number.',
    }),
    progressFilterText,
  ),
  search,
  format,
});

/** Which rows of the project's progress: one season (by name) and one round. */
export const projectProgressFilter = z.strictObject({
  season_name: seasonName.optional(),
  round_number: roundNumber.optional(),
});
export type ProjectProgressFilter = z.infer<typeof projectProgressFilter>;

export const projectProgressQuery = z.object({
  filter: jsonFilter(projectProgressFilter, '{"season_name": "…", "round_number": 1-4}').optional(),
  format,
});

export const projectScoreQuery = z.object({ seasonName: seasonName.optional(), format });
/** The item analysis of a season's cases (issue #37): the season is required. */
export const itemAnalysisReportQuery = z.object({ seasonName, format });

export const reportFormatQuery = z.object({ format });

/** The accreditation report of a project's CME certificates: all, or the valid or revoked only. */
export const certificatesReportQuery = z.object({ status: z.enum(certificateStatuses).optional(), format });

export const reportParams = z.object({ projectId: z.string().uuid() });
export const surveyResponseParams = z.object({ projectId: z.string().uuid(), type: SurveyTemplateType });
