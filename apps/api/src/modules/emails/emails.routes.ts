import type { FastifyInstance } from 'fastify';
import { emailPlaceholders, emailRoutes } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import { contractRoutes } from '../../lib/contract-routes.js';
import type { EmailsService } from './emails.service.js';

const tags = ['Emails'];
const placeholders =
  `Placeholders: ${emailPlaceholders.map((name) => `{${name}}`).join(', ')}; any other name in braces is refused ` +
  '(VALIDATION_ERROR naming it).';

export function registerEmailsRoutes(app: FastifyInstance, service: EmailsService): void {
  const implement = contractRoutes(app);

  implement(
    emailRoutes.list,
    {
      tags,
      summary: 'A project’s seven emails (templates), in the specification’s order',
      description: 'Made from the written defaults with the project. Another client’s project: 404.',
    },
    async (request) => service.list(caller(request), request.params.id),
  );

  implement(
    emailRoutes.listForSeason,
    {
      tags,
      summary: 'A season’s five email variants (`seasonName` names the season)',
      description: 'A name the project has no season for: 404 NOT_FOUND.',
    },
    async (request) => service.listForSeason(caller(request), request.params.id, request.query.seasonName),
  );

  for (const [route, kind, what] of [
    [emailRoutes.save, 'project', 'a project email'],
    [emailRoutes.saveSeasonEmail, 'season', 'a season email'],
  ] as const) {
    implement(
      route,
      {
        tags,
        summary: `Save ${what} (the id is the email’s): subject, body (rich text, sanitised), button and URL texts, send mode`,
        description:
          `${placeholders} The season’s Season Summary Launch and Reminder emails are sent by hand only (no ` +
          'schedule rule sends them): `send_mode` AUTOMATIC is refused for them (VALIDATION_ERROR on ' +
          '`body.send_mode`) and nothing is saved.',
      },
      async (request) => service.save(caller(request), request.params.id, kind, request.body),
    );
  }

  for (const [route, kind, what] of [
    [emailRoutes.setStatus, 'project', 'a project email'],
    [emailRoutes.setSeasonEmailStatus, 'season', 'a season email'],
  ] as const) {
    implement(route, { tags, summary: `Enable or disable ${what} (the id is the email’s)` }, async (request) =>
      service.setEnabled(caller(request), request.params.id, kind, request.body.enabled),
    );
  }

  implement(
    emailRoutes.disableAll,
    { tags, summary: 'Disable all of a project’s own emails (its seasons’ emails are left as they are)' },
    async (request) => service.disableAll(caller(request), request.params.id),
  );

  implement(
    emailRoutes.disableSeason,
    { tags, summary: 'Disable all of one season’s emails (`seasonName` in the body)' },
    async (request) => service.disableSeason(caller(request), request.params.id, request.body.seasonName),
  );
}
