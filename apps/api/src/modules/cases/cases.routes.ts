import type { FastifyInstance } from 'fastify';
import { caseRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { caller } from '../../lib/access-control.js';
import type { CasesService } from './cases.service.js';

const tags = ['Cases'];

/** A case in its home: list, create, read, save, delete, status, counts. */
export function registerCasesRoutes(app: FastifyInstance, service: CasesService): void {
  const implement = contractRoutes(app);

  implement(
    caseRoutes.list,
    {
      tags,
      summary: 'A project’s cases (paged)',
      description:
        'Search: case or patient name. Sortable: name, patient_name, status, updated_at, created_at. ' +
        'Filter: `{"status":"DRAFT"|"PUBLISHED"|"ACTIVE"}` (ACTIVE: published and placed in a round running today).',
    },
    async (request) => service.list(caller(request), { projectId: request.params.id }, request.query),
  );

  implement(
    caseRoutes.create,
    {
      tags,
      summary: 'Create a draft case in a project',
      description: 'The rest of the case is filled in with `PUT /cases/{id}`. The disease type must be the project’s.',
    },
    async (request) =>
      service.create(
        caller(request),
        request.body.project_id ? { projectId: request.body.project_id } : { moduleId: request.body.module_id! },
        request.body.name,
        request.body.disease_type_id ?? null,
      ),
  );

  implement(caseRoutes.get, { tags, summary: 'A case, whole' }, async (request) =>
    service.get(caller(request), request.params.id),
  );

  implement(
    caseRoutes.update,
    {
      tags,
      summary: 'Save a draft case, whole',
      description:
        'Published and active cases are read-only (CHANGES_FORBIDDEN). Rich text is sanitised. Sub-items keep the ' +
        'ids sent (new ones may carry ids made by the editor) and get new ids when missing. A draft may be ' +
        'incomplete; `POST /cases/{id}/status` checks it whole before publishing. A write the database itself ' +
        'refuses (a full disk, say) is CASE_NOT_SAVED (500) and changes nothing; a lost connection is ' +
        'DATABASE_UNAVAILABLE (503): send the same body again.',
    },
    async (request) => service.update(caller(request), request.params.id, request.body),
  );

  implement(
    caseRoutes.remove,
    {
      tags,
      summary: 'Delete a case, or a selection of its project’s cases',
      description:
        '`filter` (optional) is a JSON selection: `{"ids":[…]}` or `{"all":true,"except":[…],"search":…,' +
        '"filter":{"status":…}}`, within the project of the case in the path (else CASES_FROM_WRONG_PROJECT). ' +
        'All or nothing: cases associated with participants (CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN) or active ' +
        '(CHANGES_FORBIDDEN) stop the whole delete.',
    },
    async (request) => service.remove(caller(request), request.params.id, request.query.filter),
  );

  implement(
    caseRoutes.removeFromProject,
    { tags, summary: 'Take a case out of its project (as a delete: the same rules apply)' },
    async (request) => {
      await service.removeFromProject(caller(request), request.params.id);
      return null;
    },
  );

  implement(
    caseRoutes.status,
    { tags, summary: 'A case’s status and everything that stops it being published or previewed' },
    async (request) => service.status(caller(request), request.params.id),
  );

  implement(
    caseRoutes.setStatus,
    {
      tags,
      summary: 'Publish a draft, or take a published case back to draft',
      description:
        'Publishing checks the whole case: CASE_INVALID_FOR_PUBLISH lists each problem with its field. An active ' +
        'case, or one any participant has (an attempt exists, started or not), cannot go back to draft ' +
        '(CHANGES_FORBIDDEN); the rule is checked in the write itself.',
    },
    async (request) => service.setStatus(caller(request), request.params.id, request.body.status),
  );

  implement(
    caseRoutes.counts,
    { tags, summary: 'What hangs on a case: participants of its round, previews, questions' },
    async (request) => service.counts(caller(request), request.params.id),
  );
}
