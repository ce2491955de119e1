/**
 * A project with participants' work at scale, seeded set-based in SQL (generate_series), for
 * the reports benchmark (`bench/reports.ts`) and the reports test that reads many pages.
 * Never through the API: a million answers would take hours one call at a time.
 *
 * One season of two rounds (both begun), `cases` published cases (alternately in round 1
 * and 2) of `questions` multiple-choice questions each (two necessary, one appropriate, one
 * unnecessary choice; categories alternating between two), and `participants` clinicians
 * assigned to both rounds. Of their attempts a fifth are not started, a tenth in progress
 * (half their questions answered) and the rest complete with every question answered and a
 * score; so the answers number about participants × cases × questions × 0.75.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { seedAttemptsUncounted } from '../apps/api/src/db/kept-counts.js';
import { rowsOf, type Db } from '../apps/api/src/db/client.js';
import {
  cases,
  clients,
  diseaseTypes,
  projectDiseaseTypes,
  projectQuestionCategories,
  projects,
  questionCategories,
  rounds,
  seasons,
} from '../apps/api/src/db/schema/index.js';
import { contentColumns } from '../apps/api/src/modules/cases/case-content.js';

export interface ReportSeedSize {
  participants: number;
  cases: number;
  questions: number;
}

export interface ReportSeed {
  projectId: string;
  seasonName: string;
  participants: number;
  attempts: number;
  answers: number;
}

/** How many participants make about `answers` answers with these cases and questions. */
export function participantsFor(answers: number, cases: number, questions: number): number {
  return Math.max(1, Math.ceil(answers / (cases * questions * 0.75)));
}

export async function seedReportProject(db: Db, size: ReportSeedSize, today = new Date()): Promise<ReportSeed> {
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const tag = randomUUID().slice(0, 8);
  const [client] = await db
    .insert(clients)
    .values({ name: `Report bench ${tag}` })
    .returning();
  const [project] = await db
    .insert(projects)
    .values({ clientId: client!.id, name: `Report bench ${tag}` })
    .returning();
  const [disease] = await db
    .insert(diseaseTypes)
    .values({ name: `Report disease ${tag}` })
    .returning();
  const categories = await db
    .insert(questionCategories)
    .values([{ name: `Report history ${tag}` }, { name: `Report treatment ${tag}` }])
    .returning();
  await db.insert(projectDiseaseTypes).values({ projectId: project!.id, diseaseTypeId: disease!.id });
  await db
    .insert(projectQuestionCategories)
    .values(categories.map((c) => ({ projectId: project!.id, questionCategoryId: c.id })));
  const seasonName = 'Report season';
  const [season] = await db
    .insert(seasons)
    .values({ projectId: project!.id, name: seasonName, position: 0, startDate: day(-20), endDate: day(20) })
    .returning();
  await db.insert(rounds).values([
    { seasonId: season!.id, number: 1, startDate: day(-20), endDate: day(-1) },
    { seasonId: season!.id, number: 2, startDate: day(0), endDate: day(20) },
  ]);
  for (let c = 0; c < size.cases; c++) {
    await db.insert(cases).values({
      ...contentColumns({
        name: `Report case ${String(c + 1).padStart(2, '0')}`,
        disease_type_id: disease!.id,
        patient_name: 'Bench Patient',
        patient_age: 50,
        reason_for_encounter: '<p>Benchmark</p>',
        season_id: season!.id,
        round_number: (c % 2) + 1,
        feedback_type: 'PERSONALIZED_FEEDBACK',
        references: '',
        test_results: '',
        explanation: '',
        details_sections: [],
        groupers: [],
        questions: Array.from({ length: size.questions }, (_, q) => ({
          id: randomUUID(),
          grouper_id: null,
          type: 'MULTI_MANY' as const,
          text: `Question ${q + 1}`,
          text_before: '',
          required: true,
          category_id: categories[q % 2]!.id,
          choices: (['NECESSARY', 'NECESSARY', 'APPROPRIATE', 'UNNECESSARY'] as const).map((marked_as, i) => ({
            id: randomUUID(),
            text: `Choice ${i + 1}`,
            marked_as,
          })),
          allow_other: false,
          allow_none_of_below: false,
        })),
      }),
      origin: 'CUSTOM',
      clientId: client!.id,
      projectId: project!.id,
      status: 'PUBLISHED',
    });
  }

  const projectId = project!.id;
  await db.execute(sql`
    insert into users (email, role, first_name, last_name, client_id, employee_id, profession)
    select 'report' || i || '-' || ${tag} || '@bench.local', 'USER', 'First' || i, 'Last' || lpad(i::text, 7, '0'),
      ${client!.id}::uuid, 'R-' || i, (array['MD', 'DO', 'AS', 'MSW'])[1 + i % 4]
    from generate_series(1, ${size.participants}::int) i`);
  // The foreign keys' checks are planned once per connection, on the statistics of the
  // moment: a users table last analysed with a row or two is read whole for each of the
  // next statement's 100,000 rows (minutes). Analysing it now replans them.
  await db.execute(sql`analyze users`);
  await db.execute(sql`
    insert into project_participants (project_id, user_id, sort_name, email, data_status)
    select ${projectId}::uuid, u.id, lower(u.last_name || ' ' || u.first_name), u.email, 'READY'
    from users u where u.client_id = ${client!.id}::uuid`);
  await db.execute(sql`
    insert into participant_search (project_id, user_id, terms)
    select pp.project_id, pp.user_id, pp.sort_name || ' ' || pp.email from project_participants pp
    where pp.project_id = ${projectId}::uuid`);
  await db.execute(sql`
    insert into participant_assignments (user_id, season_id, project_id, first_round, last_round, start_date)
    select pp.user_id, ${season!.id}::uuid, ${projectId}::uuid, 1, 2, ${day(-30)}::date
    from project_participants pp where pp.project_id = ${projectId}::uuid`);
  await db.execute(sql`analyze project_participants, participant_assignments`);
  await db.execute(sql`
    update projects set active_participants = ${size.participants}, participants_version = participants_version + 1
    where id = ${projectId}::uuid`);

  // Seeded uncounted, then counted once (the kept counts: docs/design/statistics.md).
  await seedAttemptsUncounted(db, async () => {
    // Each attempt's fate from a hash of its ids: 20 % not started, 10 % in progress, 70 % complete.
    await db.execute(sql`
      insert into user_season_round_cases
        (user_id, project_id, case_id, season_id, round_number, unlocks_on, status, score, started_at, submitted_at)
      select pp.user_id, c.project_id, c.id, c.season_id, c.round_number, r.start_date, fate.status,
        case when fate.status = 'COMPLETE' then fate.h % 101 end,
        case when fate.status <> 'NOT_STARTED' then r.start_date + interval '9 hours' end,
        case when fate.status = 'COMPLETE' then r.start_date + interval '10 hours' end
      from project_participants pp
      cross join cases c
      join rounds r on r.season_id = c.season_id and r.number = c.round_number
      cross join lateral (
        select h, case when h % 10 < 2 then 'NOT_STARTED' when h % 10 < 3 then 'IN_PROGRESS' else 'COMPLETE' end as status
        from (select abs(hashtext(pp.user_id::text || c.id::text)::bigint) as h) hashed) fate
      where pp.project_id = ${projectId}::uuid and c.project_id = ${projectId}::uuid`);
    // Every question of a complete attempt, the first half of an attempt in progress; the
    // choices picked vary with the hash (sometimes the unnecessary one, sometimes a necessary missed).
    await db.execute(sql`
      insert into case_answers (user_season_round_case_id, question_id, choice_ids, none_of_below, updated_at)
      select a.id, (q.value ->> 'id')::uuid,
        case (abs(hashtext(a.id::text || q.ordinality::text)::bigint) % 4)
          when 0 then jsonb_build_array(q.value -> 'choices' -> 0 ->> 'id', q.value -> 'choices' -> 1 ->> 'id')
          when 1 then jsonb_build_array(q.value -> 'choices' -> 0 ->> 'id')
          when 2 then jsonb_build_array(q.value -> 'choices' -> 0 ->> 'id', q.value -> 'choices' -> 3 ->> 'id')
          else jsonb_build_array(q.value -> 'choices' -> 1 ->> 'id', q.value -> 'choices' -> 2 ->> 'id')
        end,
        false, coalesce(a.submitted_at, a.started_at)
      from user_season_round_cases a
      join cases c on c.id = a.case_id
      cross join lateral jsonb_array_elements(c.body -> 'questions') with ordinality q
      where a.project_id = ${projectId}::uuid and a.status <> 'NOT_STARTED'
        and (a.status = 'COMPLETE' or q.ordinality <= ${Math.ceil(size.questions / 2)})`);
  });
  await db.execute(sql`analyze`);

  const [counts] = rowsOf<{ attempts: number; answers: number }>(
    await db.execute(sql`
      select (select count(*)::int from user_season_round_cases where project_id = ${projectId}::uuid) as attempts,
        (select count(*)::int from case_answers ca join user_season_round_cases a on a.id = ca.user_season_round_case_id
          where a.project_id = ${projectId}::uuid) as answers`),
  );
  return {
    projectId,
    seasonName,
    participants: size.participants,
    attempts: counts!.attempts,
    answers: counts!.answers,
  };
}
