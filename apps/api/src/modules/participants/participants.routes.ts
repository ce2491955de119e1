import type { FastifyInstance } from 'fastify';
import { participantRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { caller } from '../../lib/access-control.js';
import { validationError } from '../../lib/errors.js';
import type { FileStorage } from '../../lib/storage.js';
import { importUpload } from '../../lib/import-uploads.js';
import { sendTable } from '../../lib/table-writer.js';
import { PARTICIPANT_EXAMPLE_CSV, type ParticipantsService } from './participants.service.js';

export function registerParticipantsRoutes(
  app: FastifyInstance,
  service: ParticipantsService,
  storage: FileStorage,
): void {
  const implement = contractRoutes(app);

  implement(
    participantRoutes.upload,
    {
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
    },
    importUpload(storage, (request, upload) => service.upload(caller(request), request.params.id, upload)),
  );

  implement(
    participantRoutes.latestImport,
    {
      tags: ['Participants'],
      summary: 'The latest import into a project (its state, counts and rejected rows)',
      description:
        '`type`: PARTICIPANTS (the default), ANSWER_TAGS or SUMMARY (key takeaways), the imports of a project.',
    },
    async (request) => service.latestImport(caller(request), request.params.id, request.query.type),
  );

  implement(
    participantRoutes.list,
    {
      tags: ['Participants'],
      summary: 'A project’s participants',
      description:
        'Paged, searched (name, email) and sorted in SQL. Sortable: name (last, first), email, added_at. Filter: ' +
        '`{"archived": true|false (default false), "data_status": "READY"|"NOT_READY"}`.',
    },
    async (request) => service.list(caller(request), request.params.id, request.query),
  );

  implement(
    participantRoutes.ids,
    { tags: ['Participants'], summary: 'The ids of every participant matching a search and filter (for select-all)' },
    async (request) => service.ids(caller(request), request.params.id, request.query.search, request.query.filter),
  );

  implement(
    participantRoutes.exportCsv,
    {
      tags: ['Participants'],
      summary: 'A project’s participants as CSV',
      description:
        'The import’s file: its columns under its names (one row per season assignment; a participant without one has ' +
        'an empty season), then data_status, archived, notes and added_at, which an import ignores. Exported, edited ' +
        'and imported again, it changes what was edited. UTF-8 with BOM; cells starting with =, +, - or @ get an ' +
        'apostrophe so a spreadsheet shows them as text (the import takes it off again).',
    },
    async (request, reply) =>
      sendTable(
        reply,
        await service.exportTable(caller(request), request.params.id, request.query.search, request.query.filter),
        'csv',
      ),
  );

  for (const [action, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    implement(
      participantRoutes[action],
      {
        tags: ['Participants'],
        summary: action === 'archive' ? 'Archive participants of a project' : 'Unarchive participants of a project',
        description:
          '`usersIds` is a comma-separated list, or `all` with a body `{ except, search, filter }` (select-all with ' +
          `unselected exceptions). Refused with ${archived ? 'USER_ARCHIVE_BLOCKED_BY_IMPORT' : 'USER_UNARCHIVE_BLOCKED_BY_IMPORT'} while an import into the project runs.`,
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

  implement(
    participantRoutes.setNotes,
    { tags: ['Participants'], summary: 'A participant’s notes in one project' },
    async (request) => {
      await service.setNotes(caller(request), request.params.userId, request.params.projectId, request.body.notes);
      return null;
    },
  );

  implement(
    participantRoutes.uploadNewUsers,
    {
      tags: ['Participants'],
      summary: 'Import new users of a client, in no project yet (CSV, multipart field `file`)',
      description:
        'The participant file without assignment columns (a season is refused: assign in a project’s import). ' +
        'A superadmin says which client with `client_id`; a client administrator imports into their own client. 202 with the job.',
    },
    importUpload(storage, (request, upload) =>
      service.uploadNewUsers(caller(request), request.query.client_id, upload),
    ),
  );

  implement(
    participantRoutes.latestImportBy,
    { tags: ['Participants'], summary: 'The latest import a staff member started' },
    async (request) => service.latestImportBy(caller(request), request.params.userId),
  );

  implement(
    participantRoutes.latestImportOf,
    { tags: ['Participants'], summary: 'The latest participant import of a client’s project' },
    async (request) => service.latestImportOf(caller(request), request.params.ceClientId, request.params.projectId),
  );

  implement(
    participantRoutes.importExample,
    { tags: ['Participants'], summary: 'An example participant import file' },
    async (_request, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="participants-example.csv"')
        .send('\uFEFF' + PARTICIPANT_EXAMPLE_CSV),
  );
}
