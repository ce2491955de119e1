import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  allParticipantsSelection,
  archiveResult,
  idParams,
  importJob,
  participantFilter,
  participantIdsParams,
  participantListQuery,
  participantNotesBody,
  participantPage,
} from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import { validationError } from '../../lib/errors.js';
import type { FileStorage } from '../../lib/storage.js';
import { receiveUpload, withUpload } from '../../lib/uploads.js';
import { PARTICIPANT_EXAMPLE_CSV, type ParticipantsService } from './participants.service.js';

const exportQuery = z.object({
  search: z.string().trim().max(200).optional(),
  filter: z
    .string()
    .max(2000)
    .optional()
    .transform((raw, ctx) => {
      if (!raw) return {};
      try {
        const parsed = participantFilter.safeParse(JSON.parse(raw));
        if (parsed.success) return parsed.data;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: 'filter must be a JSON object with archived and data_status' });
      return z.NEVER;
    }),
});

const importTypeQuery = z.object({
  type: z.enum(['PARTICIPANTS', 'ANSWER_TAGS', 'SUMMARY']).default('PARTICIPANTS'),
});

export function registerParticipantsRoutes(
  app: FastifyInstance,
  service: ParticipantsService,
  storage: FileStorage,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/projects/:id/upload',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Participants'],
        summary: 'Import participants into a project (CSV, multipart field `file`)',
        description:
          'Answers 202 with the job; `GET /projects/{id}/import` follows it. Columns: user_id, salutation, first_name, ' +
          'last_name, email, role (USER, HALFUSER, TESTUSER), profession (MD, DO, AS, MSW); optional contact and ' +
          'manager columns; assignment columns season, rounds (1-4, 2-3 or 2) and start_date (YYYY-MM-DD, inside the ' +
          'season). All or nothing: any rejected row leaves everything as it was and is listed with its line (the first ' +
          '500, then a count). An import may not change a participant’s name, email, profession or user_id; their other ' +
          'details and their assignments follow the file (every row of one clinician must give the same details). An ' +
          'apostrophe before =, +, - or @ (the export’s guard) is not part of the value. See `GET /users/import/example`.',
        consumes: ['multipart/form-data'],
        params: idParams,
        response: { 202: importJob },
      },
    },
    async (request, reply) => {
      const upload = await receiveUpload(request, storage);
      const job = await withUpload(storage, upload, () => service.upload(caller(request), request.params.id, upload));
      return reply.status(202).send(job);
    },
  );

  r.get(
    '/projects/:id/import',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Participants'],
        summary: 'The latest import into a project (its state, counts and rejected rows)',
        description:
          '`type`: PARTICIPANTS (the default), ANSWER_TAGS or SUMMARY (key takeaways), the imports of a project.',
        params: idParams,
        querystring: importTypeQuery,
        response: { 200: importJob.nullable() },
      },
    },
    async (request) => service.latestImport(caller(request), request.params.id, request.query.type),
  );

  r.get(
    '/projects/:id/users',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Participants'],
        summary: 'A project’s participants',
        description:
          'Paged, searched (name, email) and sorted in SQL. Sortable: name (last, first), email, added_at. Filter: ' +
          '`{"archived": true|false (default false), "data_status": "READY"|"NOT_READY"}`.',
        params: idParams,
        querystring: participantListQuery,
        response: { 200: participantPage },
      },
    },
    async (request) => service.list(caller(request), request.params.id, request.query),
  );

  r.get(
    '/projects/:id/usersId',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Participants'],
        summary: 'The ids of every participant matching a search and filter (for select-all)',
        params: idParams,
        querystring: exportQuery,
        response: { 200: z.array(z.string().uuid()) },
      },
    },
    async (request) => service.ids(caller(request), request.params.id, request.query.search, request.query.filter),
  );

  r.get(
    '/projects/:id/export',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Participants'],
        summary: 'A project’s participants as CSV',
        description:
          'The import’s file: its columns under its names (one row per season assignment; a participant without one has ' +
          'an empty season), then data_status, archived, notes and added_at, which an import ignores. Exported, edited ' +
          'and imported again, it changes what was edited. UTF-8 with BOM; cells starting with =, +, - or @ get an ' +
          'apostrophe so a spreadsheet shows them as text (the import takes it off again).',
        params: idParams,
        querystring: exportQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const rows = service.exportCsv(caller(request), request.params.id, request.query.search, request.query.filter);
      // Start the generator so that a refused call answers its error, not a broken file.
      const first = await rows.next();
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="participants-${request.params.id}.csv"`);
      async function* all() {
        if (!first.done) yield first.value;
        yield* rows;
      }
      const { Readable } = await import('node:stream');
      return reply.send(Readable.from(all()));
    },
  );

  for (const [action, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    r.put(
      `/users/:usersIds/:projectId/${action}`,
      {
        config: { access: 'admin' },
        schema: {
          tags: ['Participants'],
          summary: action === 'archive' ? 'Archive participants of a project' : 'Unarchive participants of a project',
          description:
            '`usersIds` is a comma-separated list, or `all` with a body `{ except, search, filter }` (select-all with ' +
            `unselected exceptions). Refused with ${archived ? 'USER_ARCHIVE_BLOCKED_BY_IMPORT' : 'USER_UNARCHIVE_BLOCKED_BY_IMPORT'} while an import into the project runs.`,
          params: participantIdsParams,
          body: allParticipantsSelection.nullish(),
          response: { 200: archiveResult },
        },
      },
      async (request) => {
        if (request.params.usersIds === 'all' && !request.body) {
          throw validationError([{ field: 'body', message: 'Selecting all needs a body { except, search, filter }.' }]);
        }
        return service.setArchived(
          caller(request),
          request.params.usersIds,
          request.params.projectId,
          archived,
          request.body ?? undefined,
        );
      },
    );
  }

  r.put(
    '/users/:userId/:projectId/notes',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Participants'],
        summary: 'A participant’s notes in one project',
        params: z.object({ userId: z.string().uuid(), projectId: z.string().uuid() }),
        body: participantNotesBody,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.setNotes(caller(request), request.params.userId, request.params.projectId, request.body.notes);
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/users/upload',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Participants'],
        summary: 'Import new users of a client, in no project yet (CSV, multipart field `file`)',
        description:
          'The participant file without assignment columns (a season is refused: assign in a project’s import). ' +
          'A superadmin says which client with `client_id`; a client administrator imports into their own client. 202 with the job.',
        consumes: ['multipart/form-data'],
        querystring: z.object({ client_id: z.string().uuid().optional() }),
        response: { 202: importJob },
      },
    },
    async (request, reply) => {
      const upload = await receiveUpload(request, storage);
      const job = await withUpload(storage, upload, () =>
        service.uploadNewUsers(caller(request), request.query.client_id, upload),
      );
      return reply.status(202).send(job);
    },
  );

  r.get(
    '/users/:userId/import',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Participants'],
        summary: 'The latest import a staff member started',
        params: z.object({ userId: z.string().uuid() }),
        response: { 200: importJob.nullable() },
      },
    },
    async (request) => service.latestImportBy(caller(request), request.params.userId),
  );

  r.get(
    '/users/:ceClientId/:projectId/import',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Participants'],
        summary: 'The latest participant import of a client’s project',
        params: z.object({ ceClientId: z.string().uuid(), projectId: z.string().uuid() }),
        response: { 200: importJob.nullable() },
      },
    },
    async (request) => service.latestImportOf(caller(request), request.params.ceClientId, request.params.projectId),
  );

  r.get(
    '/users/import/example',
    {
      config: { access: 'admin' },
      schema: { tags: ['Participants'], summary: 'An example participant import file', produces: ['text/csv'] },
    },
    async (_request, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="participants-example.csv"')
        .send('\uFEFF' + PARTICIPANT_EXAMPLE_CSV),
  );
}
