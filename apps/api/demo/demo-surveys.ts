import { asc, eq } from 'drizzle-orm';
import {
  createSurveyTemplateBody,
  surveyAnswerBody,
  type QuestionTypeValue,
  type SurveyAnswer,
  type SurveyTemplate,
  type SurveyTemplateTypeValue,
} from '@pss/contract';
import type { Db } from '../src/db/client.js';
import { syncAttempts } from '../src/db/attempt-sync.js';
import { seasons, users, userSeasonRoundCases } from '../src/db/schema/index.js';
import { fixedClock } from '../src/lib/clock.js';
import type { AccessClaims } from '../src/lib/tokens.js';
import type { ProjectsService } from '../src/modules/projects/projects.service.js';
import { createSurveysService } from '../src/modules/surveys/surveys.service.js';
import { DEMO_MID_SEASON, DEMO_NEW_PARTICIPANT } from './demo-participants.js';
import { DEMO_WINTER_COMPLETER, DEMO_WINTER_UNFINISHED } from './demo-results.js';

type Question = [QuestionTypeValue, string, choices: string[], required?: boolean];
type Component = Question | { infoReview: string };
interface DemoTemplate {
  name: string;
  type: SurveyTemplateTypeValue;
  pages: { name: string; components: Component[] }[];
}

const demoTemplates: DemoTemplate[] = [
  {
    name: 'Welcome: new participants',
    type: 'START_NEW',
    pages: [
      {
        name: 'About you',
        components: [
          ['MULTI_ONE', 'How long have you been in practice?', ['Under 5 years', '5 to 15 years', 'Over 15 years']],
          ['DROPDOWN', 'Where do you see most of your patients?', ['Hospital clinic', 'Primary care', 'Community']],
        ],
      },
      {
        name: 'Your goals',
        components: [
          [
            'MULTI_MANY',
            'What do you hope to get from the cases?',
            ['Guideline updates', 'Practice with unusual presentations', 'CME credits'],
          ],
          ['TEXT', 'Is there anything we should know about you?', [], false],
        ],
      },
    ],
  },
  {
    name: 'Welcome back: returning participants',
    type: 'START_RETURNING',
    pages: [
      { name: 'Your details', components: [{ infoReview: 'Please check your details before the new season.' }] },
      {
        name: 'Last season',
        components: [
          ['MULTI_ONE', 'Did last season’s cases change how you practise?', ['Yes, a lot', 'A little', 'Not yet']],
          [
            'TYPE_AHEAD',
            'Which topic would you like more cases on?',
            ['Heart failure', 'Hypertension', 'Atrial fibrillation', 'Type 2 diabetes'],
          ],
        ],
      },
    ],
  },
  {
    name: 'Case review',
    type: 'REVIEW',
    pages: [
      {
        name: 'This case',
        components: [
          ['MULTI_ONE', 'How realistic was this patient?', ['Very realistic', 'Somewhat realistic', 'Not realistic']],
          ['MULTI_ONE', 'How useful was the feedback?', ['Very useful', 'Useful', 'Not useful']],
          ['TEXT', 'What would you change about this case?', [], false],
        ],
      },
    ],
  },
  {
    name: 'End of season',
    type: 'END',
    pages: [
      {
        name: 'The season',
        components: [
          [
            'MULTI_ONE',
            'How likely are you to recommend the programme to a colleague?',
            ['Very likely', 'Likely', 'Unlikely'],
          ],
          [
            'MULTI_MANY',
            'Which parts helped you most?',
            ['The cases', 'The feedback', 'The resources', 'The results summary'],
          ],
        ],
      },
      {
        name: 'Next season',
        components: [
          ['DROPDOWN', 'How many cases a round would suit you?', ['One', 'Two', 'Three']],
          ['TEXT', 'Anything else you would like to tell us?', [], false],
        ],
      },
    ],
  },
];

const comments = [
  'More on when to refer to a cardiologist, please.',
  'The feedback on each choice was the most useful part.',
  'A case with a patient who cannot take ACE inhibitors.',
  'Shorter histories would suit a phone.',
];

/** Answers to every question of a template, varied by `seed` as different people would answer. */
function answersTo(template: SurveyTemplate, seed: number): SurveyAnswer[] {
  const answers: SurveyAnswer[] = [];
  let n = seed;
  for (const page of template.pages) {
    for (const c of page.components) {
      if (c.kind !== 'QUESTION') continue;
      n += 1;
      if (c.type === 'TEXT') {
        if (n % 2 === 0) answers.push({ component_id: c.id, text: comments[n % comments.length] });
      } else if (c.type === 'TYPE_AHEAD') {
        answers.push({ component_id: c.id, text: c.choices[n % c.choices.length]!.text });
      } else if (c.type === 'MULTI_MANY') {
        answers.push({
          component_id: c.id,
          choice_ids: c.choices.filter((_, i) => (i + n) % 3 !== 2).map((x) => x.id),
        });
      } else {
        // Most say the first choice, some the second.
        answers.push({ component_id: c.id, choice_ids: [c.choices[n % 3 === 0 ? 1 : 0]!.id] });
      }
    }
  }
  return answers;
}

function templateBody(demo: DemoTemplate) {
  return createSurveyTemplateBody.parse({
    name: demo.name,
    type: demo.type,
    pages: demo.pages.map((page) => ({
      name: page.name,
      components: page.components.map((c) =>
        'infoReview' in c
          ? { kind: 'INFO_REVIEW', text: c.infoReview }
          : {
              kind: 'QUESTION',
              type: c[0],
              text: c[1],
              required: c[3] ?? true,
              allow_other: false,
              allow_none_of_below: false,
              choices: c[2].map((text) => ({ text })),
            },
      ),
    })),
  });
}

/**
 * The four survey templates, complete, chosen for the running demo project through its
 * survey settings (as an administrator does), and answered by the demo participants through
 * the participants' own answer call, each at the moment they would have answered: the start
 * survey before their first case of a season, the review after each case they submitted, the
 * end survey after the season's last. Not answered: Priya Natarajan's Spring start survey
 * (a browser flow answers it) and the new participant's.
 */
export async function seedDemoSurveys(
  db: Db,
  projectId: string,
  superadmin: AccessClaims,
  projects: Pick<ProjectsService, 'requireVisible'>,
  today: Date,
): Promise<void> {
  const clock = fixedClock(today);
  const surveys = createSurveysService({ db, projects, clock });
  const made = new Map<SurveyTemplateTypeValue, SurveyTemplate>();
  for (const [i, demo] of demoTemplates.entries()) {
    clock.set(new Date(today.getTime() - (200 - i) * 86_400_000));
    made.set(demo.type, await surveys.create(superadmin, templateBody(demo)));
  }
  clock.set(new Date(today.getTime() - 190 * 86_400_000));
  await surveys.setProjectSurvey(superadmin, projectId, {
    start_new_template_id: made.get('START_NEW')!.id,
    start_returning_template_id: made.get('START_RETURNING')!.id,
    review_template_id: made.get('REVIEW')!.id,
    end_template_id: made.get('END')!.id,
  });

  await syncAttempts(db, { projectId });
  const attempts = await db
    .select({
      id: userSeasonRoundCases.id,
      userId: userSeasonRoundCases.userId,
      email: users.email,
      seasonId: userSeasonRoundCases.seasonId,
      seasonName: seasons.name,
      seasonStart: seasons.startDate,
      status: userSeasonRoundCases.status,
      startedAt: userSeasonRoundCases.startedAt,
      submittedAt: userSeasonRoundCases.submittedAt,
    })
    .from(userSeasonRoundCases)
    .innerJoin(users, eq(users.id, userSeasonRoundCases.userId))
    .innerJoin(seasons, eq(seasons.id, userSeasonRoundCases.seasonId))
    .where(eq(userSeasonRoundCases.projectId, projectId))
    .orderBy(asc(users.email), asc(seasons.startDate), asc(userSeasonRoundCases.roundNumber));

  let seed = 0;
  const answer = async (type: SurveyTemplateTypeValue, attempt: (typeof attempts)[number], at: Date) => {
    const template = made.get(type)!;
    clock.set(at);
    const caller: AccessClaims = { userId: attempt.userId, role: 'USER', clientId: null };
    const body = surveyAnswerBody.parse({ answers: answersTo(template, (seed += 3)), complete: true });
    await surveys.answer(caller, template.id, attempt.id, body);
  };
  const minutes = (date: Date, n: number) => new Date(date.getTime() + n * 60_000);

  const started = new Set<string>();
  for (const attempt of attempts) {
    const key = `${attempt.userId}:${attempt.seasonId}`;
    const spring = attempt.seasonName === 'Spring Season';
    // Left for the browser flows and the newcomer: their start survey is still to come.
    if (spring && (attempt.email === DEMO_WINTER_UNFINISHED || attempt.email === DEMO_NEW_PARTICIPANT)) continue;
    // The start survey: before the first case they opened in the season, or (the demo's
    // mid-season participant, and the returning one) a few days ago, before a case they have yet to begin.
    const opensSoon = spring && (attempt.email === DEMO_WINTER_COMPLETER || attempt.email === DEMO_MID_SEASON);
    if (!started.has(key) && (attempt.startedAt || opensSoon)) {
      started.add(key);
      // Returning: they took part in an earlier season of the project (the answer call checks it too).
      const returning = attempts.some(
        (a) => a.userId === attempt.userId && (a.seasonStart ?? '') < (attempt.seasonStart ?? ''),
      );
      const at = attempt.startedAt ? minutes(attempt.startedAt, -4) : new Date(today.getTime() - 3 * 86_400_000);
      await answer(returning ? 'START_RETURNING' : 'START_NEW', attempt, at);
    }
    if (attempt.status === 'COMPLETE' && attempt.submittedAt) {
      await answer('REVIEW', attempt, minutes(attempt.submittedAt, 2));
    }
  }
  // The end survey: by whoever completed a season, after its last case.
  const seasonsDone = new Map<string, (typeof attempts)[number]>();
  for (const attempt of attempts) {
    const key = `${attempt.userId}:${attempt.seasonId}`;
    const all = attempts.filter((a) => `${a.userId}:${a.seasonId}` === key);
    if (all.every((a) => a.status === 'COMPLETE' && a.submittedAt)) seasonsDone.set(key, all[all.length - 1]!);
  }
  for (const last of seasonsDone.values()) await answer('END', last, minutes(last.submittedAt!, 5));
}
