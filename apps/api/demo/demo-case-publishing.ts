import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { MarkedAsValue } from '@pss/contract';
import type { Db } from '../src/db/client.js';
import {
  cases,
  diseaseTypes,
  projectDiseaseTypes,
  projectQuestionCategories,
  questionCategories,
} from '../src/db/schema/index.js';
import { contentColumns } from '../src/modules/cases/case-content.js';
import { scoreCase } from '../src/modules/cases/scoring.js';

// The demo's published seasons (the Winter Season's results, the pilot's) publish their
// multiple-choice cases and score their clinicians' work the same way.

type Choice = [string, MarkedAsValue];

/** A demo case of multiple-choice questions: each question's text, category and choices. */
export interface DemoChoiceCase {
  name: string;
  patient: string;
  age: number;
  reason: string;
  round: number;
  questions: [string, category: string, choices: Choice[]][];
}

/** Where a demo case is published: its project, client, season, disease type and the project's categories. */
export interface DemoCasePlace {
  projectId: string;
  clientId: string;
  seasonId: string;
  diseaseTypeId: string | null;
  categories: { id: string; name: string }[];
}

/** Where a season's demo cases go: with the project's disease type of that name and its categories. */
export async function demoCasePlace(
  db: Db,
  where: { projectId: string; clientId: string; seasonId: string },
  diseaseName: string,
): Promise<DemoCasePlace> {
  const [disease] = await db
    .select({ id: diseaseTypes.id })
    .from(diseaseTypes)
    .innerJoin(projectDiseaseTypes, eq(projectDiseaseTypes.diseaseTypeId, diseaseTypes.id))
    .where(and(eq(projectDiseaseTypes.projectId, where.projectId), eq(diseaseTypes.name, diseaseName)));
  const categories = await db
    .select({ id: questionCategories.id, name: questionCategories.name })
    .from(questionCategories)
    .innerJoin(projectQuestionCategories, eq(projectQuestionCategories.questionCategoryId, questionCategories.id))
    .where(eq(projectQuestionCategories.projectId, where.projectId));
  return { ...where, diseaseTypeId: disease?.id ?? null, categories };
}

/** A demo case of multiple-choice questions, published in its round of the season. */
export async function publishDemoCase(db: Db, place: DemoCasePlace, demo: DemoChoiceCase) {
  const [row] = await db
    .insert(cases)
    .values({
      ...contentColumns({
        name: demo.name,
        disease_type_id: place.diseaseTypeId,
        patient_name: demo.patient,
        patient_age: demo.age,
        reason_for_encounter: `<p>${demo.reason}</p>`,
        season_id: place.seasonId,
        round_number: demo.round,
        feedback_type: 'PERSONALIZED_FEEDBACK',
        references: '',
        test_results: '',
        explanation: '',
        details_sections: [],
        groupers: [],
        questions: demo.questions.map(([text, category, choices]) => ({
          id: randomUUID(),
          grouper_id: null,
          type: 'MULTI_MANY' as const,
          text,
          text_before: '',
          required: true,
          category_id: place.categories.find((c) => c.name === category)?.id ?? null,
          choices: choices.map(([choice, marked_as]) => ({ id: randomUUID(), text: choice, marked_as })),
          allow_other: false,
          allow_none_of_below: false,
        })),
      }),
      origin: 'CUSTOM',
      clientId: place.clientId,
      projectId: place.projectId,
      status: 'PUBLISHED',
    })
    .returning();
  return row!;
}

/** A demo attempt's score, as the platform scores a submit. */
export function demoScore(
  row: Awaited<ReturnType<typeof publishDemoCase>>,
  answers: { questionId: string; choiceIds: string[] }[],
): number {
  return scoreCase(
    row.body.questions.map((q) => ({
      id: q.id,
      type: q.type,
      choices: q.choices.map((c) => ({ id: c.id, markedAs: c.marked_as ?? 'APPROPRIATE' })),
    })),
    new Map(answers.map((a) => [a.questionId, { choiceIds: a.choiceIds }])),
  ).score;
}
