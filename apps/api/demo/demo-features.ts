import type { Db } from '../src/db/client.js';
import type { FileStorage } from '../src/lib/storage.js';
import type { AccessClaims } from '../src/lib/tokens.js';
import { createProjectsRepository } from '../src/modules/projects/projects.repository.js';
import { assertProjectVisible, type ProjectsService } from '../src/modules/projects/projects.service.js';
import { seedDemoEmailHistory } from './demo-emails.js';
import { seedDemoLibrary } from './demo-library.js';
import { seedDemoResources } from './demo-resources.js';
import { seedDemoSummary } from './demo-summary.js';
import { seedDemoSurveys } from './demo-surveys.js';

/**
 * The demo's content made through the app's own services and repositories, by its staff
 * accounts, once the projects, participants, cases and attempts exist: the Resource Library,
 * survey templates of every type (chosen and answered), the Winter Season's posted Results
 * Summary, the dashboard content, a module library, and the emails the schedule sent so far.
 */
export async function seedDemoFeatures(
  db: Db,
  input: {
    projectId: string;
    projectIds: string[];
    superadmin: AccessClaims;
    admin: AccessClaims;
    storage: FileStorage | undefined;
    today: Date;
  },
): Promise<void> {
  const { projectId, superadmin, admin, storage, today } = input;
  // The projects service's access rule, as the surveys and summaries services ask it.
  const projectRows = createProjectsRepository(db);
  const projects: Pick<ProjectsService, 'requireVisible'> = {
    async requireVisible(caller, id) {
      const row = await projectRows.findById(id);
      assertProjectVisible(caller, row);
      return row;
    },
  };
  await seedDemoLibrary(db, projectId, today);
  await seedDemoResources(db, input.projectIds, superadmin.userId, storage, today);
  await seedDemoSurveys(db, projectId, superadmin, projects, today);
  await seedDemoSummary(db, projectId, admin, projects, storage, today);
  // Last: the launch and reminder of the posted summary are part of the history.
  await seedDemoEmailHistory(db, projectId, today);
}
