import { z } from 'zod';
import { ImportJobKind, ImportJobState } from './enums.js';

/** A background import, as uploads (202) and `GET …/import` answer it. */
export const importJob = z.object({
  id: z.string().uuid(),
  kind: ImportJobKind,
  state: ImportJobState,
  file_name: z.string().nullable(),
  total_rows: z.number().int(),
  processed_rows: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), errorCode: z.string(), message: z.string() })),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type ImportJob = z.infer<typeof importJob>;

/** Uploads larger than this are refused with PAYLOAD_TOO_LARGE; a file of the largest projects fits well within it. */
export const MAX_IMPORT_FILE_BYTES = 50 * 1024 * 1024;
