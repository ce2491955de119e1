import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { MarkedAsValue, QuestionTypeValue, StoredCaseStatus, UpdateCaseBody } from '@pss/contract';
import type { Db } from '../src/db/client.js';
import {
  cases,
  diseaseTypes,
  projectDiseaseTypes,
  projectQuestionCategories,
  questionCategories,
  seasons,
} from '../src/db/schema/index.js';
import type { FileStorage } from '../src/lib/storage.js';
import { contentColumns } from '../src/modules/cases/case-content.js';
import { demoPortraitPng } from './demo-image.js';

type DemoQuestion = [QuestionTypeValue, string, category: string, choices: [string, MarkedAsValue | null][]];

interface DemoCase {
  name: string;
  disease: string;
  patient: string;
  age: number;
  reason: string;
  history: string;
  round: number;
  status: StoredCaseStatus;
  questions: DemoQuestion[];
  testResults?: string;
  explanation: string;
  /** What the demo portrait shows (the first case has one). */
  imageAlt?: string;
}

const demoCases: DemoCase[] = [
  {
    name: 'Breathless at night',
    disease: 'Heart Failure',
    patient: 'Robert Hale',
    age: 67,
    reason: 'Shortness of breath when lying flat, worse over two weeks; needs three pillows to sleep.',
    history: 'Hypertension for 15 years; stopped his ramipril in the spring. Ex-smoker.',
    round: 1,
    status: 'PUBLISHED',
    questions: [
      [
        'MULTI_ONE',
        'What is the most likely diagnosis?',
        'Diagnosis',
        [
          ['Heart failure', 'NECESSARY'],
          ['Pneumonia', 'UNNECESSARY'],
          ['Asthma', 'UNNECESSARY'],
        ],
      ],
      [
        'MULTI_MANY',
        'Which tests do you order first?',
        'Diagnosis',
        [
          ['BNP', 'NECESSARY'],
          ['Echocardiogram', 'NECESSARY'],
          ['ECG', 'APPROPRIATE'],
          ['Chest CT', 'UNNECESSARY'],
        ],
      ],
      [
        'DROPDOWN',
        'Which medication do you start?',
        'Treatment',
        [
          ['ACE inhibitor', 'NECESSARY'],
          ['Antibiotic', 'UNNECESSARY'],
        ],
      ],
      ['TEXT', 'What follow-up do you arrange?', 'Follow-up', []],
      [
        'TYPE_AHEAD',
        'Who do you refer him to?',
        'Follow-up',
        [
          ['Cardiologist', null],
          ['Heart failure nurse', null],
        ],
      ],
    ],
    testResults: 'BNP 1,450 pg/mL (raised). Echocardiogram: left ventricular ejection fraction 30 %.',
    explanation:
      'Orthopnoea with a history of untreated hypertension points to heart failure; BNP and an echocardiogram confirm it.',
    imageAlt: 'Illustration of Robert Hale, a man in his sixties, head and shoulders',
  },
  {
    name: 'Swollen ankles after a long flight',
    disease: 'Heart Failure',
    patient: 'Grace Okoye',
    age: 58,
    reason: 'Both ankles swollen since a long-haul flight a week ago; more tired than usual.',
    history: 'Type 2 diabetes on metformin. Started amlodipine two months ago.',
    round: 2,
    status: 'PUBLISHED',
    questions: [
      [
        'MULTI_MANY',
        'Which causes do you consider?',
        'Diagnosis',
        [
          ['Heart failure', 'NECESSARY'],
          ['Calcium-channel blocker side effect', 'NECESSARY'],
          ['Deep vein thrombosis', 'APPROPRIATE'],
          ['Gout', 'UNNECESSARY'],
        ],
      ],
      [
        'MULTI_ONE',
        'What do you do about the amlodipine?',
        'Treatment',
        [
          ['Review it and consider a switch', 'NECESSARY'],
          ['Double the dose', 'UNNECESSARY'],
        ],
      ],
      [
        'TYPE_AHEAD',
        'Who do you refer her to, if anyone?',
        'Follow-up',
        [
          ['Cardiologist', null],
          ['Vascular surgeon', null],
        ],
      ],
    ],
    explanation: 'Bilateral oedema after starting amlodipine is often the drug; heart failure must still be excluded.',
    imageAlt: 'Illustration of Grace Okoye, a woman in her fifties, head and shoulders',
  },
  {
    name: 'Blood pressure at the pharmacy',
    disease: 'Hypertension',
    patient: 'Daniel Brooks',
    age: 45,
    reason: 'Pharmacy reading of 168/102; no symptoms.',
    history: 'No medication. Drinks 20 units a week.',
    round: 3,
    status: 'DRAFT',
    questions: [
      [
        'MULTI_ONE',
        'What is your next step?',
        'Diagnosis',
        [
          ['Ambulatory blood pressure monitoring', 'NECESSARY'],
          ['Start two drugs today', 'UNNECESSARY'],
        ],
      ],
    ],
    explanation: '',
  },
];

/** Cases of the running demo project: one done, one active now, one draft for the next round. */
export async function seedDemoCases(db: Db, projectId: string, clientId: string, storage?: FileStorage): Promise<void> {
  const [season] = await db
    .select({ id: seasons.id })
    .from(seasons)
    .where(and(eq(seasons.projectId, projectId), eq(seasons.name, 'Spring Season')));
  const diseases = await db
    .select({ id: diseaseTypes.id, name: diseaseTypes.name })
    .from(diseaseTypes)
    .innerJoin(projectDiseaseTypes, eq(projectDiseaseTypes.diseaseTypeId, diseaseTypes.id))
    .where(eq(projectDiseaseTypes.projectId, projectId));
  const categories = await db
    .select({ id: questionCategories.id, name: questionCategories.name })
    .from(questionCategories)
    .innerJoin(projectQuestionCategories, eq(projectQuestionCategories.questionCategoryId, questionCategories.id))
    .where(eq(projectQuestionCategories.projectId, projectId));
  const idOf = (list: { id: string; name: string }[], name: string) => list.find((x) => x.name === name)?.id ?? null;

  for (const demo of demoCases) {
    const body: UpdateCaseBody = {
      name: demo.name,
      disease_type_id: idOf(diseases, demo.disease),
      patient_name: demo.patient,
      patient_age: demo.age,
      reason_for_encounter: `<p>${demo.reason}</p>`,
      season_id: season?.id ?? null,
      round_number: season ? demo.round : null,
      feedback_type: demo.status === 'DRAFT' ? null : 'PERSONALIZED_FEEDBACK',
      references: '',
      test_results: demo.testResults ? `<p>${demo.testResults}</p>` : '',
      image_alt: demo.imageAlt ?? '',
      explanation: demo.explanation ? `<p>${demo.explanation}</p>` : '',
      details_sections: [{ id: randomUUID(), name: 'History', text: `<p>${demo.history}</p>` }],
      groupers: [],
      questions: demo.questions.map(([type, text, category, choices]) => ({
        id: randomUUID(),
        grouper_id: null,
        type,
        text,
        text_before: '',
        required: true,
        category_id: idOf(categories, category),
        choices: choices.map(([choice, marked_as]) => ({ id: randomUUID(), text: choice, marked_as })),
        allow_other: false,
        allow_none_of_below: type === 'MULTI_MANY',
      })),
    };
    const image = storage && demo.imageAlt ? await storeDemoPortrait(storage) : null;
    await db.insert(cases).values({
      ...contentColumns(body),
      ...(image ? { imageKey: image, imageType: 'image/png' } : {}),
      origin: 'CUSTOM',
      clientId,
      projectId,
      status: demo.status,
      updatedAt: sql`now()`,
    });
  }
}

async function storeDemoPortrait(storage: FileStorage): Promise<string> {
  const key = `case-images/${randomUUID()}`;
  await storage.put(key, demoPortraitPng());
  return key;
}
