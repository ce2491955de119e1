import { and, eq, inArray, sql } from 'drizzle-orm';
import { issueCertificatesOfCme } from '../src/db/certificates.js';
import type { Db } from '../src/db/client.js';
import { cases, cmes } from '../src/db/schema/index.js';
import { copyValues } from '../src/modules/cases/case-transfers.service.js';
import { createElementsRepository } from '../src/modules/elements/elements.repository.js';
import { createModuleLibraryRepository } from '../src/modules/module-library/module-library.repository.js';

/** Each demo case's key takeaways, shown after its feedback and on the participant's dashboard. */
const takeaways: Record<string, string[]> = {
  'Breathless at night': [
    'Orthopnoea in a patient with untreated hypertension is heart failure until proven otherwise.',
    'A raised BNP and an echocardiogram confirm it; a chest CT adds nothing first.',
  ],
  'Swollen ankles after a long flight': [
    'Ankle swelling after starting amlodipine is often the drug.',
    'Still exclude heart failure and, with one painful calf, a deep vein thrombosis.',
  ],
  'Out of breath on the stairs': ['Start a loop diuretic for fluid overload; titrate a beta blocker slowly.'],
  'Dizzy after a new tablet': [
    'After a new blood-pressure tablet, check lying and standing pressure and kidney function.',
  ],
};

/** The tags an answer's choice gets, by its mark: shown beside the choice in the feedback. */
const tagOf = { NECESSARY: 'Guideline recommended', APPROPRIATE: 'Reasonable', UNNECESSARY: 'Low value' } as const;

/**
 * The running demo project's dashboard content (key takeaways and answer tags of its cases,
 * as their CSV uploads store them), a CME credit its Winter Season completers have earned,
 * and a module library holding copies of the Winter cases (as "Copy to module" makes them).
 */
export async function seedDemoLibrary(db: Db, projectId: string, today: Date): Promise<void> {
  const rows = await db.select().from(cases).where(eq(cases.projectId, projectId));
  const elements = createElementsRepository(db);
  const named = rows.filter((r) => takeaways[r.name]);
  await elements.replaceKeyTakeaways(
    named.map((r) => r.id),
    named.flatMap((r) => takeaways[r.name]!.map((text, position) => ({ caseId: r.id, position, text }))),
    'CUSTOM',
  );
  await elements.replaceAnswerTags(
    named.map((r) => r.id),
    named.flatMap((r) =>
      r.body.questions.flatMap((q) =>
        q.choices
          .filter((c) => c.marked_as)
          .map((c) => ({ caseId: r.id, questionId: q.id, choiceId: c.id, tag: tagOf[c.marked_as!] })),
      ),
    ),
    'CUSTOM',
  );
  await seedDemoCme(db, projectId, today);
  await seedDemoModuleLibrary(db, projectId);
}

/** The Winter Season completers' CME credit and its certificates. */
async function seedDemoCme(db: Db, projectId: string, today: Date): Promise<void> {
  const [winterCme] = await db
    .insert(cmes)
    .values({
      projectId,
      minCases: 2,
      credits: 1,
      moc: false,
      toteraCourseId: 'HF-2026-W',
      // A CME belongs to the project, not to one of its seasons: its text speaks of the project.
      custom: 'Awarded for two completed cases of Heart Failure Management 2026.',
    })
    .returning({ id: cmes.id });
  // Those who had completed two cases by yesterday hold its certificate, issued yesterday, as
  // they would had the CME been made then; its email went that day (the delivery log shows it sent).
  const issued = await issueCertificatesOfCme(db, winterCme!.id, new Date(today.getTime() - 86_400_000));
  await dateCertificatesAfterTheirCases(db, issued);
}

/** The demo's emails count their days in the schedule's default time zone, as its history does (demo-emails.ts). */
const DEMO_SCHEDULE_TIME_ZONE = 'UTC';

/**
 * A certificate is dated on or after every case it lists (issue #48): one whose holder
 * reached the minimum only later (a case completed today) is dated at that completion, as
 * the submit would have issued it, and lists the cases completed by then; its email goes with it.
 */
async function dateCertificatesAfterTheirCases(db: Db, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const list = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await db.execute(sql`
    update certificates k set
      issued_at = greatest(k.issued_at, (k.cases -> (k.min_cases - 1) ->> 'submitted_at')::timestamptz)
    where k.id in (${list})`);
  await db.execute(sql`
    update certificates k set cases = (
      select jsonb_agg(c.value order by c.ordinality) from jsonb_array_elements(k.cases) with ordinality c
      where (c.value ->> 'submitted_at')::timestamptz <= k.issued_at)
    where k.id in (${list})`);
  await db.execute(sql`
    update email_outbox o set status = 'SENT', created_at = k.issued_at, next_attempt_at = k.issued_at,
      sent_at = k.issued_at, rule_day = (k.issued_at at time zone ${DEMO_SCHEDULE_TIME_ZONE})::date, attempts = 1,
      attempt_log = jsonb_build_array(jsonb_build_object('at', k.issued_at, 'outcome', 'SENT'))
    from certificates k
    where o.certificate_id = k.id and k.id in (${list})`);
}

async function seedDemoModuleLibrary(db: Db, projectId: string): Promise<void> {
  const modules = createModuleLibraryRepository(db);
  const moduleId = await modules.create({
    name: 'Cardiology essentials',
    description: 'Heart failure and blood-pressure cases ready to copy into any project.',
    diseaseTypes: ['Heart Failure', 'Hypertension'],
    questionCategories: ['Diagnosis', 'Treatment', 'Follow-up'],
  });
  const winterNames = ['Out of breath on the stairs', 'Dizzy after a new tablet'];
  const winter = await db
    .select()
    .from(cases)
    .where(and(eq(cases.projectId, projectId), inArray(cases.name, winterNames)));
  // The copies the case transfers make, placed in the module, detached from their project case.
  await db.insert(cases).values(
    winter.map((row) => ({
      ...copyValues(row, row.name, true),
      origin: 'MODULE_LIBRARY' as const,
      clientId: null,
      projectId: null,
      moduleId,
      // The patient image stays with the project case (its file is not copied here).
      imageType: null,
      imageAlt: '',
    })),
  );
}
