import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { ResourceSourceTypeValue } from '@pss/contract';
import type { Db } from '../src/db/client.js';
import { cases } from '../src/db/schema/index.js';
import type { FileStorage } from '../src/lib/storage.js';
import { checkResourceFile } from '../src/modules/resources/resource-content.js';
import { storedName } from '../src/modules/resources/resource-names.js';
import { createResourcesRepository } from '../src/modules/resources/resources.repository.js';
import { ecgStripPng, textPagePdf } from './demo-files.js';
import { demoVideoMp4 } from './demo-video.js';

interface DemoResource {
  name: string;
  type: ResourceSourceTypeValue;
  categories: string[];
  /** The cases (by name) it is attached to, in the order a participant's tabs show it. */
  cases: string[];
  details?: string;
  link?: string;
  file?: { name: string; bytes: () => Buffer };
}

const weightDiary = () =>
  textPagePdf(
    'Heart failure: your daily weight diary',
    'A leaflet for patients - Northwind Health cardiology team',
    [
      'Weigh yourself every morning, after the toilet and before breakfast, in the same clothes.',
      'Write the weight down, and note whether you were breathless or your ankles were swollen.',
      'Call the heart failure nurse if you gain more than 2 kg (4 lb) in three days.',
      'Bring this diary to every appointment.',
    ],
    [
      ['Day', 'Weight (kg)', 'Breathless?', 'Ankles'],
      ['Monday', '82.4', 'No', 'Normal'],
      ['Tuesday', '82.9', 'No', 'Normal'],
      ['Wednesday', '83.6', 'On stairs', 'Swollen'],
      ['Thursday', '84.5', 'Lying flat', 'Swollen'],
    ],
  );

const demoResources: DemoResource[] = [
  {
    name: 'Heart failure: daily weight diary (patient leaflet)',
    type: 'PDF',
    categories: ['Patient leaflets', 'Heart Failure'],
    cases: ['Breathless at night', 'Out of breath on the stairs'],
    file: { name: 'weight-diary.pdf', bytes: weightDiary },
  },
  {
    name: 'ECG: sinus rhythm, 75 beats a minute',
    type: 'IMAGE',
    categories: ['Investigations'],
    cases: ['Breathless at night'],
    file: { name: 'ecg-sinus-rhythm.png', bytes: () => ecgStripPng() },
  },
  {
    name: 'Echocardiogram: what the patient will see (video)',
    type: 'VIDEO',
    categories: ['Investigations', 'Heart Failure'],
    cases: ['Swollen ankles after a long flight'],
    file: { name: 'echo-explained.mp4', bytes: demoVideoMp4 },
  },
  {
    name: 'Heart failure guideline (NICE NG106)',
    type: 'URL',
    categories: ['Guidelines', 'Heart Failure'],
    cases: ['Breathless at night', 'Swollen ankles after a long flight'],
    link: 'https://www.nice.org.uk/guidance/ng106',
  },
  {
    name: 'Blood pressure targets (AHA/ACC)',
    type: 'URL',
    categories: ['Guidelines', 'Hypertension'],
    cases: ['Blood pressure at the pharmacy'],
    link: 'https://www.heart.org/en/health-topics/high-blood-pressure',
  },
  {
    name: 'Ankle swelling: the first questions to ask',
    type: 'TEXT',
    categories: ['Clinical notes'],
    cases: ['Swollen ankles after a long flight'],
    // A written resource's text is plain text (shown as written, line by line), not HTML.
    details:
      'Both ankles or one? Since when, and after what (a flight, a new medicine)?\n' +
      '- Calcium-channel blockers cause ankle swelling in up to one patient in ten.\n' +
      '- One swollen, painful calf after a flight: think of a deep vein thrombosis.\n' +
      '- Breathlessness lying flat as well: think of heart failure.',
  },
  {
    // A long name, as authors write them: on a phone its tab in the case must wrap, not run off the screen.
    name: 'Orthopnoea and paroxysmal nocturnal dyspnoea: what each tells you, and the questions that tell them apart',
    type: 'TEXT',
    categories: ['Clinical notes', 'Heart Failure'],
    cases: ['Breathless at night'],
    details:
      'Orthopnoea is breathlessness lying flat; PND wakes the patient gasping an hour or two after ' +
      'falling asleep. Both point to a raised left atrial pressure.',
  },
];

/**
 * The Resource Library's demo content: one resource of every kind (PDF, image, video, link,
 * text), in categories, attached to the demo cases. Files are stored and checked as an
 * upload is (`checkResourceFile`), and wait for their thumbnails and media facts like one:
 * the running app's resource worker draws them in its thumbnail process after start.
 * Without storage (some tests) only the links and texts are made.
 */
export async function seedDemoResources(
  db: Db,
  projectIds: string[],
  createdBy: string,
  storage: FileStorage | undefined,
  now: Date,
): Promise<void> {
  const repository = createResourcesRepository(db);
  const caseRows = await db
    .select({ id: cases.id, name: cases.name })
    .from(cases)
    .where(inArray(cases.projectId, projectIds));
  const attachments = new Map<string, string[]>();
  for (const [index, demo] of demoResources.entries()) {
    if (demo.file && !storage) continue;
    const at = new Date(now.getTime() - (demoResources.length - index) * 3_600_000);
    const common = { name: demo.name, sourceType: demo.type, createdBy, createdAt: at, updatedAt: at };
    let row;
    if (demo.file && storage) {
      const bytes = demo.file.bytes();
      const key = `resources/${randomUUID()}`;
      await storage.put(key, bytes);
      const checked = await checkResourceFile(storage, { key, fileName: demo.file.name, bytes: bytes.length });
      if (!checked.ok) throw new Error(`demo resource ${demo.file.name} refused: ${checked.message}`);
      row = await repository.insert({
        ...common,
        file: { key, name: storedName(demo.file.name, checked.type), type: checked.type, bytes: bytes.length },
        processing: 'PENDING',
      });
    } else {
      row = await repository.insert({ ...common, details: demo.details ?? '', link: demo.link ?? null });
    }
    const categoryIds = [];
    for (const name of demo.categories) categoryIds.push((await repository.ensureCategory(name)).id);
    await repository.setCategories(row.id, categoryIds);
    for (const caseName of demo.cases) {
      for (const c of caseRows.filter((r) => r.name === caseName)) {
        attachments.set(c.id, [...(attachments.get(c.id) ?? []), row.id]);
      }
    }
  }
  for (const [caseId, resourceIds] of attachments) await repository.setOfCase(caseId, resourceIds);
}
