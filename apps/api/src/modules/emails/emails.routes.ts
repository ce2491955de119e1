import type { FastifyInstance } from 'fastify';
import { emailPlaceholders, emailRoutes } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import { contractRoutes } from '../../lib/contract-routes.js';
import { AppError, validationError } from '../../lib/errors.js';
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
    {
      tags,
      summary: 'Disable all of one season’s emails (`?seasonName=`, or `seasonName` in a JSON body)',
      description:
        'The specification names the season as `seasonName` in the query; a JSON body `{ "seasonName" }` is ' +
        'taken too. Neither: 400 REQUIRED_PARAMETER_MISSING; both, naming different seasons: 400 ' +
        'VALIDATION_ERROR; a name the project has no season for: 404 NOT_FOUND. Answers how many were enabled.',
    },
    async (request) =>
      service.disableSeason(
        caller(request),
        request.params.id,
        seasonNameOf(request.query.seasonName, request.body?.seasonName, request.routeOptions.url),
      ),
  );
}

/**
 * The season a call names in its query or its body: one of them is required, and if both are
 * given they must agree (nothing is changed otherwise).
 */
function seasonNameOf(inQuery: string | undefined, inBody: string | undefined, url: string | undefined): string {
  if (inQuery !== undefined && inBody !== undefined && inQuery !== inBody) {
    throw validationError([
      { field: 'body.seasonName', message: 'The query and the body name different seasons; name one season.' },
    ]);
  }
  const name = inQuery ?? inBody;
  if (name !== undefined) return name;
  const message = 'Required parameter seasonName was null or undefined.';
  throw new AppError('REQUIRED_PARAMETER_MISSING', {
    message: `Required parameter seasonName was null or undefined when calling POST ${url ?? ''}.`,
    details: { fields: [{ field: 'query.seasonName', errorCode: 'REQUIRED_PARAMETER_MISSING', message }] },
  });
}
