import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './list-query.js';
import { cmeSortFields } from './sort-fields.js';

const cmeFields = {
  /** Completed cases a participant needs for the credit. */
  min_cases: z.number().int().min(0).max(1000),
  credits: z.number().min(0).max(1000).multipleOf(0.25),
  /** Whether the activity also counts for Maintenance of Certification. */
  moc: z.boolean(),
  totera_course_id: z.string().trim().max(100).nullish(),
  custom: z.string().max(5000).nullish(),
};

export const createCmeBody = z.strictObject({ project_id: z.string().uuid(), ...cmeFields });
export type CreateCmeBody = z.input<typeof createCmeBody>;
export const updateCmeBody = z.strictObject(cmeFields);
export type UpdateCmeBody = z.input<typeof updateCmeBody>;

export const cme = z.object({
  id: z.string().uuid(),
  project_id: z.string().uuid(),
  min_cases: z.number().int(),
  credits: z.number(),
  moc: z.boolean(),
  totera_course_id: z.string().nullable(),
  custom: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Cme = z.infer<typeof cme>;

export const cmeListQuery = listQuerySchema({
  sortable: cmeSortFields,
  defaultSort: [{ field: 'min_cases', direction: 'ASC' }],
  filter: z.strictObject({ moc: z.boolean().optional() }),
});
export type CmeListQuery = z.output<typeof cmeListQuery>;
export const cmePage = pagedSchema(cme);
