import type { FastifyInstance } from 'fastify';
import { diseaseTypeRoutes, projectRoutes, questionCategoryRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { caller } from '../../lib/access-control.js';
import type { ProjectsService } from './projects.service.js';

const catalogues = [
  { routes: diseaseTypeRoutes, kind: 'disease_types', label: 'disease types' },
  { routes: questionCategoryRoutes, kind: 'question_categories', label: 'question categories' },
] as const;

export function registerProjectsRoutes(app: FastifyInstance, service: ProjectsService): void {
  const implement = contractRoutes(app);

  implement(
    projectRoutes.list,
    {
      tags: ['Projects'],
      summary: 'List projects',
      description:
        'Paged, searched (name) and sorted in SQL. Sortable: name, status, client_name, updated_at, created_at. ' +
        'Filter: `{"status": "ACTIVE"|"ARCHIVED", "client_id": "…"}`. A client administrator sees only their client’s projects.',
    },
    async (request) => service.list(caller(request), request.query),
  );

  implement(
    projectRoutes.activeSeasons,
    {
      tags: ['Clients'],
      summary: 'Seasons running today, across the clients the caller may see',
      description:
        'A season runs from its first round’s start to its last round’s end; `current_round` is the round running today, if any.',
    },
    async (request) => service.activeSeasons(caller(request), request.query),
  );

  implement(
    projectRoutes.listForClient,
    {
      tags: ['Clients'],
      summary: 'A client’s projects',
      description: 'As `GET /projects`, for one client. Another client’s id answers 404 to a client administrator.',
    },
    async (request) => service.listForClient(caller(request), request.params.id, request.query),
  );

  implement(
    projectRoutes.create,
    {
      tags: ['Projects'],
      summary: 'Create a project',
      description:
        'Disease types and question categories are given by name: each is found (any case) or created. At least one of each ' +
        '(PROJECT_DISEASE_TYPE_REQUIRED, PROJECT_QUESTION_CATEGORY_REQUIRED). Seasons carry Rounds 1–4 numbered without gaps, ' +
        'each ending on or after its start and starting after the previous round ends. A client administrator can create ' +
        'projects only for their own client (another client_id answers 404).',
    },
    async (request) => await service.create(caller(request), request.body),
  );

  implement(
    projectRoutes.get,
    { tags: ['Projects'], summary: 'One project with its catalogues and seasons' },
    async (request) => service.get(caller(request), request.params.id),
  );

  implement(
    projectRoutes.update,
    {
      tags: ['Projects'],
      summary: 'Edit a project',
      description:
        'The whole project as on create (without client_id), with `status`. Seasons given with their `id` are kept ' +
        '(their rounds updated by number); seasons left out are removed. A season, or a kept season’s round, that ' +
        'participants are assigned to or have attempts in is never removed: the save is refused whole with 409 ' +
        'SEASON_HAS_PARTICIPANT_WORK, `details.seasons` naming each season and its rounds with work.',
    },
    async (request) => service.update(caller(request), request.params.id, request.body),
  );

  for (const [action, status] of [
    ['archive', 'ARCHIVED'],
    ['restore', 'ACTIVE'],
  ] as const) {
    implement(
      projectRoutes[action],
      { tags: ['Projects'], summary: action === 'archive' ? 'Archive a project' : 'Restore an archived project' },
      async (request) => service.setStatus(caller(request), request.params.id, status),
    );
  }

  implement(
    projectRoutes.remove,
    {
      tags: ['Projects'],
      summary: 'Delete a project',
      description:
        'Deletes the project with its seasons and CMEs; refused with 409 ASSOCIATED_ITEMS_DELETE_FORBIDDEN while it ' +
        'has cases (drafts included) or participants.',
    },
    async (request) => {
      await service.remove(caller(request), request.params.id);
      return null;
    },
  );

  implement(
    projectRoutes.seasons,
    { tags: ['Projects'], summary: 'A project’s seasons with their rounds' },
    async (request) => service.seasons(caller(request), request.params.id),
  );

  for (const catalogue of catalogues) {
    implement(
      catalogue.routes.ofProject,
      { tags: ['Projects'], summary: `A project’s ${catalogue.label} (paged)` },
      async (request) => service.projectCatalogue(caller(request), request.params.id, catalogue.kind, request.query),
    );

    implement(
      catalogue.routes.list,
      {
        tags: ['Catalogues'],
        summary: `All ${catalogue.label} (paged, searched), for pickers`,
        description:
          'A superadmin sees every entry; a client administrator only those their own client’s projects use ' +
          '(entry names may be confidential to a client). A name typed in a project form is found or created on save.',
      },
      async (request) => service.catalogue(caller(request), catalogue.kind, request.query),
    );

    implement(
      catalogue.routes.remove,
      {
        tags: ['Catalogues'],
        summary: `Delete one of the ${catalogue.label}`,
        description:
          catalogue.kind === 'disease_types'
            ? 'Refused with 409 DISEASE_TYPE_DELETE_FORBIDDEN while a project uses it.'
            : 'Refused with 409 ASSOCIATED_ITEMS_DELETE_FORBIDDEN while a project uses it.',
      },
      async (request) => {
        await service.deleteCatalogueEntry(catalogue.kind, request.params.id);
        return null;
      },
    );
  }
}
