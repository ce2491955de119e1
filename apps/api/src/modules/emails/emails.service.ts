import { isManualOnlyEmail, type EmailTemplate, type SaveEmailBody } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { emailName } from '../../db/email-templates.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, validationError } from '../../lib/errors.js';
import { sanitizeRichText } from '../../lib/rich-text.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { createEmailAccess, type EmailKind } from './email-access.js';
import { createEmailsRepository, type EmailTemplateRow } from './emails.repository.js';

export function toEmailTemplate(row: EmailTemplateRow): EmailTemplate {
  return {
    id: row.id,
    type: row.type,
    name: emailName(row.type),
    season_id: row.seasonId,
    subject: row.subject,
    body: row.body,
    button_text: row.buttonText,
    dashboard_url_text: row.dashboardUrlText,
    enabled: row.enabled,
    send_mode: row.sendMode,
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * A project's email templates: listed (the project's seven, or one season's five), edited,
 * enabled and disabled. Whoever may see the project may manage its emails; another
 * client's templates are "not found".
 */
export function createEmailsService(deps: { db: Db; projects: Pick<ProjectsService, 'requireVisible'>; clock: Clock }) {
  const emails = createEmailsRepository(deps.db);

  const access = createEmailAccess({ db: deps.db, emails, projects: deps.projects });
  const visibleProject = access.project;
  const visibleTemplate = access.template;

  async function seasonOf(projectId: string, seasonName: string): Promise<string> {
    const seasonId = await emails.seasonIdByName(projectId, seasonName);
    if (!seasonId) throw new AppError('NOT_FOUND', { message: `The project has no season "${seasonName}".` });
    return seasonId;
  }

  return {
    async list(caller: AccessClaims, projectId: string): Promise<{ items: EmailTemplate[] }> {
      await visibleProject(caller, projectId);
      return { items: (await emails.projectEmails(projectId)).map(toEmailTemplate) };
    },

    async listForSeason(caller: AccessClaims, projectId: string, seasonName: string) {
      await visibleProject(caller, projectId);
      const seasonId = await seasonOf(projectId, seasonName);
      return { items: (await emails.seasonEmails(seasonId)).map(toEmailTemplate) };
    },

    async save(caller: AccessClaims, id: string, kind: EmailKind, body: SaveEmailBody): Promise<EmailTemplate> {
      const template = await visibleTemplate(caller, id, kind);
      if (isManualOnlyEmail(template.type) && body.send_mode !== 'MANUAL') {
        throw validationError([
          {
            field: 'body.send_mode',
            message:
              `The ${emailName(template.type)} is sent by hand only: no schedule rule sends it. ` +
              'Send it with “Send now” when the season’s results summary is posted.',
          },
        ]);
      }
      const saved = await emails.update(
        id,
        {
          subject: body.subject,
          body: sanitizeRichText(body.body),
          buttonText: body.button_text,
          dashboardUrlText: body.dashboard_url_text,
          sendMode: body.send_mode,
        },
        deps.clock.now(),
      );
      return toEmailTemplate(saved);
    },

    async setEnabled(caller: AccessClaims, id: string, kind: EmailKind, enabled: boolean): Promise<EmailTemplate> {
      await visibleTemplate(caller, id, kind);
      return toEmailTemplate(await emails.setEnabled(id, enabled, deps.clock.now()));
    },

    /** Disables all of a project's own emails; answers how many were enabled. */
    async disableAll(caller: AccessClaims, projectId: string): Promise<{ updated: number }> {
      await visibleProject(caller, projectId);
      return { updated: await emails.disableAll(projectId, null, deps.clock.now()) };
    },

    async disableSeason(caller: AccessClaims, projectId: string, seasonName: string): Promise<{ updated: number }> {
      await visibleProject(caller, projectId);
      const seasonId = await seasonOf(projectId, seasonName);
      return { updated: await emails.disableAll(projectId, seasonId, deps.clock.now()) };
    },
  };
}

export type EmailsService = ReturnType<typeof createEmailsService>;
