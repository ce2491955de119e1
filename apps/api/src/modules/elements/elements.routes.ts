import type { FastifyInstance } from 'fastify';
import { MAX_KEY_TAKEAWAYS, moduleElementRoutes, projectElementRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { caller } from '../../lib/access-control.js';
import type { FileStorage } from '../../lib/storage.js';
import { importUpload } from '../../lib/import-uploads.js';
import type { ElementsScope } from './elements.repository.js';
import type { ElementsService } from './elements.service.js';

const tags = ['Elements'];

/** The same element calls for projects (admins) and module libraries (superadmins). */
export function registerElementsRoutes(app: FastifyInstance, service: ElementsService, storage: FileStorage): void {
  const implement = contractRoutes(app);
  const homes = [
    {
      routes: projectElementRoutes,
      access: 'admin' as const,
      owner: 'a project',
      scope: (id: string): ElementsScope => ({ projectId: id }),
    },
    {
      routes: moduleElementRoutes,
      access: 'superadmin' as const,
      owner: 'a module library',
      scope: (id: string): ElementsScope => ({ moduleId: id }),
    },
  ] as const;

  for (const home of homes) {
    implement(
      home.routes.keyTakeaways,
      {
        tags,
        summary: `Key takeaways of ${home.owner}’s cases, in order`,
        description: 'Filter: `{"case_id":"…"}`.',
      },
      async (request) =>
        service.keyTakeaways(caller(request), home.scope(request.params.id), request.query.filter.case_id),
    );

    implement(
      home.routes.uploadKeyTakeaways,
      {
        tags,
        summary: `Upload key takeaways of ${home.owner}’s cases (CSV, multipart field \`file\`)`,
        description:
          `Columns \`case_name\`, \`key_takeaway\`; rows in the order participants read them, at most ` +
          `${MAX_KEY_TAKEAWAYS} per case (IMPORT_MAX_DATA_EXCEEDED). Replaces the key takeaways of the cases ` +
          'named. Runs as an import job (kind SUMMARY): answers 202; all or nothing, rejected rows listed.',
      },
      importUpload(storage, (request, upload) =>
        service.upload(caller(request), home.scope(request.params.id), 'SUMMARY', upload),
      ),
    );

    implement(
      home.routes.answerTags,
      {
        tags,
        summary: `Answer tags of ${home.owner}’s cases: which answer carries which tag`,
        description: 'Filter: `{"case_id":"…"}`.',
      },
      async (request) =>
        service.answerTags(caller(request), home.scope(request.params.id), request.query.filter.case_id),
    );

    implement(
      home.routes.uploadAnswerTags,
      {
        tags,
        summary: `Upload answer tags of ${home.owner}’s cases (CSV, multipart field \`file\`)`,
        description:
          'Columns `case_name`, `question`, `answer`, `tag` (question and answer as the case words them). Replaces ' +
          'the tags of the cases named. Runs as an import job (kind ANSWER_TAGS): answers 202; all or nothing.',
      },
      importUpload(storage, (request, upload) =>
        service.upload(caller(request), home.scope(request.params.id), 'ANSWER_TAGS', upload),
      ),
    );

    implement(
      home.routes.caseElements,
      {
        tags,
        summary: `Per case of ${home.owner}: how many key takeaways and answer tags it has (paged)`,
        description:
          '`type` (KEY_TAKEAWAYS or ANSWER_TAGS) keeps the cases having that kind' +
          (home.access === 'superadmin' ? ' and is required here.' : '.') +
          ' Search: case name. Sortable: case_name.',
      },
      async (request) => service.caseElements(caller(request), home.scope(request.params.id), request.query),
    );
  }

  implement(
    moduleElementRoutes.latestImport,
    { tags, summary: 'The latest elements import into a module library (`type` required: ANSWER_TAGS or SUMMARY)' },
    async (request) => service.latestImport(caller(request), { moduleId: request.params.id }, request.query.type),
  );
}
