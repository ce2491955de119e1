import { z } from 'zod';
import { caseSelection } from './cases.js';
import { listQuerySchema, pagedSchema } from './list-query.js';
import { catalogueEntry, catalogueNames } from './projects.js';
import { associatedProjectSortFields, moduleSortFields } from './sort-fields.js';
import { requiredText } from './text-fields.js';

/**
 * Module libraries: the provider's collections of reusable cases (origin MODULE_LIBRARY),
 * with their own disease types and question categories, copied into client projects.
 */

const moduleFields = {
  name: requiredText(200, 'INVALID_NAME'),
  description: z.string().max(5000).nullish(),
  disease_types: catalogueNames('PROJECT_DISEASE_TYPE_REQUIRED'),
  question_categories: catalogueNames('PROJECT_QUESTION_CATEGORY_REQUIRED'),
};
export const moduleBody = z.strictObject(moduleFields);
export type ModuleBody = z.input<typeof moduleBody>;

export const moduleLibrary = z.object({
  id: z.string().uuid(),
  name: z.string(),
  description: z.string().nullable(),
  disease_types: z.array(catalogueEntry),
  question_categories: z.array(catalogueEntry),
  case_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ModuleLibrary = z.infer<typeof moduleLibrary>;

export const moduleSummary = moduleLibrary.omit({ disease_types: true, question_categories: true });
export type ModuleSummary = z.infer<typeof moduleSummary>;
export const moduleSummaryPage = pagedSchema(moduleSummary);

export const moduleListQuery = listQuerySchema({
  sortable: moduleSortFields,
  defaultSort: [{ field: 'name', direction: 'ASC' }],
  filter: z.strictObject({}),
});
export type ModuleListQuery = z.output<typeof moduleListQuery>;

export const associatedProject = z.object({
  id: z.string().uuid(),
  name: z.string(),
  client_id: z.string().uuid(),
  client_name: z.string(),
  copied_cases: z.number().int(),
});
export const associatedProjectPage = pagedSchema(associatedProject);
export const associatedProjectQuery = listQuerySchema({
  sortable: associatedProjectSortFields,
  defaultSort: [{ field: 'name', direction: 'ASC' }],
  filter: z.strictObject({}),
});
export type AssociatedProjectQuery = z.output<typeof associatedProjectQuery>;

/** Copies chosen module cases into a project (all or nothing: each must fit the project). */
export const copyCasesToProjectBody = z.strictObject({
  project_id: z.string().uuid(),
  case_ids: z.array(z.string().uuid()).min(1).max(500),
});
/** Copies chosen module cases into another module. */
export const copyCasesToModuleBody = z.strictObject({
  module_id: z.string().uuid(),
  case_ids: z.array(z.string().uuid()).min(1).max(500),
});
export const copiedCases = z.object({ ids: z.array(z.string().uuid()) });

export const moveToModuleBody = z.strictObject({ module_id: z.string().uuid() });

export const removeModuleCasesQuery = z.object({
  /** A JSON case selection within the module: `{"ids":[…]}` or `{"all":true,"except":[…],"search":…}`. */
  filter: z
    .string()
    .max(40_000)
    .transform((raw, ctx) => {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'filter must be a JSON case selection' });
        return z.NEVER;
      }
      const parsed = caseSelection.safeParse(value);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: 'filter must be {"ids":[…]} or {"all":true,"except":[…]}' });
        return z.NEVER;
      }
      return parsed.data;
    }),
});
