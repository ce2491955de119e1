import { describe, expect, it } from 'vitest';
import { as } from '../../../test/kit.js';
import {
  AT,
  FORMULA_NAME,
  attachmentName,
  csvRows,
  person,
  xlsxRows,
  reportsSetup,
} from '../../../test/report-calls.js';

const { ctx, report, world } = reportsSetup();

// The world (test/report-calls.ts): Adams never starts, Baker has begun Alpha, Clark has
// completed Alpha (100), Beta (50, the half answer) and Gamma (100), Young (a formula for a
// first name) completed Gamma (50); a test user and an archived participant are left out.

describe('project score', () => {
  const header = [
    'Last name',
    'First name',
    'Email',
    'User ID',
    'Profession',
    'Season',
    'Round',
    'Case',
    'Status',
    'Submitted (UTC)',
    'Score',
    'Change from Round 1',
    'Necessary choices missed',
    'Unnecessary choices chosen',
    'Diagnosis: under-use (%)',
    'Diagnosis: over-use (%)',
    'Therapy: under-use (%)',
    'Therapy: over-use (%)',
  ];
  const cases = [
    ['1', 'Alpha chest pain'],
    ['1', 'Beta fever'],
    ['2', 'Gamma cough'],
    ['3', 'Delta headache'],
  ] as const;
  const blank = Array<string>(9).fill('');
  const notDone = (who: string[], [round, name]: readonly [string, string], status = 'Not started') => [
    ...who,
    'Spring 2026',
    round,
    name,
    status,
    ...blank,
  ];
  const [alpha, beta, gamma, delta] = cases;
  /** Every necessary choice: nothing missed, nothing unnecessary. */
  const perfect = ['0', '0', '0', '0', '0', '0'];
  /** ECG, Troponin + Lipase, Admit: CK-MB missed (1 of 3 Diagnosis necessary), Lipase chosen (1 of 2 unnecessary). */
  const half = ['1', '1', '33.3', '50', '0', '0'];
  const rows = () => {
    const adams = person(world.never);
    const baker = person(world.starter);
    const clark = person(world.finisher);
    const young = ['Young', `'${FORMULA_NAME}`, world.formula.email, "'+cmd", ''];
    return [
      header,
      ...cases.map((c) => notDone(adams, c)),
      notDone(baker, alpha, 'In progress'),
      ...[beta, gamma, delta].map((c) => notDone(baker, c)),
      [...clark, 'Spring 2026', ...alpha, 'Complete', AT, '100', '', ...perfect],
      [...clark, 'Spring 2026', ...beta, 'Complete', AT, '50', '', ...half],
      // Round 2 against their Round 1 average, (100 + 50) ÷ 2.
      [...clark, 'Spring 2026', ...gamma, 'Complete', AT, '100', '25', ...perfect],
      notDone(clark, delta),
      // No Round 1 to compare with.
      [...young, 'Spring 2026', ...gamma, 'Complete', AT, '50', '', ...half],
    ];
  };

  it('has a row per participant and case, with under- and over-use by question category, the same in XLSX', async () => {
    const csv = await report('project-score');
    expect(csvRows(csv)).toEqual(rows());
    expect(attachmentName(csv)).toBe('Cardio-Pilot-project-score-2026-03-20.csv');
    expect(await xlsxRows(await report('project-score', { format: 'xlsx' }))).toEqual(csvRows(csv));
  });

  it('narrows to a season', async () => {
    const csv = await report('project-score', { seasonName: 'Spring 2026' });
    expect(csvRows(csv)).toEqual(rows());
    expect(attachmentName(csv)).toBe('Cardio-Pilot-Spring-2026-project-score-2026-03-20.csv');
  });
});

describe('project survey responses', () => {
  const header = [
    'Last name',
    'First name',
    'Email',
    'User ID',
    'Season',
    'Round',
    'Case',
    'Survey',
    'Complete',
    'Answered (UTC)',
  ];

  // Rows and question columns are tested with surveys (modules/surveys/survey-report.test.ts).
  it('is its header row while nobody has answered a survey, in CSV and XLSX', async () => {
    const csv = await report('project-survey-response/START_NEW');
    expect(csvRows(csv)).toEqual([header]);
    expect(attachmentName(csv)).toBe('Cardio-Pilot-survey-responses-start-new-2026-03-20.csv');
    const xlsx = await report('project-survey-response/END', { format: 'xlsx' });
    expect(await xlsxRows(xlsx)).toEqual([header]);
    expect(attachmentName(xlsx)).toBe('Cardio-Pilot-survey-responses-end-2026-03-20.xlsx');
  });
});

describe('project usage', () => {
  const header = [
    'Last name',
    'First name',
    'Email',
    'User ID',
    'Profession',
    'Seasons',
    'Sign-ins',
    'First sign-in (UTC)',
    'Last sign-in (UTC)',
    'Last seen (UTC)',
    'Cases assigned',
    'Cases started',
    'Cases completed',
    'Last answer (UTC)',
  ];
  const signedInOnce = ['1', AT, AT, AT];

  it('has a row per participant with their sign-ins and work, the same in XLSX', async () => {
    const csv = await report('project-usage');
    expect(csvRows(csv)).toEqual([
      header,
      [...person(world.never), 'Spring 2026', '0', '', '', '', '4', '0', '0', ''],
      [...person(world.starter), 'Spring 2026', ...signedInOnce, '4', '1', '0', AT],
      [...person(world.finisher), 'Spring 2026', ...signedInOnce, '4', '3', '3', AT],
      [
        'Young',
        `'${FORMULA_NAME}`,
        world.formula.email,
        "'+cmd",
        '',
        'Spring 2026',
        ...signedInOnce,
        '1',
        '1',
        '1',
        AT,
      ],
    ]);
    expect(attachmentName(csv)).toBe('Cardio-Pilot-project-usage-2026-03-20.csv');
    expect(await xlsxRows(await report('project-usage', { format: 'xlsx' }))).toEqual(csvRows(csv));
  });

  it('counts every sign-in, and the latest', async () => {
    const later = '2026-03-22T15:30:00Z';
    ctx.clock.set(later);
    try {
      await as(ctx, world.finisher);
      const clark = csvRows(await report('project-usage')).find((row) => row[0] === 'Clark')!;
      expect(clark.slice(6, 10)).toEqual(['2', AT, '2026-03-22 15:30:00', '2026-03-22 15:30:00']);
    } finally {
      ctx.clock.set('2026-03-20T09:00:00Z');
    }
  });
});
