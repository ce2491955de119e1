import type { Db } from '../../db/client.js';
import { ensureEmailTemplates } from '../../db/email-templates.js';
import { AppError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { EmailsRepository, EmailTemplateRow } from './emails.repository.js';

export type EmailKind = 'project' | 'season';

/**
 * Who may reach a project's emails: whoever may see the project. Another client's
 * templates and projects are "not found" (the same answer as one that does not exist).
 */
export function createEmailAccess(deps: {
  db: Db;
  emails: Pick<EmailsRepository, 'findById'>;
  projects: Pick<ProjectsService, 'requireVisible'>;
}) {
  return {
    /** A project the caller may see, with every template it should have. */
    async project(caller: AccessClaims, projectId: string) {
      const project = await deps.projects.requireVisible(caller, projectId);
      await ensureEmailTemplates(deps.db, projectId);
      return project;
    },

    /** A template in a project the caller may see; of the kind the call is about, when it names one. */
    async template(caller: AccessClaims, id: string, kind?: EmailKind): Promise<EmailTemplateRow> {
      const row = await deps.emails.findById(id);
      if (!row || (kind && (kind === 'project') !== (row.seasonId === null))) throw new AppError('NOT_FOUND');
      await deps.projects.requireVisible(caller, row.projectId).catch(() => {
        throw new AppError('NOT_FOUND');
      });
      return row;
    },
  };
}

export type EmailAccess = ReturnType<typeof createEmailAccess>;
