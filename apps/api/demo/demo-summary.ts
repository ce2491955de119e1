import { randomUUID } from 'node:crypto';
import type { Db } from '../src/db/client.js';
import { fixedClock } from '../src/lib/clock.js';
import type { FileStorage } from '../src/lib/storage.js';
import type { AccessClaims } from '../src/lib/tokens.js';
import type { ProjectsService } from '../src/modules/projects/projects.service.js';
import { createSeasonSummariesService } from '../src/modules/season-summaries/season-summaries.service.js';
import { textPagePdf } from './demo-files.js';

/** Days before today that the Winter Season's Results Summary was posted (the season ended 65 days ago). */
export const DEMO_SUMMARY_POSTED_DAYS_AGO = 45;
export const DEMO_SUMMARY_TITLE = 'Winter Season: what we learnt together';

const resultsSheet = () =>
  textPagePdf(
    'Winter Season results',
    'Heart Failure Management 2026 - Northwind Health',
    [
      'Two cases, two rounds. Thank you to everyone who took part.',
      'Most of you ordered a BNP and an echocardiogram first: well done.',
      'Fewer than half checked lying and standing blood pressure in the dizzy patient.',
    ],
    [
      ['Case', 'Completed', 'Average score', 'Most missed'],
      ['Out of breath on the stairs', '2 of 2', '100%', '-'],
      ['Dizzy after a new tablet', '1 of 2', '67%', 'Kidney function'],
    ],
  );

/**
 * The past Winter Season's Results Summary, written and posted by the client's
 * administrator through the summaries service (with its results sheet, a PDF, uploaded as
 * a file is), so that the participant who completed the season finds it on their dashboard.
 */
export async function seedDemoSummary(
  db: Db,
  projectId: string,
  admin: AccessClaims,
  projects: Pick<ProjectsService, 'requireVisible'>,
  storage: FileStorage | undefined,
  today: Date,
): Promise<void> {
  const postedAt = new Date(today.getTime() - DEMO_SUMMARY_POSTED_DAYS_AGO * 86_400_000);
  const clock = fixedClock(new Date(postedAt.getTime() - 2 * 3_600_000));
  // Without storage (tests that make none) the summary has no sheet.
  const summaries = createSeasonSummariesService({ db, projects, storage: storage ?? noStorage, clock });
  const saved = await summaries.save(admin, projectId, 'Winter Season', {
    title: DEMO_SUMMARY_TITLE,
    description:
      '<p>Most of you ordered a <strong>BNP</strong> and an <strong>echocardiogram</strong> first for the ' +
      'breathless patient: exactly what the guideline asks.</p><p>The dizzy patient was harder: ' +
      'remember kidney function and potassium after a new blood-pressure tablet.</p>',
    greeting: 'Thank you for taking part this winter. The Spring Season has begun on your dashboard.',
  });
  if (storage) {
    const sheet = resultsSheet();
    const key = `season-summaries/${randomUUID()}`;
    await storage.put(key, sheet);
    await summaries.setFile(admin, saved.id, 'sheet', { key, fileName: 'winter-results.pdf', bytes: sheet.length });
  }
  clock.set(postedAt);
  await summaries.setStatus(admin, saved.id, 'POSTED');
}

/** For a demo made without storage: the summary then has no file, and nothing may read or write one. */
const refuse = (): never => {
  throw new Error('the demo was made without file storage');
};
const noStorage: FileStorage = {
  put: refuse,
  putStream: refuse,
  get: refuse,
  stream: refuse,
  remove: refuse,
  withLocalPath: refuse,
  check: refuse,
};
