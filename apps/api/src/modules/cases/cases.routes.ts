import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bulkCaseResult,
  caseCounts,
  caseDeleteQuery,
  caseDocument,
  caseListQuery,
  caseStatusBody,
  caseStatusReport,
  caseSummaryPage,
  createCaseBody,
  idParams,
  updateCaseBody,
} from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import type { CasesService } from './cases.service.js';

const tags = ['Cases'];

/** A case in its home: list, create, read, save, delete, status, counts. */
export function registerCasesRoutes(app: FastifyInstance, service: CasesService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { access: 'admin' as const };

  r.get(
    '/projects/:id/cases',
    {
      config: admin,
      schema: {
        tags,
        summary: 'A project’s cases (paged)',
        description:
          'Search: case or patient name. Sortable: name, patient_name, status, updated_at, created_at. ' +
          'Filter: `{"status":"DRAFT"|"PUBLISHED"|"ACTIVE"}` (ACTIVE: published and placed in a round running today).',
        params: idParams,
        querystring: caseListQuery,
        response: { 200: caseSummaryPage },
      },
    },
    async (request) => service.list(caller(request), { projectId: request.params.id }, request.query),
  );

  r.post(
    '/cases',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Create a draft case in a project',
        description:
          'The rest of the case is filled in with `PUT /cases/{id}`. The disease type must be the project’s.',
        body: createCaseBody,
        response: { 201: caseDocument },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await service.create(
            caller(request),
            request.body.project_id ? { projectId: request.body.project_id } : { moduleId: request.body.module_id! },
            request.body.name,
            request.body.disease_type_id ?? null,
          ),
        ),
  );

  r.get(
    '/cases/:id',
    { config: admin, schema: { tags, summary: 'A case, whole', params: idParams, response: { 200: caseDocument } } },
    async (request) => service.get(caller(request), request.params.id),
  );

  r.put(
    '/cases/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Save a draft case, whole',
        description:
          'Published and active cases are read-only (CHANGES_FORBIDDEN). Rich text is sanitised. Sub-items keep the ' +
          'ids sent (new ones may carry ids made by the editor) and get new ids when missing. A draft may be ' +
          'incomplete; `POST /cases/{id}/status` checks it whole before publishing.',
        params: idParams,
        body: updateCaseBody,
        response: { 200: caseDocument },
      },
    },
    async (request) => service.update(caller(request), request.params.id, request.body),
  );

  r.delete(
    '/cases/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Delete a case, or a selection of its project’s cases',
        description:
          '`filter` (optional) is a JSON selection: `{"ids":[…]}` or `{"all":true,"except":[…],"search":…,' +
          '"filter":{"status":…}}`, within the project of the case in the path (else CASES_FROM_WRONG_PROJECT). ' +
          'All or nothing: cases associated with participants (CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN) or active ' +
          '(CHANGES_FORBIDDEN) stop the whole delete.',
        params: idParams,
        querystring: caseDeleteQuery,
        response: { 200: bulkCaseResult },
      },
    },
    async (request) => service.remove(caller(request), request.params.id, request.query.filter),
  );

  r.post(
    '/cases/:id/remove-project',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Take a case out of its project (as a delete: the same rules apply)',
        params: idParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.removeFromProject(caller(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/cases/:id/status',
    {
      config: admin,
      schema: {
        tags,
        summary: 'A case’s status and everything that stops it being published or previewed',
        params: idParams,
        response: { 200: caseStatusReport },
      },
    },
    async (request) => service.status(caller(request), request.params.id),
  );

  r.post(
    '/cases/:id/status',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Publish a draft, or take a published case back to draft',
        description:
          'Publishing checks the whole case: CASE_INVALID_FOR_PUBLISH lists each problem with its field. An active ' +
          'case, or one any participant has (an attempt exists, started or not), cannot go back to draft ' +
          '(CHANGES_FORBIDDEN); the rule is checked in the write itself.',
        params: idParams,
        body: caseStatusBody,
        response: { 200: caseDocument },
      },
    },
    async (request) => service.setStatus(caller(request), request.params.id, request.body.status),
  );

  r.get(
    '/cases/:id/count',
    {
      config: admin,
      schema: {
        tags,
        summary: 'What hangs on a case: participants of its round, previews, questions',
        params: idParams,
        response: { 200: caseCounts },
      },
    },
    async (request) => service.counts(caller(request), request.params.id),
  );
}
