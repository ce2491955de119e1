import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  answerTagList,
  caseElementsPage,
  elementsFilterQuery,
  elementsImportQuery,
  idParams,
  importJob,
  keyTakeawayList,
  MAX_KEY_TAKEAWAYS,
  moduleCaseElementsQuery,
  projectCaseElementsQuery,
} from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import type { FileStorage } from '../../lib/storage.js';
import { receiveUpload, withUpload } from '../../lib/uploads.js';
import type { ElementsScope } from './elements.repository.js';
import type { ElementsService } from './elements.service.js';

const tags = ['Elements'];

/** The same element calls for projects (admins) and module libraries (superadmins). */
export function registerElementsRoutes(app: FastifyInstance, service: ElementsService, storage: FileStorage): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const homes = [
    {
      prefix: '/projects/:id',
      access: 'admin' as const,
      owner: 'a project',
      scope: (id: string): ElementsScope => ({ projectId: id }),
      casesQuery: projectCaseElementsQuery,
    },
    {
      prefix: '/module-library/:id',
      access: 'superadmin' as const,
      owner: 'a module library',
      scope: (id: string): ElementsScope => ({ moduleId: id }),
      casesQuery: moduleCaseElementsQuery,
    },
  ];

  for (const home of homes) {
    r.get(
      `${home.prefix}/key-takeaways`,
      {
        config: { access: home.access },
        schema: {
          tags,
          summary: `Key takeaways of ${home.owner}’s cases, in order`,
          description: 'Filter: `{"case_id":"…"}`.',
          params: idParams,
          querystring: elementsFilterQuery,
          response: { 200: keyTakeawayList },
        },
      },
      async (request) =>
        service.keyTakeaways(caller(request), home.scope(request.params.id), request.query.filter.case_id),
    );

    r.post(
      `${home.prefix}/key-takeaways`,
      {
        config: { access: home.access },
        schema: {
          tags,
          summary: `Upload key takeaways of ${home.owner}’s cases (CSV, multipart field \`file\`)`,
          description:
            `Columns \`case_name\`, \`key_takeaway\`; rows in the order participants read them, at most ` +
            `${MAX_KEY_TAKEAWAYS} per case (IMPORT_MAX_DATA_EXCEEDED). Replaces the key takeaways of the cases ` +
            'named. Runs as an import job (kind SUMMARY): answers 202; all or nothing, rejected rows listed.',
          consumes: ['multipart/form-data'],
          params: idParams,
          response: { 202: importJob },
        },
      },
      async (request, reply) => {
        const upload = await receiveUpload(request, storage);
        const job = await withUpload(storage, upload, () =>
          service.upload(caller(request), home.scope(request.params.id), 'SUMMARY', upload),
        );
        return reply.status(202).send(job);
      },
    );

    r.get(
      `${home.prefix}/answers-tags`,
      {
        config: { access: home.access },
        schema: {
          tags,
          summary: `Answer tags of ${home.owner}’s cases: which answer carries which tag`,
          description: 'Filter: `{"case_id":"…"}`.',
          params: idParams,
          querystring: elementsFilterQuery,
          response: { 200: answerTagList },
        },
      },
      async (request) =>
        service.answerTags(caller(request), home.scope(request.params.id), request.query.filter.case_id),
    );

    r.post(
      `${home.prefix}/answers-tags`,
      {
        config: { access: home.access },
        schema: {
          tags,
          summary: `Upload answer tags of ${home.owner}’s cases (CSV, multipart field \`file\`)`,
          description:
            'Columns `case_name`, `question`, `answer`, `tag` (question and answer as the case words them). Replaces ' +
            'the tags of the cases named. Runs as an import job (kind ANSWER_TAGS): answers 202; all or nothing.',
          consumes: ['multipart/form-data'],
          params: idParams,
          response: { 202: importJob },
        },
      },
      async (request, reply) => {
        const upload = await receiveUpload(request, storage);
        const job = await withUpload(storage, upload, () =>
          service.upload(caller(request), home.scope(request.params.id), 'ANSWER_TAGS', upload),
        );
        return reply.status(202).send(job);
      },
    );

    r.get(
      `${home.prefix}/cases-keys-tags`,
      {
        config: { access: home.access },
        schema: {
          tags,
          summary: `Per case of ${home.owner}: how many key takeaways and answer tags it has (paged)`,
          description:
            '`type` (KEY_TAKEAWAYS or ANSWER_TAGS) keeps the cases having that kind' +
            (home.access === 'superadmin' ? ' and is required here.' : '.') +
            ' Search: case name. Sortable: case_name.',
          params: idParams,
          querystring: home.casesQuery,
          response: { 200: caseElementsPage },
        },
      },
      async (request) => service.caseElements(caller(request), home.scope(request.params.id), request.query),
    );
  }

  r.get(
    '/module-library/:id/import',
    {
      config: { access: 'superadmin' },
      schema: {
        tags,
        summary: 'The latest elements import into a module library (`type` required: ANSWER_TAGS or SUMMARY)',
        params: idParams,
        querystring: elementsImportQuery,
        response: { 200: importJob.nullable() },
      },
    },
    async (request) => service.latestImport(caller(request), { moduleId: request.params.id }, request.query.type),
  );
}
