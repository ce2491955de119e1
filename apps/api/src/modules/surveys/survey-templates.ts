import type {
  LinkedProject,
  Paged,
  SurveyTemplate,
  SurveyTemplateListQuery,
  SurveyTemplateSelection,
  SurveyTemplateSummary,
} from '@pss/contract';
import type { z } from 'zod';
import type { createSurveyTemplateBody } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { visibleClientId } from '../clients/clients.service.js';
import type { SurveyContext } from './survey-context.js';
import { shownPages } from './survey-rich-text.js';
import { assertValid, counts, withIds } from './survey-template-pages.js';
import { createSurveysRepository, type SurveysRepository, type TemplateWithUse } from './surveys.repository.js';
import { auditRemovedRows } from '../audit/audit-scope.service.js';
import { surveyTemplates } from '../../db/schema/index.js';

type TemplateInput = Pick<z.output<typeof createSurveyTemplateBody>, 'name' | 'type' | 'pages'>;

function toTemplate(row: TemplateWithUse): SurveyTemplate {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    pages: shownPages(row.pages),
    project_count: row.projectCount,
    answered: row.answered,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toSummary(row: TemplateWithUse): SurveyTemplateSummary {
  const { pages: _, ...rest } = toTemplate({ ...row, pages: [] });
  return { ...rest, page_count: row.pageCount, question_count: row.questionCount };
}

/**
 * SURVEY_ALREADY_ATTACHED when the (locked) template may not change: answered (the answers
 * stay with it, detached or not), or used by projects, named with the way forward.
 */
async function assertFree(locked: SurveysRepository, id: string): Promise<void> {
  const current = await locked.findVisible(id, null);
  if (current?.answered) {
    throw new AppError('SURVEY_ALREADY_ATTACHED', {
      message: 'Participants have answered this survey, so it cannot change: duplicate it and change the copy.',
    });
  }
  const projects = await locked.linkedProjects(id, null);
  if (!projects.length) return;
  const where = projects.map((p) => `"${p.clientName} › ${p.projectName}"`).join(', ');
  throw new AppError('SURVEY_ALREADY_ATTACHED', {
    message:
      `This survey is attached to ${where}, so it cannot change: choose another survey in those projects' ` +
      'Surveys section to edit it, or duplicate it and change the copy.',
    details: { projects: projects.map((p) => ({ project_id: p.projectId, client_id: p.clientId })) },
  });
}

/** The survey templates: listed and read by staff, written, duplicated and deleted by superadmins. */
export function createSurveyTemplates(context: SurveyContext) {
  const { deps, surveys, visible } = context;

  return {
    async list(caller: AccessClaims, query: SurveyTemplateListQuery): Promise<Paged<SurveyTemplateSummary>> {
      const scope = visibleClientId(caller);
      const empty = { items: [], total: 0, page: query.page, limit: query.limit };
      // An administrator asking about another client's projects learns nothing of them.
      if (scope && query.filter.client_id && query.filter.client_id !== scope) return empty;
      if (scope && query.filter.project_id) {
        const known = await deps.projects.requireVisible(caller, query.filter.project_id).catch(() => null);
        if (!known) return empty;
      }
      const page = await surveys.list(query, scope);
      return { ...page, items: page.items.map(toSummary) };
    },

    async get(caller: AccessClaims, id: string): Promise<SurveyTemplate> {
      return toTemplate(await visible(caller, id));
    },

    async create(caller: AccessClaims, input: TemplateInput): Promise<SurveyTemplate> {
      const pages = withIds(input.pages);
      assertValid({ type: input.type, pages });
      const now = deps.clock.now();
      const id = await surveys.insert({
        name: input.name,
        type: input.type,
        pages,
        ...counts(pages),
        createdAt: now,
        updatedAt: now,
      });
      return toTemplate(await visible(caller, id));
    },

    /**
     * Saves the template whole, only while it is free: once a project uses it or a participant
     * has answered it, any save is SURVEY_ALREADY_ATTACHED and changes nothing (participants
     * would otherwise meet a survey other than the one chosen for them, and answers would point
     * at changed questions). Detached from every project and unanswered, it is free again; a
     * duplicate always is.
     */
    async update(caller: AccessClaims, id: string, input: TemplateInput): Promise<SurveyTemplate> {
      const pages = withIds(input.pages);
      await deps.db.transaction(async (tx) => {
        const locked = createSurveysRepository(tx);
        // Locked first: an attachment or a first answer waits for the save, or the save for them.
        if (!(await locked.lock(id))) throw new AppError('NOT_FOUND');
        await assertFree(locked, id);
        assertValid({ type: input.type, pages });
        const written = await locked.updateUnused(id, {
          name: input.name,
          type: input.type,
          pages,
          ...counts(pages),
          updatedAt: deps.clock.now(),
        });
        if (!written) throw new AppError('SURVEY_ALREADY_ATTACHED');
      });
      return toTemplate(await visible(caller, id));
    },

    /** A copy under a new name, with new ids throughout (the original's answers stay the original's). */
    async duplicate(caller: AccessClaims, id: string, name: string | undefined): Promise<SurveyTemplate> {
      const original = await visible(caller, id);
      const pages = withIds(original.pages, true);
      const now = deps.clock.now();
      const copy = await surveys.insert({
        name: name ?? `${original.name} (copy)`.slice(0, 200),
        type: original.type,
        pages,
        ...counts(pages),
        createdAt: now,
        updatedAt: now,
      });
      return toTemplate(await visible(caller, copy));
    },

    /** Deletes the selection whole, or nothing when any of it is used by a project or was answered. */
    async remove(caller: AccessClaims, selection: SurveyTemplateSelection): Promise<{ ids: string[] }> {
      const scope = visibleClientId(caller);
      return deps.db.transaction(async (tx) => {
        const locked = createSurveysRepository(tx);
        const ids = await locked.selected(selection, scope);
        if ('ids' in selection && ids.length < new Set(selection.ids).size) throw new AppError('NOT_FOUND');
        const used = await locked.inUse(ids);
        if (used.length) {
          throw new AppError('SURVEY_ATTACHED_DELETE_FORBIDDEN', {
            message: `Used by a project or answered, so not deleted: ${used.map((t) => `"${t.name}"`).join(', ')}.`,
            details: { templates: used },
          });
        }
        await auditRemovedRows(tx, surveyTemplates, ids);
        return { ids: await locked.deleteMany(ids) };
      });
    },

    async linkedProjects(caller: AccessClaims, id: string): Promise<LinkedProject[]> {
      await visible(caller, id);
      const rows = await surveys.linkedProjects(id, visibleClientId(caller));
      return rows.map((r) => ({
        project_id: r.projectId,
        project_name: r.projectName,
        client_id: r.clientId,
        client_name: r.clientName,
        type: r.type,
      }));
    },
  };
}
