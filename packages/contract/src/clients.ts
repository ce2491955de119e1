import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './list-query.js';

export const client = z.object({
  id: z.string().uuid(),
  name: z.string(),
  cap_id: z.string().nullable(),
  cap_status: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Client = z.infer<typeof client>;

export const clientSortFields = ['name', 'cap_id', 'cap_status', 'updated_at', 'created_at'] as const;

export const clientListQuery = listQuerySchema({
  sortable: clientSortFields,
  defaultSort: [{ field: 'created_at', direction: 'DESC' }],
  filter: z.strictObject({}),
});

export const clientPage = pagedSchema(client);

export const idParams = z.object({ id: z.string().uuid() });
export type ClientListQuery = z.output<typeof clientListQuery>;
