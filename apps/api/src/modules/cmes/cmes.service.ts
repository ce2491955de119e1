import type { Cme, CmeListQuery, Paged } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { CmeRow, CmesRepository } from './cmes.repository.js';

export interface CmeFields {
  min_cases: number;
  credits: number;
  moc: boolean;
  totera_course_id?: string | null;
  custom?: string | null;
}

function toCme(row: CmeRow): Cme {
  return {
    id: row.id,
    project_id: row.projectId,
    min_cases: row.minCases,
    credits: Number(row.credits),
    moc: row.moc,
    totera_course_id: row.toteraCourseId,
    custom: row.custom,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toColumns(fields: CmeFields) {
  return {
    minCases: fields.min_cases,
    credits: fields.credits,
    moc: fields.moc,
    toteraCourseId: fields.totera_course_id || null,
    custom: fields.custom || null,
  };
}

/** CME credits of a project; visible to whoever may see the project. */
export function createCmesService(deps: {
  cmes: CmesRepository;
  projects: Pick<ProjectsService, 'requireVisible'>;
  clock: Clock;
}) {
  async function requireVisible(caller: AccessClaims, id: string): Promise<CmeRow> {
    const row = await deps.cmes.findById(id);
    if (!row) throw new AppError('NOT_FOUND');
    // A CME of a project the caller may not see is "not found", not "project not found".
    await deps.projects.requireVisible(caller, row.projectId).catch(() => {
      throw new AppError('NOT_FOUND');
    });
    return row;
  }

  return {
    async list(caller: AccessClaims, projectId: string, query: CmeListQuery): Promise<Paged<Cme>> {
      await deps.projects.requireVisible(caller, projectId);
      const page = await deps.cmes.listForProject(projectId, query);
      return { ...page, items: page.items.map(toCme) };
    },
    async create(caller: AccessClaims, projectId: string, fields: CmeFields): Promise<Cme> {
      await deps.projects.requireVisible(caller, projectId);
      const row = await deps.cmes.insert({ projectId, ...toColumns(fields) });
      // Those who already completed enough cases hold its certificate at once.
      await deps.cmes.issueCertificates(row.id, deps.clock.now());
      return toCme(row);
    },
    async update(caller: AccessClaims, id: string, fields: CmeFields): Promise<Cme> {
      await requireVisible(caller, id);
      const row = await deps.cmes.update(id, toColumns(fields), deps.clock.now());
      // A lower minimum may be reached already; a higher one takes no certificate back. An
      // unchanged one issues too: a CME made before certificates existed (issue #37) gives
      // those who reached it theirs when it is next saved.
      await deps.cmes.issueCertificates(row.id, deps.clock.now());
      return toCme(row);
    },
    async remove(caller: AccessClaims, id: string): Promise<void> {
      await requireVisible(caller, id);
      await deps.cmes.delete(id);
    },
  };
}
export type CmesService = ReturnType<typeof createCmesService>;
