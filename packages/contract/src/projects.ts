import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './list-query.js';
import { supportContactFields } from './clients.js';
import { DataStatus, ProjectStatus } from './enums.js';
import { catalogueSortFields, projectSortFields } from './sort-fields.js';
import { requiredText, requiredValue } from './text-fields.js';

export const ROUND_NUMBERS = [1, 2, 3, 4] as const;

const isoDate = requiredValue()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the date format YYYY-MM-DD')
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'Not a real date',
  );

export const roundInput = z.strictObject({
  number: z.number().int().min(1).max(4),
  start_date: isoDate,
  end_date: isoDate,
});

export const seasonInput = z.strictObject({
  /** Present when updating an existing season, so its rounds keep their ids. */
  id: z.string().uuid().optional(),
  name: requiredText(120),
  rounds: z.array(roundInput).min(1).max(4),
});
export type SeasonInput = z.infer<typeof seasonInput>;

/**
 * Rounds 1–4 of a season: numbered without gaps from 1, each ending on or after its start,
 * each starting after the previous one ends (no overlap, in order). Answers the problems
 * found, each with where it is.
 */
export function seasonProblems(seasons: SeasonInput[]): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const names = new Set<string>();
  seasons.forEach((season, s) => {
    const key = season.name.trim().toLowerCase();
    if (names.has(key)) problems.push({ path: [s, 'name'], message: 'Season names must be unique in a project' });
    names.add(key);
    const sorted = [...season.rounds].sort((a, b) => a.number - b.number);
    sorted.forEach((round, i) => {
      const r = season.rounds.indexOf(round);
      if (round.number !== i + 1) {
        problems.push({
          path: [s, 'rounds', r, 'number'],
          message: `Rounds are numbered 1 to 4 without gaps; expected Round ${i + 1}`,
        });
      }
      if (round.end_date < round.start_date) {
        problems.push({ path: [s, 'rounds', r, 'end_date'], message: `Round ${round.number} ends before it starts` });
      }
      const previous = sorted[i - 1];
      if (previous && round.start_date <= previous.end_date) {
        problems.push({
          path: [s, 'rounds', r, 'start_date'],
          message: `Round ${round.number} must start after Round ${previous.number} ends (${previous.end_date})`,
        });
      }
    });
  });
  return problems;
}

export const catalogueNames = (required: 'PROJECT_DISEASE_TYPE_REQUIRED' | 'PROJECT_QUESTION_CATEGORY_REQUIRED') =>
  z
    .array(requiredText(120))
    .max(100)
    // The same name in another case is one entry; the first spelling given is kept.
    .transform((names) => names.filter((n, i) => names.findIndex((m) => m.toLowerCase() === n.toLowerCase()) === i))
    .refine((names) => names.length > 0, required);

const projectFields = {
  name: requiredText(200, 'INVALID_NAME'),
  disease_types: catalogueNames('PROJECT_DISEASE_TYPE_REQUIRED'),
  question_categories: catalogueNames('PROJECT_QUESTION_CATEGORY_REQUIRED'),
  notes: z.string().max(10_000).nullish(),
  seasons: z.array(seasonInput).max(50).default([]),
  ...supportContactFields,
};

function withSeasonRules<T extends z.ZodType<{ seasons?: SeasonInput[] }>>(schema: T) {
  return schema.superRefine((value, ctx) => {
    for (const problem of seasonProblems(value.seasons ?? [])) {
      ctx.addIssue({ code: 'custom', path: ['seasons', ...problem.path], message: problem.message });
    }
  });
}

export const createProjectBody = withSeasonRules(
  z.strictObject({ client_id: z.string().uuid(), ...projectFields, status: ProjectStatus.default('ACTIVE') }),
);
export type CreateProjectBody = z.input<typeof createProjectBody>;

export const updateProjectBody = withSeasonRules(z.strictObject({ ...projectFields, status: ProjectStatus }));
export type UpdateProjectBody = z.input<typeof updateProjectBody>;

export const catalogueEntry = z.object({ id: z.string().uuid(), name: z.string() });
export type CatalogueEntry = z.infer<typeof catalogueEntry>;

export const round = z.object({
  id: z.string().uuid(),
  number: z.number().int(),
  start_date: z.string(),
  end_date: z.string(),
});
export const season = z.object({ id: z.string().uuid(), name: z.string(), rounds: z.array(round) });
export type Season = z.infer<typeof season>;

export const project = z.object({
  id: z.string().uuid(),
  client_id: z.string().uuid(),
  client_name: z.string(),
  name: z.string(),
  status: ProjectStatus,
  season_count: z.number().int(),
  data_status: DataStatus,
  participant_counts: z.object({ active: z.number().int(), archived: z.number().int(), not_ready: z.number().int() }),
  notes: z.string().nullable(),
  /** The project's own support contact (null: the client's, then the server's). */
  support_email: z.string().nullable(),
  support_phone: z.string().nullable(),
  disease_types: z.array(catalogueEntry),
  question_categories: z.array(catalogueEntry),
  seasons: z.array(season),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Project = z.infer<typeof project>;

/** A project in a list: without its seasons and catalogues. */
export const projectSummary = z.object({
  id: z.string().uuid(),
  client_id: z.string().uuid(),
  client_name: z.string(),
  name: z.string(),
  status: ProjectStatus,
  season_count: z.number().int(),
  /** READY when every active participant has an assignment, NOT_READY when some lack one, NO_USERS without any. */
  data_status: DataStatus,
  participant_counts: z.object({ active: z.number().int(), archived: z.number().int(), not_ready: z.number().int() }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ProjectSummary = z.infer<typeof projectSummary>;

export const projectListQuery = listQuerySchema({
  sortable: projectSortFields,
  defaultSort: [{ field: 'created_at', direction: 'DESC' }],
  filter: z.strictObject({ status: ProjectStatus.optional(), client_id: z.string().uuid().optional() }),
});
export type ProjectListQuery = z.output<typeof projectListQuery>;
export const projectPage = pagedSchema(projectSummary);

export const catalogueListQuery = listQuerySchema({
  sortable: catalogueSortFields,
  defaultSort: [{ field: 'name', direction: 'ASC' }],
  filter: z.strictObject({}),
});
export type CatalogueListQuery = z.output<typeof catalogueListQuery>;
export const cataloguePage = pagedSchema(catalogueEntry);

export const seasonsResponse = z.array(season);
